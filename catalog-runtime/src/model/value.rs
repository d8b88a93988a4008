//! Field values: what a placeholder captures and what `Display` renders.

use std::borrow::Cow;
use std::fmt::{self, Write};

use super::ByteString;

/// The value of one field of a message.
///
/// Every value a formatter can print reads back without loss: integers
/// beyond `i64` are [`Value::Uint`] (up to `u64::MAX`) or [`Value::BigInt`]
/// (Python's integers have no bound), a Go `float32` keeps its width
/// ([`Value::Float32`] renders its shortest float32 digits), and a string
/// that is not UTF-8 (Go's `%q` of invalid UTF-8 writes `"\xc3(ab"`) is
/// [`Value::Bytes`], whose `Display` writes its invalid bytes as `\xNN`.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum Value<'a> {
    /// An integer that fits `i64`.
    Int(i64),
    /// An integer above `i64::MAX` (a Go `uint64`, a C `unsigned long long`).
    Uint(u64),
    /// An integer beyond 64 bits (Python), as canonical decimal text: an
    /// optional `-` and digits without leading zeros.
    BigInt(Cow<'a, str>),
    /// A floating-point placeholder.
    Float(f64),
    /// A Go `float32`: rendered with the shortest digits that read back as
    /// this float32 (Go's `%v` of `float32(0.1)` is `0.1`, not `0.10000000149011612`).
    Float32(f32),
    /// A `%t` placeholder.
    Bool(bool),
    /// A text or quoted-string placeholder (quoted strings are held unquoted).
    Str(Cow<'a, str>),
    /// Bytes that are not UTF-8: a quoted string or hex-encoded bytes whose
    /// content is not valid UTF-8.
    Bytes(Cow<'a, [u8]>),
}

impl Value<'_> {
    /// The value with its text copied, independent of the input it came from.
    pub fn into_owned(self) -> Value<'static> {
        match self {
            Value::Int(v) => Value::Int(v),
            Value::Uint(v) => Value::Uint(v),
            Value::BigInt(s) => Value::BigInt(Cow::Owned(s.into_owned())),
            Value::Float(v) => Value::Float(v),
            Value::Float32(v) => Value::Float32(v),
            Value::Bool(v) => Value::Bool(v),
            Value::Str(s) => Value::Str(Cow::Owned(s.into_owned())),
            Value::Bytes(b) => Value::Bytes(Cow::Owned(b.into_owned())),
        }
    }

    /// The value as text, if it is text.
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Value::Str(s) => Some(s),
            _ => None,
        }
    }

    /// An integer from decimal text (an optional sign, then digits): the
    /// narrowest of [`Value::Int`], [`Value::Uint`] and [`Value::BigInt`]
    /// that holds it. `None` when `text` is not such a number.
    ///
    /// ```
    /// use catalog_runtime::Value;
    /// assert_eq!(Value::integer("-42"), Some(Value::Int(-42)));
    /// assert_eq!(Value::integer("18446744073709551615"), Some(Value::Uint(u64::MAX)));
    /// assert_eq!(Value::integer("+000123456789012345678901234567890"), Some(Value::BigInt("123456789012345678901234567890".into())));
    /// assert_eq!(Value::integer("12a"), None);
    /// ```
    pub fn integer(text: &str) -> Option<Value<'static>> {
        let (negative, digits) = match text.as_bytes().first()? {
            b'-' => (true, &text[1..]),
            b'+' => (false, &text[1..]),
            _ => (false, text),
        };
        if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        let digits = digits.trim_start_matches('0');
        let digits = if digits.is_empty() { "0" } else { digits };
        Some(integer_value(negative, digits))
    }
}

/// The narrowest integer value of a sign and canonical decimal digits.
pub(crate) fn integer_value(negative: bool, digits: &str) -> Value<'static> {
    match digits.parse::<u64>() {
        Ok(magnitude) if negative => match 0i64.checked_sub_unsigned(magnitude) {
            Some(v) => Value::Int(v),
            None => Value::BigInt(Cow::Owned(format!("-{digits}"))),
        },
        Ok(magnitude) => i64::try_from(magnitude).map_or(Value::Uint(magnitude), Value::Int),
        Err(_) if negative && digits != "0" => Value::BigInt(Cow::Owned(format!("-{digits}"))),
        Err(_) => Value::BigInt(Cow::Owned(digits.to_owned())),
    }
}

/// Writes `bytes` with each byte that is not part of UTF-8 text as `\xNN`.
pub(crate) fn write_escaped_bytes(out: &mut dyn Write, bytes: &[u8]) -> fmt::Result {
    for chunk in bytes.utf8_chunks() {
        out.write_str(chunk.valid())?;
        chunk.invalid().iter().try_for_each(|b| write!(out, "\\x{b:02x}"))?;
    }
    Ok(())
}

