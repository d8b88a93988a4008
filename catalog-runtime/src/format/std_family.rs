//! The standard-library family: the JavaScript, Python `str.format`, Rust,
//! Java and C# dialects, whose placeholders all map onto one reading of
//! [`Spec`]: what each placeholder's text looks like (its regex, [`regex`]),
//! how a value is written ([`render`]) and read back ([`parse`]). (The Go,
//! C and Python `%` dialects are the printf family, `printf_family`.)
//!
//! Every dialect's parser maps its placeholders onto the same [`Spec`]:
//!
//! - `verb`: `s` text as the language's string conversion writes it (`%s`,
//!   `{}`, `String.valueOf`), `S`/`B` Java upper-case text and booleans, `r`
//!   `a` Python `repr`/`ascii`, `?` Rust `Debug`, `j` `o` `O` JavaScript
//!   JSON and `util.inspect` (in [`Dialect::JsFormat`] only; elsewhere `o` is
//!   octal); integers `d` (also `i`, JavaScript's `parseInt`), `x` `X` `o` `b`
//!   (binary, but Java's `b` is a boolean), `c` (a character, held as its code
//!   point); floats `f` `F` `e` `E` `g` `G` and `%` (Python's percentage).
//! - flags: [`Flags::minus`] left alignment (each parser resolves the
//!   language's default alignment into it), [`Flags::center`] centred (`{:^9}`),
//!   [`Flags::zero`] sign-aware zero padding, [`Flags::plus`]/[`Flags::space`]
//!   signs, [`Flags::alt`] the alternate form (`0x` prefixes),
//!   [`Flags::grouping`] thousands separators (`{:,}`, `%,d`, `{0,number}`,
//!   C#'s `N`).
//! - width and precision as written; one given by an argument (`{:1$}`,
//!   `{:.*}`, `{:{w}}`) is [`Count::Star`].
//!
//! Padding is always with spaces (or the zeros of [`Flags::zero`]): other
//! fill characters (`{:*^9}`) are refused by the parsers.
//!
//! What the value does not determine is not reproduced: text fields hold the
//! text the program wrote (a Python `repr`, a Rust `Debug`, a JavaScript
//! `util.inspect` or `JSON.stringify`), integers are rendered as 64-bit values
//! (Rust's, Java's and C#'s `x` of a negative `i32` writes 8 digits, here 16),
//! JavaScript numbers are written exactly (beyond 2^53 Node would round), and
//! C#'s culture-dependent formats use the invariant culture.

use std::borrow::Cow;
use std::fmt::{self, Write};

use super::opts::Opts;
use super::template::{INTEGER, TEXT};
use super::{float, integer, Count, Dialect, Flags, Spec, ValueKind};
use crate::model::Value;

const GROUPED: &str = "[-+ ]?[0-9][0-9,]*";
/// A JavaScript number as `util.format` writes it (`formatNumber`):
/// `Number.prototype.toString`, with `-0` for negative zero.
const JS_NUMBER: &str = r"-?(?:[0-9]+(?:\.[0-9]+)?(?:e[-+][0-9]+)?|Infinity)|NaN";
const FLOAT: &str = r"[-+ ]?(?:[0-9][0-9,]*(?:\.[0-9]*)?(?:[eE][-+]?[0-9]+)?|\.[0-9]+(?:[eE][-+]?[0-9]+)?|inf|nan|INF|NAN|Infinity|NaN|∞)%?";

/// The kind of value `verb` holds in `dialect` (the parsers' shared table).
pub(super) fn kind(verb: char, dialect: Dialect) -> ValueKind {
    match verb {
        'o' if dialect == Dialect::JsFormat => ValueKind::Text,
        // Node's `%d` writes `Number(value)`: any number (`-0.5`, `1e+21`,
        // `NaN`), not only integers; `%i` writes `parseInt(value)`.
        'd' if dialect == Dialect::JsFormat => ValueKind::Float,
        'b' | 'B' if dialect == Dialect::JavaFormat => ValueKind::Bool,
        'd' | 'i' | 'x' | 'X' | 'o' | 'b' | 'c' => ValueKind::Int,
        'f' | 'F' | 'e' | 'E' | 'g' | 'G' | '%' => ValueKind::Float,
        _ => ValueKind::Text,
    }
}

