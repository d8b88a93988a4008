//! The record model: what a dataset says about one error ([`Record`]), what
//! a catalog holds for it ([`Entry`]: the record, its variant name and its
//! compiled message), and the values a message's fields take ([`Value`]).

mod byte_string;
mod entry;
mod identifier;
mod record;
pub(crate) mod value;

use std::borrow::Cow;

pub use byte_string::ByteString;
pub use entry::Entry;
pub(crate) use identifier::{is_identifier, is_keyword};
pub(crate) use record::with_record_schema;
pub use record::{ErrorType, HandlingStrategy, Record, Severity, TextList};
pub use value::{FieldValue, Value};

/// Text that is `&'static str` in generated code and owned when loaded at run time.
pub type Text = Cow<'static, str>;
