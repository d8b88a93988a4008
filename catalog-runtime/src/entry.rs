//! One error of a catalog.

use std::fmt;

use crate::format::Template;
use crate::model::{Record, Text};

#[cfg(feature = "cache")]
pub(crate) mod blob;
#[cfg(feature = "cache")]
pub(crate) mod head_bytes;
#[cfg(feature = "cache")]
pub(crate) mod record_bytes;

#[cfg(feature = "cache")]
use record_bytes::CachedRecord;

/// One error of a catalog: its record, its variant name and its compiled
/// message. What a generated variant's `metadata()` returns, and what
/// [`Catalog::entries`](crate::Catalog::entries) lists.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(any(feature = "serde", feature = "cache"), derive(serde::Serialize, serde::Deserialize))]
pub struct Entry {
    /// The variant name (`UnableToPersistSession`).
    pub name: Text,
    record: RecordCell,
    /// The compiled message: pieces, typed fields and regex.
    pub template: Template,
}

/// An entry's record: decoded, or still the bytes of a cache hit (most
/// runs read a few records of thousands). Compares, prints and serializes
/// as the record either way. Boxed: a record is hundreds of bytes, and
/// every entry of a catalog is written at its load (unboxed, the entries of
/// the embedded datasets were 10 MB of fresh memory, most of a start-up's
/// page faults).
#[derive(Clone)]
enum RecordCell {
    Decoded(Box<Record>),
    #[cfg(feature = "cache")]
    Cached(CachedRecord),
}

impl Entry {
    /// The entry of `record` under variant name `name`, its message
    /// compiled as `template`.
    pub fn new(name: impl Into<Text>, record: Record, template: Template) -> Entry {
        Entry { name: name.into(), record: RecordCell::Decoded(Box::new(record)), template }
    }

    /// The entry of a cache hit, its record decoded on first use.
    #[cfg(feature = "cache")]
    pub(crate) fn cached(name: Text, record: CachedRecord, template: Template) -> Entry {
        Entry { name, record: RecordCell::Cached(record), template }
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

impl RecordCell {
    fn get(&self) -> &Record {
        match self {
            RecordCell::Decoded(record) => record,
            #[cfg(feature = "cache")]
            RecordCell::Cached(record) => record.get(),
        }
    }
}

impl PartialEq for RecordCell {
    fn eq(&self, other: &RecordCell) -> bool {
        self.get() == other.get()
    }
}

impl fmt::Debug for RecordCell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.get().fmt(f)
    }
}

#[cfg(any(feature = "serde", feature = "cache"))]
impl serde::Serialize for RecordCell {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.get().serialize(serializer)
    }
}

#[cfg(any(feature = "serde", feature = "cache"))]
impl<'de> serde::Deserialize<'de> for RecordCell {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        Record::deserialize(deserializer).map(|record| RecordCell::Decoded(Box::new(record)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_entry_is_small_whether_its_record_is_decoded_or_not() {
        // Every entry of a catalog is written at its load, its record read
        // or not: the record is boxed (a `Record` is hundreds of bytes).
        assert!(
            std::mem::size_of::<Entry>() <= 3 * std::mem::size_of::<Template>(),
            "{}",
            std::mem::size_of::<Entry>()
        );
        assert!(std::mem::size_of::<Record>() > std::mem::size_of::<Entry>());
    }
}