/// The regex of one placeholder, padding included, with one capture group
/// holding the value. Text may be empty (`{}` of `""` writes nothing), and
/// at the end of a message it runs to the end of the line (see
/// `is_open_ended`).
pub(super) fn regex(spec: &Spec, dialect: Dialect) -> String {
    let flags = spec.flags;
    let kind = kind(spec.verb, dialect);
    let inner: Cow<'static, str> = match kind {
        ValueKind::Int => match spec.verb {
            'c' => ".".into(),
            'x' | 'X' => r"[-+ ]?(?:0[xX])?[0-9a-fA-F]+".into(),
            'o' => r"[-+ ]?(?:0o|0)?[0-7]+".into(),
            'b' => r"[-+ ]?(?:0b)?[01]+".into(),
            _ if flags.grouping() => GROUPED.into(),
            _ => INTEGER.into(),
        },
        ValueKind::Float if dialect == Dialect::JsFormat => JS_NUMBER.into(),
        ValueKind::Float => FLOAT.into(),
        ValueKind::Bool => "true|false|TRUE|FALSE".into(),
        ValueKind::Quoted | ValueKind::Text => TEXT.into(),
    };
    let (left, right) = match spec.width {
        Count::None | Count::Fixed(0) => ("", ""),
        Count::Star | Count::Arg(_) => (" *", " *"),
        Count::Fixed(_) if flags.center() => (" *", " *"),
        Count::Fixed(_) if flags.minus() => ("", " *"),
        // Zeros pad numbers only; other kinds are padded with spaces. A
        // character (`%c`): Python pads it with zeros as it pads numbers,
        // outside the character; Java refuses `%0c`; the others use spaces.
        Count::Fixed(_) if flags.zero() && spec.verb == 'c' && dialect == Dialect::PythonBrace => ("0*", ""),
        Count::Fixed(_) if flags.zero() && matches!(kind, ValueKind::Int | ValueKind::Float) && spec.verb != 'c' => {
            ("", "")
        }
        Count::Fixed(_) => (" *", ""),
    };
    format!("{left}({inner}){right}")
}

/// Writes `value` as `dialect`'s formatter writes it for `spec`.
pub(super) fn render(out: &mut dyn Write, spec: &Spec, dialect: Dialect, value: &Value<'_>) -> fmt::Result {
    let body = match value {
        Value::Int(_) | Value::Uint(_) | Value::BigInt(_) => int(value, spec, dialect),
        Value::Float(v) => float_text(*v, spec, dialect),
        Value::Float32(v) => float_text(f64::from(*v), spec, dialect),
        // Bytes that are not UTF-8 (a kind Go values can take) are written
        // as their plain text.
        Value::Bytes(_) => value.to_string(),
        Value::Bool(v) => {
            let text = if *v { "true" } else { "false" };
            if spec.verb == 'B' {
                text.to_ascii_uppercase()
            } else {
                text.to_owned()
            }
        }
        Value::Str(s) => {
            let s = truncate(s, spec.precision);
            if spec.verb == 'S' {
                s.to_uppercase()
            } else {
                s.to_owned()
            }
        }
    };
    // A character (`%c`) is padded with zeros by Python only (see `regex`).
    let numeric = (spec.verb != 'c' || dialect == Dialect::PythonBrace)
        && matches!(value, Value::Int(_) | Value::Uint(_) | Value::BigInt(_) | Value::Float(_) | Value::Float32(_));
    write_padded(out, &body, spec, numeric && spec.flags.zero())
}

