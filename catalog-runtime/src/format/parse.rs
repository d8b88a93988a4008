//! Reading a captured value back: the inverse of [`render`](fn@super::render).

use std::borrow::Cow;

use super::{float, quote, Dialect, Spec, ValueKind};
use crate::model::Value;

/// Reads the text a template's capture group caught for a placeholder of
/// `kind` written with `spec`: the inverse of [`render`](fn@super::render).
///
/// Padding spaces are trimmed from numbers; integers are read in the verb's
/// base with an optional sign and the `0x`/`0b`/`0o`/`0` prefix `#` adds
/// (`%c` gives the character's code point, `%U` the `U+` number); floats
/// include the `Inf`/`NaN` forms and C hex floats; [`ValueKind::Quoted`] is
/// unquoted with [`go_unquote`](super::go_unquote) (so is Go `%q` text of a
/// [`ValueKind::Text`] field); other text is returned as captured. `None`
/// when the text does not parse, e.g. an integer that overflows `i64`
/// (C's unsigned conversions wrap to the two's complement instead).
pub fn parse_value<'a>(kind: ValueKind, spec: &Spec, dialect: Dialect, captured: &'a str) -> Option<Value<'a>> {
    if let Some(parsed) = super::value_forms::parse(kind, spec, dialect, captured) {
        return parsed;
    }
    let c_like = matches!(dialect, Dialect::Printf | Dialect::Python);
    let trimmed = captured.trim_matches(' ');
    match kind {
        ValueKind::Int => parse_int(captured, spec.verb, dialect).map(Value::Int),
        ValueKind::Float => float::parse(trimmed).map(Value::Float),
        ValueKind::Bool => match trimmed {
            "true" => Some(Value::Bool(true)),
            "false" => Some(Value::Bool(false)),
            _ => None,
        },
        ValueKind::Quoted => quote::go_unquote(trimmed).map(|s| Value::Str(Cow::Owned(s))),
        ValueKind::Text if spec.verb == 'q' && !c_like => {
            Some(Value::Str(quote::go_unquote(captured).map_or(Cow::Borrowed(captured), Cow::Owned)))
        }
        ValueKind::Text => Some(Value::Str(Cow::Borrowed(captured))),
    }
}

fn parse_int(captured: &str, verb: char, dialect: Dialect) -> Option<i64> {
    let c_like = matches!(dialect, Dialect::Printf | Dialect::Python);
    if verb == 'c' {
        let mut chars = captured.chars();
        let c = chars.next()?;
        return chars.next().is_none().then_some(i64::from(u32::from(c)));
    }
    let text = captured.trim_matches(' ');
    if verb == 'U' && !c_like {
        // `U+0078`, or `U+0078 'x'` with `#`: Go writes the bits as unsigned.
        let hex = text.strip_prefix("U+")?.split(' ').next()?;
        return digits(hex, 16).map(|u| u as i64);
    }
    if text.is_empty() {
        return Some(0); // `%.0d` writes nothing for zero
    }
    let (negative, text) = match text.as_bytes()[0] {
        b'-' => (true, &text[1..]),
        b'+' => (false, &text[1..]),
        _ => (false, text),
    };
    let strip = |prefix: &str| {
        let upper = prefix.to_ascii_uppercase();
        text.strip_prefix(prefix).or_else(|| text.strip_prefix(upper.as_str())).unwrap_or(text)
    };
    let (base, text) = match verb {
        'b' => (2, strip("0b")),
        'o' | 'O' => (8, strip("0o")),
        'x' | 'X' => (16, strip("0x")),
        _ => (10, text),
    };
    let magnitude = digits(text, base)?;
    let unsigned = dialect == Dialect::Printf && matches!(verb, 'u' | 'o' | 'x' | 'X');
    if negative {
        0i64.checked_sub_unsigned(magnitude)
    } else if unsigned {
        Some(magnitude as i64)
    } else {
        i64::try_from(magnitude).ok()
    }
}

/// Digits only (no sign) in `base`.
fn digits(text: &str, base: u32) -> Option<u64> {
    let valid = !text.is_empty() && text.chars().all(|c| c.is_digit(base));
    valid.then(|| u64::from_str_radix(text, base).ok()).flatten()
}

