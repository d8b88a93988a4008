//! The record model: what a dataset says about one error ([`Record`]) and
//! the values a message's fields take ([`Value`]). What a catalog holds for
//! a record, with its compiled message, is an [`Entry`](crate::Entry)
//! (`entry.rs`), which builds on this model and the format compiler.

mod byte_string;
mod identifier;
mod record;
pub(crate) mod value;

use std::borrow::Cow;

pub use byte_string::ByteString;

pub(crate) use identifier::{is_identifier, is_keyword};
pub(crate) use record::with_record_schema;
pub use record::{ErrorType, HandlingStrategy, Record, Severity, TextList};
pub use value::{FieldValue, Value};

/// Text that is `&'static str` in generated code and owned when loaded at run time.
pub type Text = Cow<'static, str>;