/// Reads a captured value back (`None` when the text does not parse).
pub(super) fn parse<'a>(kind: ValueKind, spec: &Spec, dialect: Dialect, captured: &'a str) -> Option<Value<'a>> {
    let trimmed = captured.trim_matches(' ');
    match kind {
        ValueKind::Int => parse_int(trimmed, captured, spec, dialect),
        ValueKind::Float => parse_float(trimmed, spec).map(Value::Float),
        ValueKind::Bool => match trimmed {
            "true" | "TRUE" => Some(Value::Bool(true)),
            "false" | "FALSE" => Some(Value::Bool(false)),
            _ => None,
        },
        // Padding is not part of a text value unless it is unpadded.
        ValueKind::Quoted | ValueKind::Text => Some(Value::Str(Cow::Borrowed(unpad(captured, spec)))),
    }
}

/// The text of a padded text placeholder without its padding.
fn unpad<'a>(captured: &'a str, spec: &Spec) -> &'a str {
    if matches!(spec.width, Count::None | Count::Fixed(0)) {
        return captured;
    }
    let flags = spec.flags;
    if spec.width.is_star() || flags.center() {
        captured.trim_matches(' ')
    } else if flags.minus() {
        captured.trim_end_matches(' ')
    } else {
        captured.trim_start_matches(' ')
    }
}

/// Pads `body` to the width: zeros after the sign and any `0x` prefix (when
/// `zero`), else spaces by the alignment.
fn write_padded(out: &mut dyn Write, body: &str, spec: &Spec, zero: bool) -> fmt::Result {
    let width = match spec.width {
        Count::Fixed(n) => usize::from(n),
        Count::None | Count::Star | Count::Arg(_) => 0,
    };
    let fill = width.saturating_sub(body.chars().count());
    if fill == 0 {
        return out.write_str(body);
    }
    if zero {
        let sign = body.len() - body.trim_start_matches(['-', '+', ' ']).len();
        let (sign_text, rest) = body.split_at(sign.min(1));
        let prefix = if rest.len() > 2 && matches!(&rest[..2], "0x" | "0X" | "0b" | "0o") { 2 } else { 0 };
        out.write_str(sign_text)?;
        out.write_str(&rest[..prefix])?;
        (0..fill).try_for_each(|_| out.write_char('0'))?;
        return out.write_str(&rest[prefix..]);
    }
    let (before, after) = if spec.flags.center() {
        (fill / 2, fill - fill / 2)
    } else if spec.flags.minus() {
        (0, fill)
    } else {
        (fill, 0)
    };
    (0..before).try_for_each(|_| out.write_char(' '))?;
    out.write_str(body)?;
    (0..after).try_for_each(|_| out.write_char(' '))
}

/// The first `precision` characters of `s`.
fn truncate(s: &str, precision: Count) -> &str {
    match precision {
        Count::Fixed(n) => match s.char_indices().nth(usize::from(n)) {
            Some((end, _)) => &s[..end],
            None => s,
        },
        Count::None | Count::Star | Count::Arg(_) => s,
    }
}

/// The sign written before a non-negative number.
fn positive_sign(flags: Flags) -> &'static str {
    if flags.plus() {
        "+"
    } else if flags.space() {
        " "
    } else {
        ""
    }
}

/// Whether `dialect` writes a negative integer in base 2, 8 or 16 as its
/// two's complement (Rust, Java and C# do; Python writes a `-`).
fn twos_complement(dialect: Dialect) -> bool {
    matches!(dialect, Dialect::Rust | Dialect::JavaFormat | Dialect::CSharp)
}

