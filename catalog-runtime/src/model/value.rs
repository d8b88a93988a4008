//! Field values: what a placeholder captures and what `Display` renders.

use std::borrow::Cow;
use std::fmt;

/// The value of one field of a message.
#[derive(Clone, Debug, PartialEq)]
pub enum Value<'a> {
    /// An integer placeholder.
    Int(i64),
    /// A floating-point placeholder.
    Float(f64),
    /// A `%t` placeholder.
    Bool(bool),
    /// A text or quoted-string placeholder (quoted strings are held unquoted).
    Str(Cow<'a, str>),
}

impl Value<'_> {
    /// The value with its text copied, independent of the input it came from.
    pub fn into_owned(self) -> Value<'static> {
        match self {
            Value::Int(v) => Value::Int(v),
            Value::Float(v) => Value::Float(v),
            Value::Bool(v) => Value::Bool(v),
            Value::Str(s) => Value::Str(Cow::Owned(s.into_owned())),
        }
    }

    /// The value as text, if it is text.
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Value::Str(s) => Some(s),
            _ => None,
        }
    }
}

impl fmt::Display for Value<'_> {
    /// Plain rendering (`42`, `1.5`, `true`, the text unquoted); the message's
    /// own rendering with its verbs is [`Template::render`](crate::Template::render).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Int(v) => write!(f, "{v}"),
            Value::Float(v) => write!(f, "{v}"),
            Value::Bool(v) => write!(f, "{v}"),
            Value::Str(s) => f.write_str(s),
        }
    }
}

/// A Rust type that a generated variant field can have.
pub trait FieldValue: Sized {
    /// Converts a captured value; `None` when the types do not fit.
    fn from_value(value: Value<'_>) -> Option<Self>;
    /// Borrows the field as a value to render.
    fn to_value(&self) -> Value<'_>;
}

impl FieldValue for String {
    fn from_value(value: Value<'_>) -> Option<Self> {
        match value {
            Value::Str(s) => Some(s.into_owned()),
            _ => None,
        }
    }
    fn to_value(&self) -> Value<'_> {
        Value::Str(Cow::Borrowed(self))
    }
}

impl FieldValue for i64 {
    fn from_value(value: Value<'_>) -> Option<Self> {
        match value {
            Value::Int(v) => Some(v),
            _ => None,
        }
    }
    fn to_value(&self) -> Value<'_> {
        Value::Int(*self)
    }
}

impl FieldValue for f64 {
    fn from_value(value: Value<'_>) -> Option<Self> {
        match value {
            Value::Float(v) => Some(v),
            _ => None,
        }
    }
    fn to_value(&self) -> Value<'_> {
        Value::Float(*self)
    }
}

impl FieldValue for bool {
    fn from_value(value: Value<'_>) -> Option<Self> {
        match value {
            Value::Bool(v) => Some(v),
            _ => None,
        }
    }
    fn to_value(&self) -> Value<'_> {
        Value::Bool(*self)
    }
}
