//! Writing values as Go's `fmt`, C's `printf` and Python's `%` write them.

use std::borrow::Cow;
use std::fmt::{self, Write};

use super::super::opts::{pad, Opts};
use super::super::{float, integer, python_repr, quote, Dialect, Spec};
use crate::model::Value;

/// Writes `value` as the conversion `spec` of `dialect` writes it:
/// [`Dialect::Printf`] and [`Dialect::Python`] follow C/Python, the others
/// Go's `fmt`. Width and precision given as `*` are ignored here (see
/// [`render_template`], which takes them from their fields).
///
/// Text-kind verbs write a string as is (precision truncates it), since a
/// text value holds the rendered text, except where the verb transforms
/// strings: Go's `%q`, `%#v` and `%x` (hex of the bytes), Python's `%r` and
/// `%a` (`repr`). C's and Python's `%x` of a string already in hex write it
/// as is. Go's `%T` writes the Go type of a number or boolean (`int`,
/// `uint64`, `float64`, `float32`, `bool`, `[]uint8`) and a string as is
/// (the type name it holds). A value of another kind than the verb expects
/// is written plainly (its `Display`), padded to the width.
pub(in crate::format) fn render(out: &mut dyn Write, spec: &Spec, dialect: Dialect, value: &Value<'_>) -> fmt::Result {
    let mut o = Opts::new(spec);
    let c_like = matches!(dialect, Dialect::Printf | Dialect::Python);
    let go_syntax = !c_like && spec.verb == 'v' && o.sharp;
    if !c_like && matches!(spec.verb, 'v' | 'w') {
        // `%+v` and `%#v` are other formats, not flags of the value.
        o.plus = false;
        o.sharp = false;
    }
    if !c_like && spec.verb == 'T' {
        let name = match value {
            Value::Int(_) => "int",
            Value::Uint(_) => "uint64",
            Value::BigInt(_) => "*big.Int",
            Value::Float(_) => "float64",
            Value::Float32(_) => "float32",
            Value::Bool(_) => "bool",
            Value::Bytes(_) => "[]uint8",
            Value::Str(s) => s,
        };
        return pad(out, name, &o, o.zero);
    }
    match value {
        Value::Int(_) | Value::Uint(_) | Value::BigInt(_) if c_like => c_int(out, value, spec.verb, dialect, &o),
        Value::Int(_) | Value::Uint(_) | Value::BigInt(_) => go_int(out, value, spec.verb, go_syntax, &o),
        Value::Float(_) | Value::Float32(_) => {
            let (v, single) = match value {
                Value::Float32(v) => (f64::from(*v), true),
                Value::Float(v) => (*v, false),
                _ => unreachable!("matched above"),
            };
            match spec.verb {
                'v' | 'e' | 'E' | 'f' | 'F' | 'g' | 'G' | 'x' | 'X' | 'b' if !c_like => {
                    float::go(out, v, spec.verb, &o, single)
                }
                'e' | 'E' | 'f' | 'F' | 'g' | 'G' | 'A' if c_like => {
                    float::c(out, v, spec.verb, &o, dialect == Dialect::Python)
                }
                'a' if dialect == Dialect::Printf => float::c(out, v, spec.verb, &o, false),
                // Python's `%d` of a float writes `int(value)`: truncated,
                // every digit exact (`%d` of 1.2345678901234568e29 is
                // `123456789012345677877719597056`).
                'd' | 'i' | 'u' if dialect == Dialect::Python && v.is_finite() => {
                    let digits = format!("{:.0}", v.trunc());
                    let digits = if digits == "-0" { "0" } else { &digits };
                    match Value::integer(digits) {
                        Some(int) => c_int(out, &int, spec.verb, dialect, &o),
                        None => plain(out, value, &o),
                    }
                }
                's' | 'r' | 'a' if dialect == Dialect::Python => {
                    pad(out, truncate(&python_repr::float_repr(v), o.prec), &o, false)
                }
                _ => plain(out, value, &o),
            }
        }
        Value::Bool(v) if !c_like && matches!(spec.verb, 't' | 'v') => {
            pad(out, if *v { "true" } else { "false" }, &o, o.zero)
        }
        Value::Bool(_) => plain(out, value, &o),
        Value::Str(s) => string(out, s.as_bytes(), spec.verb, dialect, go_syntax, &o),
        Value::Bytes(b) => string(out, b, spec.verb, dialect, go_syntax, &o),
    }
}