/// An integer of any size (Java's `BigInteger`, Rust's `i128`): a negative
/// one in base 2, 8 or 16 as its 64-bit two's complement where the language
/// writes it so and it fits, else with a `-`.
fn int(value: &Value<'_>, spec: &Spec, dialect: Dialect) -> String {
    let flags = spec.flags;
    if spec.verb == 'c' {
        let c = integer::bits64(value).and_then(|v| u32::try_from(v).ok()).and_then(char::from_u32);
        return c.unwrap_or('\u{fffd}').to_string();
    }
    let (base, upper) = match spec.verb {
        'x' => (16, false),
        'X' => (16, true),
        'o' => (8, false),
        'b' => (2, false),
        _ => (10, false),
    };
    let complement = match value {
        Value::Int(v) if base != 10 && *v < 0 && twos_complement(dialect) => Some(Value::Uint(*v as u64)),
        _ => None,
    };
    let (negative, mut digits) = integer::to_radix(complement.as_ref().unwrap_or(value), base).unwrap_or_default();
    if upper {
        digits.make_ascii_uppercase();
    }
    if let Count::Fixed(min) = spec.precision {
        // C#'s `D5`/`X8`: a minimum number of digits.
        let min = usize::from(min);
        if digits.len() < min {
            digits.insert_str(0, &"0".repeat(min - digits.len()));
        }
    }
    if flags.grouping() && base == 10 {
        digits = group_thousands(&digits);
    }
    let prefix = match (base, flags.alt(), dialect) {
        (_, false, _) => "",
        (16, true, Dialect::Rust) => "0x",
        (16, true, _) if upper => "0X",
        (16, true, _) => "0x",
        (8, true, Dialect::JavaFormat) => "0",
        (8, true, _) => "0o",
        (2, true, _) => "0b",
        _ => "",
    };
    let sign = if negative { "-" } else { positive_sign(flags) };
    format!("{sign}{prefix}{digits}")
}

