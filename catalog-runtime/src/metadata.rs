//! What a catalog knows about each of its errors.

use std::ops::Deref;

use crate::format::{Template, Text};
use crate::record::Record;

/// One error of a catalog: its record, its variant name and its compiled
/// message. Dereferences to the [`Record`], so `metadata.documentation` reads
/// the record's documentation.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(any(feature = "serde", feature = "cache"), derive(serde::Serialize, serde::Deserialize))]
pub struct Metadata {
    /// The variant name (`UnableToPersistSession`).
    pub name: Text,
    /// The record as loaded from the dataset.
    pub record: Record,
    /// The compiled message: pieces, typed fields and regex.
    pub template: Template,
}

impl Deref for Metadata {
    type Target = Record;

    fn deref(&self) -> &Record {
        &self.record
    }
}

impl Metadata {
    /// The names of the message's fields, in order.
    pub fn field_names(&self) -> impl ExactSizeIterator<Item = &str> {
        self.template.fields.iter().map(|field| field.name.as_ref())
    }
}