impl Value<'_> {
    /// The value in JSON, as `errcat scan --json`, the HTML report, the
    /// Python bindings and serde write it: numbers as numbers (an integer
    /// beyond 64 bits as its decimal text, which JSON readers would round),
    /// text as text, bytes that are not UTF-8 escaped as `\xNN` (as
    /// `Display` shows them), never replaced.
    ///
    /// ```
    /// use catalog_runtime::Value;
    /// assert_eq!(Value::Int(-7).to_json(), serde_json::json!(-7));
    /// assert_eq!(Value::BigInt("123456789012345678901234567890".into()).to_json(), serde_json::json!("123456789012345678901234567890"));
    /// assert_eq!(Value::Bytes(b"\xc3(ab".as_slice().into()).to_json(), serde_json::json!("\\xc3(ab"));
    /// ```
    pub fn to_json(&self) -> serde_json::Value {
        use serde_json::json;
        match self {
            Value::Int(v) => json!(v),
            Value::Uint(v) => json!(v),
            Value::Float(v) => json!(v),
            Value::Float32(v) => json!(v),
            Value::Bool(v) => json!(v),
            Value::Str(v) | Value::BigInt(v) => json!(v),
            Value::Bytes(_) => json!(self.to_string()),
        }
    }
}

impl fmt::Display for Value<'_> {
    /// Plain rendering (`42`, `1.5`, `true`, the text unquoted, bytes that
    /// are not UTF-8 as `\xNN`); the message's own rendering with its verbs
    /// is [`Template::render`](crate::Template::render).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Int(v) => write!(f, "{v}"),
            Value::Uint(v) => write!(f, "{v}"),
            Value::BigInt(s) => f.write_str(s),
            Value::Float(v) => write!(f, "{v}"),
            Value::Float32(v) => write!(f, "{v}"),
            Value::Bool(v) => write!(f, "{v}"),
            Value::Str(s) => f.write_str(s),
            Value::Bytes(b) => write_escaped_bytes(f, b),
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
    /// Text as it is; any other value as its text ([`Value`]'s `Display`), so
    /// that a message is classified whatever its text field holds: bytes that
    /// are not UTF-8 as escaped text (each invalid byte as `\xNN`), and a
    /// number that a text placeholder's verb wrote (Go's `%x` of an integer,
    /// `%#v` of one) in decimal. A `String` cannot hold the bytes themselves
    /// nor which verb wrote a number (the run-time [`Value`] does; a quoted
    /// field's [`ByteString`] holds bytes): such a field renders back as text.
    fn from_value(value: Value<'_>) -> Option<Self> {
        match value {
            Value::Str(s) => Some(s.into_owned()),
            other => Some(other.to_string()),
        }
    }
    fn to_value(&self) -> Value<'_> {
        Value::Str(Cow::Borrowed(self))
    }
}

impl FieldValue for Vec<u8> {
    fn from_value(value: Value<'_>) -> Option<Self> {
        match value {
            Value::Str(s) => Some(s.into_owned().into_bytes()),
            Value::Bytes(b) => Some(b.into_owned()),
            _ => None,
        }
    }
    fn to_value(&self) -> Value<'_> {
        match std::str::from_utf8(self) {
            Ok(text) => Value::Str(Cow::Borrowed(text)),
            Err(_) => Value::Bytes(Cow::Borrowed(self)),
        }
    }
}

impl FieldValue for ByteString {
    /// Text or bytes as they are, and a quoted rune (Go's `%q` of an integer,
    /// `'⌘'`) as its character, which renders back double-quoted.
    fn from_value(value: Value<'_>) -> Option<Self> {
        match value {
            Value::Str(s) => Some(ByteString::from(s.into_owned())),
            Value::Bytes(b) => Some(ByteString::from(b.into_owned())),
            Value::Int(code) => {
                let c = u32::try_from(code).ok().and_then(char::from_u32).unwrap_or(char::REPLACEMENT_CHARACTER);
                Some(ByteString::from(c.to_string()))
            }
            _ => None,
        }
    }
    fn to_value(&self) -> Value<'_> {
        match self.as_str() {
            Some(text) => Value::Str(Cow::Borrowed(text)),
            None => Value::Bytes(Cow::Borrowed(self.as_bytes())),
        }
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

impl FieldValue for u64 {
    fn from_value(value: Value<'_>) -> Option<Self> {
        match value {
            Value::Int(v) => u64::try_from(v).ok(),
            Value::Uint(v) => Some(v),
            _ => None,
        }
    }
    fn to_value(&self) -> Value<'_> {
        i64::try_from(*self).map_or(Value::Uint(*self), Value::Int)
    }
}

impl FieldValue for i128 {
    fn from_value(value: Value<'_>) -> Option<Self> {
        match value {
            Value::Int(v) => Some(i128::from(v)),
            Value::Uint(v) => Some(i128::from(v)),
            Value::BigInt(s) => s.parse().ok(),
            _ => None,
        }
    }
    fn to_value(&self) -> Value<'_> {
        match i64::try_from(*self) {
            Ok(v) => Value::Int(v),
            Err(_) => u64::try_from(*self).map_or_else(|_| Value::BigInt(Cow::Owned(self.to_string())), Value::Uint),
        }
    }
}

impl FieldValue for f64 {
    fn from_value(value: Value<'_>) -> Option<Self> {
        match value {
            Value::Float(v) => Some(v),
            Value::Float32(v) => Some(f64::from(v)),
            _ => None,
        }
    }
    fn to_value(&self) -> Value<'_> {
        Value::Float(*self)
    }
}

impl FieldValue for f32 {
    /// A float32, or a float64 that is exactly one (a float32 printed in its
    /// shortest form reads back as the nearest float64; narrowing gives it).
    fn from_value(value: Value<'_>) -> Option<Self> {
        match value {
            Value::Float32(v) => Some(v),
            Value::Float(v) => Some(v as f32),
            _ => None,
        }
    }
    fn to_value(&self) -> Value<'_> {
        Value::Float32(*self)
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