/// `1234567` → `1,234,567` (digits only).
fn group_thousands(digits: &str) -> String {
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// Groups the integer part of a decimal number: `1234.5` → `1,234.5`.
fn group_number(text: &str) -> String {
    let sign = text.len() - text.trim_start_matches(['-', '+', ' ']).len();
    let end = text[sign..].find(|c: char| !c.is_ascii_digit()).map_or(text.len(), |n| sign + n);
    format!("{}{}{}", &text[..sign], group_thousands(&text[sign..end]), &text[end..])
}

fn float_text(v: f64, spec: &Spec, dialect: Dialect) -> String {
    let flags = spec.flags;
    let precision = match spec.precision {
        Count::Fixed(n) => Some(usize::from(n)),
        Count::None | Count::Star | Count::Arg(_) => None,
    };
    let sign = if v.is_sign_negative() && !v.is_nan() { "-" } else { positive_sign(flags) };
    let a = v.abs();
    let mut text = match dialect {
        // `util.format` writes negative zero as `-0`, a template literal as `0`.
        Dialect::JsFormat if v == 0.0 && v.is_sign_negative() => return "-0".to_owned(),
        Dialect::JsFormat | Dialect::JsTemplate => return js_number(v),
        Dialect::Rust => {
            if !v.is_finite() {
                return format!("{sign}{}", if v.is_nan() { "NaN" } else { "inf" });
            }
            let body = match (spec.verb, precision) {
                ('e', Some(p)) => format!("{a:.p$e}"),
                ('e', None) => format!("{a:e}"),
                ('E', Some(p)) => format!("{a:.p$E}"),
                ('E', None) => format!("{a:E}"),
                (_, Some(p)) => format!("{a:.p$}"),
                (_, None) => format!("{a}"),
            };
            return format!("{sign}{body}");
        }
        Dialect::JavaFormat if !v.is_finite() => {
            return format!("{sign}{}", if v.is_nan() { "NaN" } else { "Infinity" });
        }
        Dialect::CSharp if !v.is_finite() => {
            return format!("{sign}{}", if v.is_nan() { "NaN" } else { "∞" });
        }
        Dialect::CSharp if matches!(spec.verb, 'e' | 'E') => {
            // .NET: `1.500000E+003`, at least three exponent digits.
            let mut body = String::new();
            c_float(&mut body, a, spec.verb, precision.or(Some(6)), false);
            let (mantissa, exponent) = body.split_once(['e', 'E']).unwrap_or((&body, "+0"));
            let (exp_sign, exp_digits) = exponent.split_at(1);
            let e = if spec.verb == 'E' { 'E' } else { 'e' };
            return format!("{sign}{mantissa}{e}{exp_sign}{exp_digits:0>3}");
        }
        Dialect::CSharp => {
            let mut body = String::new();
            c_float(&mut body, a, 'f', precision.or(Some(2)), false);
            format!("{sign}{body}")
        }
        // Java's `%g` keeps trailing zeros, as C's `%#g` does.
        Dialect::JavaFormat if matches!(spec.verb, 'g' | 'G') => {
            let mut body = String::new();
            c_float(&mut body, a, spec.verb, precision, true);
            format!("{sign}{body}")
        }
        _ if spec.verb == '%' => {
            let mut body = String::new();
            c_float(&mut body, a * 100.0, 'f', precision, flags.alt());
            format!("{sign}{body}%")
        }
        _ => {
            let mut body = String::new();
            c_float(&mut body, a, spec.verb, precision, flags.alt());
            format!("{sign}{body}")
        }
    };
    if flags.grouping() {
        text = group_number(&text);
    }
    text
}

/// C's `printf` of a non-negative `a` (no padding).
fn c_float(out: &mut String, a: f64, verb: char, precision: Option<usize>, sharp: bool) {
    let opts = Opts { width: 0, prec: precision, minus: false, plus: false, sharp, space: false, zero: false };
    let verb = if verb == '%' { 'f' } else { verb };
    let _ = float::c(out, a, verb, &opts, false);
}

/// JavaScript's `Number.prototype.toString()`: the shortest digits that read
/// back as the same number, in exponent form from 1e21 and below 1e-6.
pub(super) fn js_number(v: f64) -> String {
    if v.is_nan() {
        return "NaN".to_owned();
    }
    if v.is_infinite() {
        return if v < 0.0 { "-Infinity" } else { "Infinity" }.to_owned();
    }
    if v == 0.0 {
        return "0".to_owned();
    }
    let sign = if v < 0.0 { "-" } else { "" };
    let scientific = format!("{:e}", v.abs()); // `1.5e-7`: the shortest digits
    let (mantissa, exponent) = scientific.split_once('e').unwrap_or((&scientific, "0"));
    let exponent: i32 = exponent.parse().unwrap_or(0);
    let digits: String = mantissa.chars().filter(char::is_ascii_digit).collect();
    let k = i32::try_from(digits.len()).unwrap_or(i32::MAX);
    let n = exponent + 1; // the decimal point is after `n` digits
    let body = if k <= n && n <= 21 {
        format!("{digits}{}", "0".repeat(usize::try_from(n - k).unwrap_or(0)))
    } else if 0 < n && n <= 21 {
        let (int, frac) = digits.split_at(usize::try_from(n).unwrap_or(0));
        format!("{int}.{frac}")
    } else if -6 < n && n <= 0 {
        format!("0.{}{digits}", "0".repeat(usize::try_from(-n).unwrap_or(0)))
    } else {
        let (first, rest) = digits.split_at(1);
        let point = if rest.is_empty() { "" } else { "." };
        let exp_sign = if n - 1 < 0 { "-" } else { "+" };
        format!("{first}{point}{rest}e{exp_sign}{}", (n - 1).abs())
    };
    format!("{sign}{body}")
}

/// An integer of any size, as [`int`] writes it.
fn parse_int(trimmed: &str, captured: &str, spec: &Spec, dialect: Dialect) -> Option<Value<'static>> {
    if spec.verb == 'c' {
        let mut chars = captured.chars();
        let c = chars.next()?;
        return chars.next().is_none().then_some(Value::Int(i64::from(u32::from(c))));
    }
    let (negative, text) = match trimmed.as_bytes().first()? {
        b'-' => (true, &trimmed[1..]),
        b'+' | b' ' => (false, &trimmed[1..]),
        _ => (false, trimmed),
    };
    let strip = |prefixes: &[&str]| prefixes.iter().find_map(|p| text.strip_prefix(p)).unwrap_or(text);
    let (base, digits) = match spec.verb {
        'x' | 'X' => (16, strip(&["0x", "0X"])),
        'o' => (8, strip(&["0o"])),
        'b' => (2, strip(&["0b"])),
        _ => (10, text),
    };
    let digits: Cow<'_, str> =
        if spec.flags.grouping() && base == 10 { digits.replace(',', "").into() } else { digits.into() };
    if digits.is_empty() || !digits.chars().all(|c| c.is_digit(base)) {
        return None;
    }
    match u64::from_str_radix(&digits, base) {
        // The 64-bit two's complement of a negative number.
        Ok(magnitude) if !negative && base != 10 && twos_complement(dialect) => Some(Value::Int(magnitude as i64)),
        _ => integer::from_radix(negative, &digits, base),
    }
}

