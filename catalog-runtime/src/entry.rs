//! One error of a catalog.

use std::fmt;
#[cfg(feature = "cache")]
use std::ops::Range;
#[cfg(feature = "cache")]
use std::sync::Arc;
use std::sync::OnceLock;

use crate::format::Template;
use crate::model::{Record, Text};

/// One error of a catalog: its record, its variant name and its compiled
/// message. What a generated variant's `metadata()` returns, and what
/// [`Catalog::entries`](crate::Catalog::entries) lists.
#[derive(Clone)]
pub struct Entry {
    /// The variant name (`UnableToPersistSession`).
    pub name: Text,
    /// The compiled message: pieces, typed fields and regex.
    pub template: Template,
    record: RecordSlot,
}

impl Entry {
    /// The entry of `record` under variant name `name`, its message
    /// compiled as `template`.
    pub fn new(name: impl Into<Text>, record: Record, template: Template) -> Entry {
        Entry { name: name.into(), template, record: RecordSlot::ready(record) }
    }

    /// An entry whose record is still encoded: decoded on first use, so that
    /// a catalog loaded from the cache pays only for the records it shows
    /// (matching needs only the templates).
    #[cfg(feature = "cache")]
    pub(crate) fn encoded(name: Text, template: Template, record: EncodedRecord) -> Entry {
        Entry { name, template, record: RecordSlot { decoded: OnceLock::new(), encoded: Some(record) } }
    }

    /// The record as loaded from the dataset.
    pub fn record(&self) -> &Record {
        self.record.get()
    }

    /// The names of the message's fields, in order.
    pub fn field_names(&self) -> impl ExactSizeIterator<Item = &str> {
        self.template.fields.iter().map(|field| field.name.as_ref())
    }
}

impl AsRef<Template> for Entry {
    fn as_ref(&self) -> &Template {
        &self.template
    }
}

impl PartialEq for Entry {
    fn eq(&self, other: &Entry) -> bool {
        self.name == other.name && self.template == other.template && self.record() == other.record()
    }
}

impl fmt::Debug for Entry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Entry")
            .field("name", &self.name)
            .field("record", self.record())
            .field("template", &self.template)
            .finish()
    }
}

/// A record, or the bytes it is decoded from when first asked for. Boxed:
/// a record is most of an entry's size, and a catalog's entries are moved
/// and copied as they are gathered.
#[derive(Clone)]
struct RecordSlot {
    decoded: OnceLock<Box<Record>>,
    #[cfg(feature = "cache")]
    encoded: Option<EncodedRecord>,
}

impl RecordSlot {
    fn ready(record: Record) -> RecordSlot {
        RecordSlot {
            decoded: OnceLock::from(Box::new(record)),
            #[cfg(feature = "cache")]
            encoded: None,
        }
    }

    fn get(&self) -> &Record {
        self.decoded.get_or_init(|| {
            #[cfg(feature = "cache")]
            if let Some(encoded) = &self.encoded {
                return Box::new(encoded.decode());
            }
            // Every slot is made ready or with its bytes.
            Box::default()
        })
    }
}

/// Where a record still encoded is decoded from: the records of a cache
/// file, read when the first of them is asked for.
#[cfg(feature = "cache")]
pub(crate) trait RecordSource: Send + Sync {
    /// The record of entry `index`, encoded at `range` of the source.
    fn record(&self, index: usize, range: Range<usize>) -> Record;
}

/// A record kept encoded in its [`RecordSource`], decoded when first asked
/// for. Most of a cache file is records (documentation, solutions), and
/// reading and decoding them all was most of a start-up.
#[cfg(feature = "cache")]
#[derive(Clone)]
pub(crate) struct EncodedRecord {
    source: Arc<dyn RecordSource>,
    /// The entry's index in its catalog.
    index: usize,
    range: Range<usize>,
}

#[cfg(feature = "cache")]
impl EncodedRecord {
    pub(crate) fn new(source: Arc<dyn RecordSource>, index: usize, range: Range<usize>) -> EncodedRecord {
        EncodedRecord { source, index, range }
    }

    fn decode(&self) -> Record {
        self.source.record(self.index, self.range.clone())
    }
}

#[cfg(any(feature = "serde", feature = "cache"))]
mod serde_impls {
    use serde::ser::SerializeStruct;
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    use super::{Entry, Record, Template, Text};

    impl Serialize for Entry {
        fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
            let mut out = serializer.serialize_struct("Entry", 3)?;
            out.serialize_field("name", &self.name)?;
            out.serialize_field("record", self.record())?;
            out.serialize_field("template", &self.template)?;
            out.end()
        }
    }

    /// An entry as it serializes: the fields in the order they always had.
    #[derive(Deserialize)]
    #[serde(rename = "Entry")]
    struct Fields {
        name: Text,
        record: Record,
        template: Template,
    }

    impl<'de> Deserialize<'de> for Entry {
        fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Entry, D::Error> {
            let Fields { name, record, template } = Fields::deserialize(deserializer)?;
            Ok(Entry::new(name, record, template))
        }
    }
}