#[cfg(test)]
mod tests {
    use super::super::{Count, Flags};
    use super::*;

    fn parse(kind: ValueKind, verb: char, dialect: Dialect, text: &str) -> Option<Value<'_>> {
        let spec = Spec { verb, flags: Flags(0), width: Count::None, precision: Count::None };
        parse_value(kind, &spec, dialect, text)
    }

    #[test]
    fn integers() {
        use Dialect::{Go, Printf, Python};
        let int = |verb, dialect, text| parse(ValueKind::Int, verb, dialect, text);
        assert_eq!(int('d', Go, "  -42"), Some(Value::Int(-42)));
        assert_eq!(int('d', Go, "+0042"), Some(Value::Int(42)));
        assert_eq!(int('d', Go, " 7"), Some(Value::Int(7)));
        assert_eq!(int('d', Go, ""), Some(Value::Int(0)));
        assert_eq!(int('d', Go, "-9223372036854775808"), Some(Value::Int(i64::MIN)));
        assert_eq!(int('d', Go, "9223372036854775808"), None);
        assert_eq!(int('d', Go, "-9223372036854775809"), None);
        assert_eq!(int('d', Go, "+-1"), None);
        assert_eq!(int('d', Go, "12a"), None);
        assert_eq!(int('b', Go, "-0b101"), Some(Value::Int(-5)));
        assert_eq!(int('o', Go, "017"), Some(Value::Int(15)));
        assert_eq!(int('O', Go, "0o17"), Some(Value::Int(15)));
        assert_eq!(int('x', Go, "-0xff"), Some(Value::Int(-255)));
        assert_eq!(int('X', Go, "0XFF"), Some(Value::Int(255)));
        assert_eq!(int('c', Go, "☺"), Some(Value::Int(0x263a)));
        assert_eq!(int('c', Go, "ab"), None);
        assert_eq!(int('U', Go, "U+263A '☺'"), Some(Value::Int(0x263a)));
        assert_eq!(int('U', Go, "U+FFFFFFFFFFFFFFFF"), Some(Value::Int(-1)));
        assert_eq!(int('u', Printf, "18446744073709551615"), Some(Value::Int(-1)));
        assert_eq!(int('u', Python, "18446744073709551615"), None);
        assert_eq!(int('o', Python, "-0o17"), Some(Value::Int(-15)));
    }

    #[test]
    fn other_kinds() {
        let go = |kind, verb, text| parse(kind, verb, Dialect::Go, text);
        assert_eq!(go(ValueKind::Float, 'v', "1e+21"), Some(Value::Float(1e21)));
        assert_eq!(go(ValueKind::Float, 'f', " -001.50"), Some(Value::Float(-1.5)));
        assert_eq!(go(ValueKind::Float, 'g', "-Inf"), Some(Value::Float(f64::NEG_INFINITY)));
        assert!(matches!(go(ValueKind::Float, 'g', "NaN"), Some(Value::Float(v)) if v.is_nan()));
        assert_eq!(go(ValueKind::Float, 'g', "x1"), None);
        let c_float = |verb, text| parse(ValueKind::Float, verb, Dialect::Printf, text);
        assert_eq!(c_float('a', "-0x1.8p+1"), Some(Value::Float(-3.0)));
        assert_eq!(c_float('a', "0x0.0000000000001p-1022"), Some(Value::Float(5e-324)));
        assert_eq!(c_float('F', "INF"), Some(Value::Float(f64::INFINITY)));
        assert_eq!(go(ValueKind::Bool, 't', "  true"), Some(Value::Bool(true)));
        assert_eq!(go(ValueKind::Bool, 't', "yes"), None);
        assert_eq!(go(ValueKind::Quoted, 'q', r#""a\tb""#), Some(Value::Str("a\tb".into())));
        assert_eq!(go(ValueKind::Quoted, 'q', "`raw`"), Some(Value::Str("raw".into())));
        assert_eq!(go(ValueKind::Quoted, 'q', "bare"), None);
        assert_eq!(go(ValueKind::Text, 's', " padded "), Some(Value::Str(" padded ".into())));
        assert_eq!(go(ValueKind::Text, 'q', r#""x""#), Some(Value::Str("x".into())));
    }
}