fn parse_float(trimmed: &str, spec: &Spec) -> Option<f64> {
    let percent = spec.verb == '%';
    let text = if percent { trimmed.strip_suffix('%')? } else { trimmed };
    let text = text.replace(',', "");
    let (negative, body) = match text.as_bytes().first()? {
        b'-' => (true, &text[1..]),
        b'+' | b' ' => (false, &text[1..]),
        _ => (false, text.as_str()),
    };
    let value = if body == "∞" { f64::INFINITY } else { float::parse(body)? };
    let value = if negative { -value } else { value };
    Some(if percent { value / 100.0 } else { value })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn js_numbers_are_written_as_node_writes_them() {
        // Expected values from `node -p 'String(x)'`.
        let cases = [
            (1.5, "1.5"),
            (7.0, "7"),
            (-0.5, "-0.5"),
            (1e21, "1e+21"),
            (123456789012345680000.0, "123456789012345680000"),
            (1e-7, "1e-7"),
            (1.5e-7, "1.5e-7"),
            (0.000001, "0.000001"),
            (2.5e300, "2.5e+300"),
            (f64::NAN, "NaN"),
            (f64::NEG_INFINITY, "-Infinity"),
        ];
        for (v, expected) in cases {
            assert_eq!(js_number(v), expected, "{v}");
        }
    }

    #[test]
    fn integers_of_any_size_round_trip() {
        // Java's `%d` of a `BigInteger`, Rust's `{}` and `{:x}` of an `i128`
        // (found by fuzzing: one beyond `i64` did not parse back).
        let spec = |verb| Spec { verb, flags: Flags::NONE, width: Count::None, precision: Count::None };
        let big = Value::BigInt("13459618903581005485012610873005798508".into());
        // (dialect, verb, value, text, read back as): in base 16, Rust's
        // two's complement of -1 and `u64::MAX` are the same text.
        for (dialect, verb, value, text, back) in [
            (Dialect::JavaFormat, 'd', big.clone(), "13459618903581005485012610873005798508", big.clone()),
            (Dialect::JavaFormat, 'X', big.clone(), "A203A726F727265206E69206465746C", big.clone()),
            (
                Dialect::JavaFormat,
                'd',
                Value::BigInt("-99999999999999999999".into()),
                "-99999999999999999999",
                Value::BigInt("-99999999999999999999".into()),
            ),
            (Dialect::Rust, 'd', Value::Uint(u64::MAX), "18446744073709551615", Value::Uint(u64::MAX)),
            (Dialect::Rust, 'x', Value::Uint(u64::MAX), "ffffffffffffffff", Value::Int(-1)),
            (Dialect::Rust, 'x', Value::Int(-1), "ffffffffffffffff", Value::Int(-1)),
            (Dialect::PythonBrace, 'x', Value::Int(-255), "-ff", Value::Int(-255)),
        ] {
            let mut out = String::new();
            render(&mut out, &spec(verb), dialect, &value).unwrap();
            assert_eq!(out, text, "{dialect:?} {verb} of {value:?}");
            assert_eq!(parse(ValueKind::Int, &spec(verb), dialect, &out), Some(back), "{dialect:?} {verb} of {text}");
        }
    }

    #[test]
    fn grouping() {
        assert_eq!(group_thousands("1234567"), "1,234,567");
        assert_eq!(group_thousands("123"), "123");
        assert_eq!(group_number("-1234.50"), "-1,234.50");
    }
}