fn plain(out: &mut dyn Write, value: &Value<'_>, o: &Opts) -> fmt::Result {
    pad(out, &value.to_string(), o, false)
}

/// An integer value's sign and digits in `base` (upper-case with `upper`),
/// zero-extended to `min` digits.
fn digits(value: &Value<'_>, base: u32, upper: bool, min: usize) -> (bool, String) {
    let (negative, mut digits) = integer::to_radix(value, base).unwrap_or((false, String::new()));
    if upper {
        digits.make_ascii_uppercase();
    }
    (negative, format!("{digits:0>min$}"))
}

/// The code point a `%c` of `value` writes: U+FFFD when it is not a valid one.
fn code_point(value: &Value<'_>) -> char {
    integer::bits64(value).and_then(|v| u32::try_from(v).ok()).and_then(char::from_u32).unwrap_or('\u{fffd}')
}

/// Go's `%d %b %o %O %x %X %c %q %U` (and `%v`, `%#v`) of an integer.
fn go_int(out: &mut dyn Write, value: &Value<'_>, verb: char, go_syntax: bool, o: &Opts) -> fmt::Result {
    let (base, upper) = match verb {
        // `%#v` of an unsigned value is hex, as Go writes unsigned types.
        'v' if go_syntax && matches!(value, Value::Uint(_)) => (16, false),
        'd' | 'v' => (10, false),
        'b' => (2, false),
        'o' | 'O' => (8, false),
        'x' => (16, false),
        'X' => (16, true),
        'c' => return pad(out, code_point(value).encode_utf8(&mut [0; 4]), o, o.zero),
        'q' => {
            let code = u32::from(code_point(value));
            return pad(out, &quote::go_quote_rune(code, o.plus), o, o.zero);
        }
        'U' => return unicode(out, value, o),
        _ => return plain(out, value, o),
    };
    let sharp = o.sharp || (go_syntax && base == 16);
    if o.prec == Some(0) && integer::is_zero(value) {
        return pad(out, "", o, false);
    }
    let negative = integer::to_radix(value, 10).is_some_and(|(negative, _)| negative);
    let signed = negative || o.plus || o.space;
    let min = match o.prec {
        Some(prec) => prec,
        // Zero padding is done as a precision: it ignores any prefix.
        None if o.zero => o.width.saturating_sub(usize::from(signed)),
        None => 0,
    };
    let (negative, digits) = digits(value, base, upper, min);
    let sign = o.sign(negative);
    let prefix = match base {
        _ if !sharp => "",
        2 => "0b",
        8 if !digits.starts_with('0') => "0",
        16 if upper => "0X",
        16 => "0x",
        _ => "",
    };
    let octal = if verb == 'O' { "0o" } else { "" };
    pad(out, &format!("{sign}{octal}{prefix}{digits}"), o, false)
}

/// Go's `%U`: `U+0078`, and with `#` `U+0078 'x'`.
fn unicode(out: &mut dyn Write, value: &Value<'_>, o: &Opts) -> fmt::Result {
    let u = integer::bits64(value).unwrap_or(0) as u64; // Go formats the bits as unsigned
    let prec = o.prec.filter(|&p| p > 4).unwrap_or(4);
    let mut text = format!("U+{u:0prec$X}");
    let c = u32::try_from(u).ok().and_then(char::from_u32);
    if let Some(c) = c.filter(|&c| o.sharp && quote::is_print(c)) {
        let _ = write!(text, " '{c}'");
    }
    pad(out, &text, o, false)
}

