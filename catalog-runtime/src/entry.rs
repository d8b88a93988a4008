//! One error of a catalog.

use crate::format::Template;
use crate::model::{Record, Text};

/// One error of a catalog: its record, its variant name and its compiled
/// message. What a generated variant's `metadata()` returns, and what
/// [`Catalog::entries`](crate::Catalog::entries) lists.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(any(feature = "serde", feature = "cache"), derive(serde::Serialize, serde::Deserialize))]
pub struct Entry {
    /// The variant name (`UnableToPersistSession`).
    pub name: Text,
    record: Record,
    /// The compiled message: pieces, typed fields and regex.
    pub template: Template,
}

impl Entry {
    /// The entry of `record` under variant name `name`, its message
    /// compiled as `template`.
    pub fn new(name: impl Into<Text>, record: Record, template: Template) -> Entry {
        Entry { name: name.into(), record, template }
    }

    /// The record as loaded from the dataset.
    pub fn record(&self) -> &Record {
        &self.record
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
