//! Reading a captured value back: the inverse of [`render`](fn@crate::format::render).

use std::borrow::Cow;

use super::super::{float, go, integer, python_repr, quote, Count, Dialect, Spec, ValueKind};
use crate::model::Value;

/// Reads the text a template's capture group caught for a placeholder of
/// `kind` written with `spec`: the inverse of [`render`](fn@crate::format::render).
///
/// Padding spaces are trimmed from numbers; integers are read in the verb's
/// base with an optional sign and the `0x`/`0b`/`0o`/`0` prefix `#` adds
/// (`%c` gives the character's code point, `%U` the `U+` number); floats
/// include the `Inf`/`NaN` forms, C and Go hex floats and Go's `%b` of a
/// float; [`ValueKind::Quoted`] is unquoted with
/// `go_unquote` (a rune literal gives its code point,
/// bytes that are not UTF-8 a [`Value::Bytes`]); a
/// [`ValueKind::Text`] field is read as its verb wrote it (see
/// `parse_text`). Integers are [`Value::Int`], or [`Value::Uint`] and
/// [`Value::BigInt`] when they do not fit `i64`. `None` when the text does
/// not parse.
pub(in crate::format) fn parse_value<'a>(
    kind: ValueKind,
    spec: &Spec,
    dialect: Dialect,
    captured: &'a str,
) -> Option<Value<'a>> {
    let c_like = matches!(dialect, Dialect::Printf | Dialect::Python);
    let trimmed = captured.trim_matches(' ');
    match kind {
        ValueKind::Int => parse_int(captured, spec, dialect),
        ValueKind::Float if spec.verb == 'b' && !c_like => go_binary_float(trimmed).map(Value::Float),
        ValueKind::Float => float::parse(trimmed).map(Value::Float),
        ValueKind::Bool => parse_bool(trimmed),
        ValueKind::Quoted => parse_quoted(trimmed),
        // A `*` width's padding is in the capture (see `value_regex`).
        ValueKind::Text if spec.width.is_star() => Some(parse_text(spec, dialect, trimmed)),
        ValueKind::Text => Some(parse_text(spec, dialect, captured)),
    }
}

fn parse_bool(text: &str) -> Option<Value<'static>> {
    match text {
        "true" => Some(Value::Bool(true)),
        "false" => Some(Value::Bool(false)),
        _ => None,
    }
}

/// A Go-quoted string (UTF-8 or not), or a rune literal (`%q` of an integer).
fn parse_quoted(text: &str) -> Option<Value<'static>> {
    if text.starts_with('\'') {
        return quote::go_unquote_rune(text).map(|code| Value::Int(i64::from(code)));
    }
    quote::go_unquote_bytes(text).map(bytes_value)
}

/// Bytes as text when they are UTF-8, else as bytes.
fn bytes_value(bytes: Vec<u8>) -> Value<'static> {
    match String::from_utf8(bytes) {
        Ok(text) => Value::Str(Cow::Owned(text)),
        Err(e) => Value::Bytes(Cow::Owned(e.into_bytes())),
    }
}

/// A text field: what it holds is what the verb wrote, read back as the
/// value that writes the same text again. Go's `%x`/`%X` decode hex bytes
/// (and read numbers: `%x` is the hex of an integer or float too), `%q`
/// and `%#v` unquote, Python's `%r`/`%a` read the `repr` of a string; text
/// that is none of these is kept as captured.
fn parse_text<'a>(spec: &Spec, dialect: Dialect, captured: &'a str) -> Value<'a> {
    let trimmed = captured.trim_matches(' ');
    let number = || {
        let int = Value::integer(trimmed);
        int.or_else(|| float::parse(trimmed).filter(|_| trimmed.contains(['.', 'e', 'n', 'N'])).map(Value::Float))
    };
    let value = match (dialect, spec.verb) {
        // An argument also written with other verbs (`%v ... %[1]d`): a
        // number verb's text is read as that number.
        (Dialect::Go, verb) if matches!(go::kind(verb), Some(ValueKind::Int | ValueKind::Float | ValueKind::Bool)) => {
            let kind = go::kind(verb).unwrap_or(ValueKind::Text);
            parse_value(kind, spec, dialect, captured).map(Value::into_owned)
        }
        (Dialect::Go, 'q') => parse_quoted(trimmed),
        (Dialect::Go, 'x' | 'X') => go_hex_text(spec, trimmed),
        (Dialect::Go, 'v') if spec.flags.alt() => parse_quoted(trimmed).or_else(number).or_else(|| parse_bool(trimmed)),
        (Dialect::Python, 'r' | 'a') => python_repr::unrepr(trimmed).map(|s| Value::Str(Cow::Owned(s))).or_else(number),
        _ => None,
    };
    value.unwrap_or(Value::Str(Cow::Borrowed(captured)))
}