/// C's (or Python's) `%d %i %u %o %x %X %c` of an integer. C's unsigned
/// conversions write negative values as their 64-bit two's complement.
fn c_int(out: &mut dyn Write, value: &Value<'_>, verb: char, dialect: Dialect, o: &Opts) -> fmt::Result {
    let python = dialect == Dialect::Python;
    let (base, upper, signed) = match verb {
        'd' | 'i' => (10, false, true),
        'u' => (10, false, python),
        'o' => (8, false, python),
        'x' => (16, false, python),
        'X' => (16, true, python),
        'c' => return pad(out, code_point(value).encode_utf8(&mut [0; 4]), o, false),
        _ => return plain(out, value, o),
    };
    let value = match value {
        Value::Int(v) if *v < 0 && !signed => &Value::Uint(*v as u64),
        _ => value,
    };
    let zero = integer::is_zero(value);
    let (negative, digits) = if zero && o.prec == Some(0) && !python {
        (false, String::new())
    } else {
        digits(value, base, upper, o.prec.unwrap_or(0))
    };
    let prefix = match (verb, python) {
        _ if !o.sharp => "",
        ('o', true) => "0o",
        ('o', false) if !digits.starts_with('0') => "0",
        ('x', _) if python || !zero => "0x",
        ('X', _) if python || !zero => "0X",
        _ => "",
    };
    let sign = if negative {
        "-"
    } else if signed && o.plus {
        "+"
    } else if signed && o.space {
        " "
    } else {
        ""
    };
    let len = sign.len() + prefix.len() + digits.len();
    if o.zero && (python || o.prec.is_none()) && o.width > len {
        let zeros = "0".repeat(o.width - len);
        return out.write_str(&format!("{sign}{prefix}{zeros}{digits}"));
    }
    pad(out, &format!("{sign}{prefix}{digits}"), o, false)
}

/// The first `prec` characters of `s`.
fn truncate(s: &str, prec: Option<usize>) -> &str {
    match prec.and_then(|prec| s.char_indices().nth(prec)) {
        Some((end, _)) => &s[..end],
        None => s,
    }
}

/// The first `prec` bytes of `s` (C's `%.Ns` counts bytes), down to a
/// character boundary: a `&str` cannot hold the cut character's first
/// bytes, which C writes (such output is not text; see docs/formats.md).
fn truncate_bytes(s: &str, prec: Option<usize>) -> &str {
    let mut end = prec.map_or(s.len(), |prec| prec.min(s.len()));
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    &s[..end]
}

/// `s` as text: bytes that are not UTF-8 escaped as `\xNN`. Only written
/// where the source program would write raw bytes (Go's `%s` of such a
/// string), which a line of text cannot hold.
fn lossless_text(s: &[u8]) -> Cow<'_, str> {
    match std::str::from_utf8(s) {
        Ok(text) => Cow::Borrowed(text),
        Err(_) => {
            let mut text = String::new();
            let _ = crate::model::value::write_escaped_bytes(&mut text, s);
            Cow::Owned(text)
        }
    }
}

