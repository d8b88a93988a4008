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
    /// The record as loaded from the dataset.
    pub record: Record,
    /// The compiled message: pieces, typed fields and regex.
    pub template: Template,
}

impl Entry {
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