/// Go's `%x` text: hex bytes (`616263`, `61 62 63` with ` `, `0x` prefixes
/// with `#`, zero padding before them), else a hex integer or float.
fn go_hex_text(spec: &Spec, text: &str) -> Option<Value<'static>> {
    let sharp = spec.flags.alt();
    let strip_prefix = |group: &'_ str| -> Option<String> {
        let group = if sharp {
            let unpadded = group.trim_start_matches('0');
            let unpadded =
                if unpadded.starts_with(['x', 'X']) { &group[group.len() - unpadded.len() - 1..] } else { group };
            unpadded.strip_prefix("0x").or_else(|| unpadded.strip_prefix("0X"))?
        } else {
            group
        };
        Some(group.to_owned())
    };
    let hex: Option<String> = if text.is_empty() || (sharp && text.bytes().all(|b| b == b'0')) {
        // Nothing, or only zero padding (`%#08x` of an empty string: an
        // integer's zeros would follow its `0x`).
        Some(String::new())
    } else if spec.flags.space() {
        text.split(' ').map(|group| strip_prefix(group).filter(|g| g.len() == 2)).collect()
    } else {
        strip_prefix(text)
    };
    if let Some(hex) = hex.filter(|h| h.len() % 2 == 0 && h.bytes().all(|b| b.is_ascii_hexdigit())) {
        let bytes = (0..hex.len()).step_by(2).map(|i| u8::from_str_radix(&hex[i..i + 2], 16).unwrap_or(0));
        return Some(bytes_value(bytes.collect()));
    }
    let int_spec = Spec { verb: 'x', ..*spec };
    parse_int(text, &int_spec, Dialect::Go).or_else(|| float::parse(text).map(Value::Float))
}

/// Go's `%b` of a float: `4503599627370496p-52` (a decimal mantissa, a
/// binary exponent).
fn go_binary_float(text: &str) -> Option<f64> {
    let Some((mantissa, exp)) = text.split_once('p') else {
        return float::parse(text); // Inf, NaN
    };
    let (negative, digits) = match mantissa.as_bytes().first()? {
        b'-' => (true, &mantissa[1..]),
        b'+' => (false, &mantissa[1..]),
        _ => (false, mantissa),
    };
    let m: u64 = digits.parse().ok()?;
    let exp: i32 = exp.parse().ok()?;
    // The mantissa has at most 53 bits, which `as f64` keeps exactly.
    let value = float::scale(m as f64, exp);
    Some(if negative { -value } else { value })
}

fn parse_int<'a>(captured: &str, spec: &Spec, dialect: Dialect) -> Option<Value<'a>> {
    let c_like = matches!(dialect, Dialect::Printf | Dialect::Python);
    let verb = spec.verb;
    let text = captured.trim_matches(' ');
    if verb == 'c' {
        // A `*` width's padding is in the capture (see `value_regex`); only
        // spaces are the padding of a space.
        let captured = match captured.trim_matches(' ') {
            "" if spec.width.is_star() && !captured.is_empty() => " ",
            trimmed if spec.width.is_star() => trimmed,
            _ => captured,
        };
        let mut chars = captured.chars();
        let c = chars.next()?;
        return chars.next().is_none().then_some(Value::Int(i64::from(u32::from(c))));
    }
    if !c_like && matches!(verb, 'q' | 'v') && text.starts_with('\'') {
        return quote::go_unquote_rune(text).map(|code| Value::Int(i64::from(code)));
    }
    if verb == 'U' && !c_like {
        // `U+0078`, or `U+0078 'x'` with `#`: Go writes the bits as unsigned.
        let hex = text.strip_prefix("U+")?.split(' ').next()?;
        return integer::from_radix(false, hex, 16);
    }
    if !c_like && verb == 'b' && (text.contains('p') || text.ends_with(['f', 'N'])) {
        // `%b` of a float: `4503599627370496p-52`, `+Inf`, `NaN`.
        return go_binary_float(text).map(Value::Float);
    }
    let (negative, digits) = match text.as_bytes().first() {
        Some(b'-') => (true, &text[1..]),
        Some(b'+') => (false, &text[1..]),
        _ => (false, text),
    };
    if digits.is_empty() {
        // `%.0d` of zero writes nothing (C: only its sign).
        return (spec.precision == Count::Fixed(0)).then_some(Value::Int(0));
    }
    let strip = |prefix: &str| {
        let upper = prefix.to_ascii_uppercase();
        digits.strip_prefix(prefix).or_else(|| digits.strip_prefix(upper.as_str())).unwrap_or(digits)
    };
    let (base, digits) = match verb {
        // Go's `%#v` of an unsigned integer is hex.
        'v' if !c_like && (digits.starts_with("0x")) => (16, &digits[2..]),
        'b' => (2, strip("0b")),
        'o' | 'O' => (8, strip("0o")),
        'x' | 'X' => (16, strip("0x")),
        _ => (10, digits),
    };
    integer::from_radix(negative, digits, base)
}