fn string(out: &mut dyn Write, s: &[u8], verb: char, dialect: Dialect, go_syntax: bool, o: &Opts) -> fmt::Result {
    let c_like = matches!(dialect, Dialect::Printf | Dialect::Python);
    // Go pads strings with zeros when asked to; C and Python do not.
    let zero = o.zero && !c_like;
    let text = lossless_text(s);
    match verb {
        'q' if !c_like => {
            let cut = &s[..go_prefix_len(s, o.prec)];
            let quoted = match std::str::from_utf8(cut) {
                Ok(cut) if o.sharp && quote::can_backquote(cut) => format!("`{cut}`"),
                _ => quote::go_quote_bytes(cut, o.plus),
            };
            pad(out, &quoted, o, zero)
        }
        'v' if go_syntax => pad(out, &quote::go_quote_bytes(s, false), o, zero),
        'x' | 'X' if !c_like => {
            pad(out, &hex_encode(&s[..o.prec.map_or(s.len(), |p| p.min(s.len()))], verb == 'X', o), o, zero)
        }
        'x' | 'X' => {
            if is_hex_text(&text, verb == 'X') {
                pad(out, &text, o, zero)
            } else {
                // Bytes run together: C and Python have no spaced form of
                // `% x` (Go's), and their `%x` regex reads one number.
                let bytes = &s[..o.prec.map_or(s.len(), |p| p.min(s.len()))];
                pad(out, &hex_encode(bytes, verb == 'X', &Opts { space: false, ..*o }), o, zero)
            }
        }
        's' | 'p' if dialect == Dialect::Printf => pad_bytes(out, truncate_bytes(&text, o.prec), o),
        's' | 'p' => pad(out, truncate(&text, o.prec), o, zero),
        'v' | 'w' | 'T' if !c_like => pad(out, truncate(&text, o.prec), o, zero),
        'r' | 'a' if dialect == Dialect::Python => {
            pad(out, truncate(&python_repr::repr(&text, verb == 'a'), o.prec), o, false)
        }
        _ => pad(out, &text, o, false),
    }
}

/// The length of the first `prec` characters of `s` (Go's precision of
/// `%q` counts runes; a byte that is not UTF-8 counts as one).
fn go_prefix_len(s: &[u8], prec: Option<usize>) -> usize {
    let Some(prec) = prec else {
        return s.len();
    };
    let mut end = 0;
    for _ in 0..prec {
        if end >= s.len() {
            break;
        }
        let width = match s[end] {
            0x00..=0x7f => 1,
            0xc2..=0xdf => 2,
            0xe0..=0xef => 3,
            0xf0..=0xf4 => 4,
            _ => 1,
        };
        let valid = s.get(end..end + width).is_some_and(|c| std::str::from_utf8(c).is_ok());
        end += if valid { width } else { 1 };
    }
    end
}

/// C's padding of `%s`: the width counts bytes, not characters.
fn pad_bytes(out: &mut dyn Write, body: &str, o: &Opts) -> fmt::Result {
    let fill = o.width.saturating_sub(body.len());
    if o.minus {
        out.write_str(body)?;
        (0..fill).try_for_each(|_| out.write_char(' '))
    } else {
        (0..fill).try_for_each(|_| out.write_char(' '))?;
        out.write_str(body)
    }
}

/// Whether `s` is hex digits of the case `%x`/`%X` writes (with an optional
/// sign and `0x` prefix).
fn is_hex_text(s: &str, upper: bool) -> bool {
    let s = s.strip_prefix(['-', '+', ' ']).unwrap_or(s);
    let prefix = if upper { "0X" } else { "0x" };
    let is_digit = |b: u8| b.is_ascii_digit() || if upper { b.is_ascii_uppercase() } else { b.is_ascii_lowercase() };
    let s = s.strip_prefix(prefix).unwrap_or(s);
    !s.is_empty() && s.bytes().all(|b| is_digit(b) && b.is_ascii_hexdigit())
}

/// `%x` of bytes: two hex digits per byte, `0x` first with `#`, bytes
/// separated by spaces with ` ` (each with its `0x`).
fn hex_encode(bytes: &[u8], upper: bool, o: &Opts) -> String {
    let prefix = if upper { "0X" } else { "0x" };
    let mut text = String::with_capacity(bytes.len() * 3 + 2);
    for (i, byte) in bytes.iter().enumerate() {
        if i > 0 && o.space {
            text.push(' ');
        }
        if o.sharp && (i == 0 || o.space) {
            text.push_str(prefix);
        }
        let _ = if upper { write!(text, "{byte:02X}") } else { write!(text, "{byte:02x}") };
    }
    text
}
