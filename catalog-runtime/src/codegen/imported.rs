//! What `#[derive(Catalog)]` enums (whose variants *import* records) use:
//! fields of any `FromStr + Display` type, converted through their text, and
//! messages rendered with the fields a variant omits left as their
//! placeholders. Reached by generated code only, through `__private`.

use std::borrow::Cow;
use std::fmt;
use std::str::FromStr;

use crate::format::{render_partial, Template, ValueKind};
use crate::model::Value;

/// A field from its captured value: the value's text (as `Display` writes it)
/// parsed with `FromStr`. `None` when it does not parse, so that the variant
/// does not match and the matcher tries the next candidate.
pub fn field_from_value<T: FromStr>(value: &Value<'_>) -> Option<T> {
    match value {
        Value::Str(text) => text.parse().ok(),
        other => other.to_string().parse().ok(),
    }
}

/// A field as a value to render: its `Display` text, read back as a number
/// or boolean for placeholders of those kinds (so `%5d` or `%x` render as
/// they would the number), as text otherwise or when it does not read back.
pub fn value_from_field<T: fmt::Display + ?Sized>(field: &T, kind: ValueKind) -> Value<'static> {
    let text = field.to_string();
    let typed = match kind {
        ValueKind::Int => Value::integer(&text),
        ValueKind::Float => text.parse().ok().map(Value::Float),
        ValueKind::Bool => text.parse().ok().map(Value::Bool),
        ValueKind::Quoted | ValueKind::Text => None,
    };
    typed.unwrap_or(Value::Str(Cow::Owned(text)))
}

/// `Display` of an imported variant: its record's message with the declared
/// fields' values (`values` is indexed like the template's fields) and each
/// omitted field's placeholders written as `%` and their verb (`%d`).
pub fn render_declared(f: &mut fmt::Formatter<'_>, template: &Template, values: &[Option<Value<'_>>]) -> fmt::Result {
    render_partial(f, template, values)
}

/// A line without its line break (`\n` or `\r\n`), as the matcher reads it:
/// what the catch-all variant holds when `find` finds no record.
pub fn line_text(line: &str) -> &str {
    crate::matcher::trim_line_break(line)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::{compile, Dialect};

    #[test]
    fn fields_go_through_their_text() {
        assert_eq!(field_from_value::<u64>(&Value::Int(42)), Some(42));
        assert_eq!(field_from_value::<u64>(&Value::Str("42".into())), Some(42));
        assert_eq!(field_from_value::<u64>(&Value::Str("x".into())), None);
        assert_eq!(field_from_value::<bool>(&Value::Bool(true)), Some(true));
        assert_eq!(field_from_value::<String>(&Value::Float(1.5)), Some("1.5".to_owned()));
        assert_eq!(value_from_field(&7u8, ValueKind::Int), Value::Int(7));
        assert_eq!(value_from_field(&u64::MAX, ValueKind::Int), Value::Uint(u64::MAX));
        assert_eq!(value_from_field(&i128::MIN, ValueKind::Int), Value::BigInt(i128::MIN.to_string().into()));
        assert_eq!(value_from_field(&7u8, ValueKind::Text), Value::Str("7".into()));
        assert_eq!(value_from_field(&2.5f32, ValueKind::Float), Value::Float(2.5));
    }

    #[test]
    fn omitted_fields_render_as_their_verbs() {
        let template = compile("window %5d full after %v", Dialect::Go).unwrap();
        let mut out = String::new();
        render_partial(&mut out, &template, &[Some(Value::Int(3)), None]).unwrap();
        assert_eq!(out, "window     3 full after %v");
    }
}