/// A `*` width or precision read back from the text `captured` for a
/// placeholder written with `spec` (its padding included, see
/// `value_regex`): the width is the text's length (negative when padded on
/// the right), the precision the number of digits after the point (of
/// characters for text). The count that renders the same text, which is the
/// count given unless it was smaller than the value needed.
pub(in crate::format) fn star_value(spec: &Spec, dialect: Dialect, captured: &str, width: bool) -> Value<'static> {
    let len = |s: &str| if dialect == Dialect::Printf { s.len() } else { s.chars().count() };
    let count = if width {
        let n = i64::try_from(len(captured)).unwrap_or(i64::MAX);
        // Padded on the right by a negative width; with `-` in the spec the
        // flag pads it there, and the width read back is the positive one
        // (found by fuzzing: `%-*[1]d`, whose width is its own value).
        let left_aligned = captured.ends_with(' ') && !captured.starts_with(' ') && !spec.flags.minus();
        if left_aligned {
            -n
        } else {
            n
        }
    } else {
        let trimmed = captured.trim_matches(' ');
        let n = match spec.verb {
            'e' | 'E' | 'f' | 'F' => {
                trimmed.split_once('.').map_or(0, |(_, frac)| frac.bytes().take_while(u8::is_ascii_digit).count())
            }
            'g' | 'G' => trimmed.bytes().take_while(|b| !matches!(b, b'e' | b'E')).filter(u8::is_ascii_digit).count(),
            'd' | 'i' | 'u' | 'o' | 'x' | 'X' | 'b' => trimmed.bytes().filter(u8::is_ascii_hexdigit).count(),
            _ => len(trimmed),
        };
        i64::try_from(n).unwrap_or(i64::MAX)
    };
    Value::Int(count)
}

#[cfg(test)]
mod tests {
    use super::super::super::{Count, Flags};
    use super::*;

    fn parse(kind: ValueKind, verb: char, dialect: Dialect, text: &str) -> Option<Value<'_>> {
        let spec = Spec { verb, flags: Flags::NONE, width: Count::None, precision: Count::None };
        parse_value(kind, &spec, dialect, text)
    }

    #[test]
    fn integers() {
        use Dialect::{Go, Printf, Python};
        let int = |verb, dialect, text| parse(ValueKind::Int, verb, dialect, text);
        assert_eq!(int('d', Go, "  -42"), Some(Value::Int(-42)));
        assert_eq!(int('d', Go, "+0042"), Some(Value::Int(42)));
        assert_eq!(int('d', Go, " 7"), Some(Value::Int(7)));
        assert_eq!(int('d', Go, ""), None); // only `%.0d` writes nothing
        assert_eq!(int('d', Go, "-9223372036854775808"), Some(Value::Int(i64::MIN)));
        assert_eq!(int('d', Go, "9223372036854775808"), Some(Value::Uint(1 << 63)));
        assert_eq!(int('d', Go, "-9223372036854775809"), Some(Value::BigInt("-9223372036854775809".into())));
        assert_eq!(int('d', Go, "+-1"), None);
        assert_eq!(int('d', Go, "12a"), None);
        assert_eq!(int('b', Go, "-0b101"), Some(Value::Int(-5)));
        assert_eq!(int('o', Go, "017"), Some(Value::Int(15)));
        assert_eq!(int('O', Go, "0o17"), Some(Value::Int(15)));
        assert_eq!(int('x', Go, "-0xff"), Some(Value::Int(-255)));
        assert_eq!(int('X', Go, "0XFF"), Some(Value::Int(255)));
        assert_eq!(int('c', Go, "☺"), Some(Value::Int(0x263a)));
        assert_eq!(int('c', Go, "ab"), None);
        // `%*c`: the star width's padding is captured with the character
        // (found by fuzzing: `%*c` of 7 with width 7 did not read back).
        let star_c = |text| {
            let spec = Spec { verb: 'c', flags: Flags::NONE, width: Count::Star, precision: Count::None };
            parse_value(ValueKind::Int, &spec, Go, text)
        };
        assert_eq!(star_c("      \u{7}"), Some(Value::Int(7)));
        assert_eq!(star_c("x   "), Some(Value::Int(i64::from(b'x'))));
        assert_eq!(star_c("     "), Some(Value::Int(i64::from(b' '))));
        assert_eq!(int('U', Go, "U+263A '☺'"), Some(Value::Int(0x263a)));
        assert_eq!(int('U', Go, "U+FFFFFFFFFFFFFFFF"), Some(Value::Uint(u64::MAX)));
        assert_eq!(int('u', Printf, "18446744073709551615"), Some(Value::Uint(u64::MAX)));
        assert_eq!(
            int('d', Python, "-123456789012345678901234567890"),
            Some(Value::BigInt("-123456789012345678901234567890".into()))
        );
        assert_eq!(int('x', Go, "0x1ffffffffffffffff"), Some(Value::BigInt("36893488147419103231".into())));
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
