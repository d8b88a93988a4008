//! Reading a record object's fields, typed, with every problem collected.
//! The fields read are the schema's ([`with_record_schema`]): each is read by
//! the [`ReadField`] impl of its type.

use std::borrow::Cow;

use serde_json::{Map, Value};

use super::{kind_of, Origin};
use crate::diagnostic::Diagnostic;
use crate::model::{with_record_schema, ErrorType, HandlingStrategy, Record, Severity, Text, TextList};

/// The record in `object`, or every problem with its fields.
pub(super) fn read_record(object: &Map<String, Value>, origin: &Origin) -> Result<Record, Vec<Diagnostic>> {
    let mut reader = FieldReader { object, origin, diagnostics: Vec::new() };
    let record = reader.read_all();
    match object.get("id") {
        Some(Value::String(id)) if id.trim().is_empty() => {
            reader.diagnostics.push(origin.error("id", "must not be empty"));
        }
        Some(Value::String(_)) => {}
        _ => reader.diagnostics.push(origin.error("id", "missing required field")),
    }
    let has_pattern = record.message_pattern.as_deref().is_some_and(|p| !p.is_empty());
    if record.error_message.is_empty() && !has_pattern {
        let message = "missing required field (`errorMessage`, or `messagePattern` when there is no message)";
        reader.diagnostics.push(origin.error("errorMessage", message));
    }
    if reader.diagnostics.is_empty() {
        Ok(record)
    } else {
        Err(reader.diagnostics)
    }
}

/// Reads typed fields out of a record object, collecting every problem.
struct FieldReader<'a> {
    object: &'a Map<String, Value>,
    origin: &'a Origin,
    diagnostics: Vec<Diagnostic>,
}

macro_rules! read_all {
    ($($(#[doc = $doc:literal])* $field:ident: $ty:ty = $key:literal,)*) => {
        impl FieldReader<'_> {
            /// Every field of the schema; a missing or bad field is empty.
            fn read_all(&mut self) -> Record {
                Record { $($field: <$ty as ReadField>::read(self, $key),)* }
            }
        }
    };
}
with_record_schema!(read_all);

/// A type a record field can have, read from its JSON value. `null` and a
/// missing key read as empty; a value of another type is reported.
trait ReadField: Sized {
    fn read(reader: &mut FieldReader<'_>, key: &str) -> Self;
}

impl<'a> FieldReader<'a> {
    fn mistyped(&mut self, key: &str, expected: &str, found: &Value) {
        let message = format!("expected {expected}, found {}", kind_of(found));
        self.diagnostics.push(self.origin.error(key, message));
    }

    /// The key's value, `None` when missing or `null`.
    fn get(&self, key: &str) -> Option<&'a Value> {
        self.object.get(key).filter(|value| !value.is_null())
    }
}

impl ReadField for Option<Text> {
    fn read(reader: &mut FieldReader<'_>, key: &str) -> Self {
        match reader.get(key)? {
            Value::String(s) => Some(Text::Owned(s.clone())),
            other => {
                reader.mistyped(key, "a string", other);
                None
            }
        }
    }
}

impl ReadField for Text {
    fn read(reader: &mut FieldReader<'_>, key: &str) -> Self {
        Option::<Text>::read(reader, key).unwrap_or_default()
    }
}

/// Non-negative integers that fit the type.
macro_rules! read_number {
    ($($ty:ty),*) => {$(
        impl ReadField for Option<$ty> {
            fn read(reader: &mut FieldReader<'_>, key: &str) -> Self {
                match reader.get(key)? {
                    Value::Number(n) => match n.as_u64().and_then(|n| <$ty>::try_from(n).ok()) {
                        Some(n) => Some(n),
                        None => {
                            reader.diagnostics.push(reader.origin.error(key, format!("{n} is out of range")));
                            None
                        }
                    },
                    other => {
                        reader.mistyped(key, "a number", other);
                        None
                    }
                }
            }
        }
    )*};
}
read_number!(u16, u32);

/// The schema's open enums: a known value or `Other` with the text.
macro_rules! read_open_enum {
    ($($ty:ty),*) => {$(
        impl ReadField for Option<$ty> {
            fn read(reader: &mut FieldReader<'_>, key: &str) -> Self {
                Option::<Text>::read(reader, key).map(|text| <$ty>::from_text(&text))
            }
        }
    )*};
}
read_open_enum!(ErrorType, Severity, HandlingStrategy);

impl ReadField for TextList {
    fn read(reader: &mut FieldReader<'_>, key: &str) -> Self {
        let items = match reader.get(key) {
            None => return Cow::Borrowed(&[]),
            Some(Value::Array(items)) => items,
            Some(other) => {
                reader.mistyped(key, "an array of strings", other);
                return Cow::Borrowed(&[]);
            }
        };
        let mut list = Vec::with_capacity(items.len());
        for item in items {
            match item {
                Value::String(s) => list.push(Text::Owned(s.clone())),
                other => reader.mistyped(key, "an array of strings", other),
            }
        }
        Cow::Owned(list)
    }
}
