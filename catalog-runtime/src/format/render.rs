//! Writing values as Go's `fmt` (or C's `printf`, Python's `%`) writes them.

use std::fmt::{self, Write};

use super::{float, quote, Count, Dialect, Flags, Piece, Spec, Template};
use crate::model::Value;

/// Width, precision and flags of a conversion. `*` counts are ignored.
#[derive(Clone, Copy, Debug)]
pub(super) struct Opts {
    pub(super) width: usize,
    pub(super) prec: Option<usize>,
    pub(super) minus: bool,
    pub(super) plus: bool,
    pub(super) sharp: bool,
    pub(super) space: bool,
    /// `0`, unless `-` is also given.
    pub(super) zero: bool,
}

impl Opts {
    /// The sign written before a number: `-`, or `+`/space by the flags.
    pub(super) fn sign(&self, negative: bool) -> &'static str {
        if negative {
            "-"
        } else if self.plus {
            "+"
        } else if self.space {
            " "
        } else {
            ""
        }
    }

    fn new(spec: &Spec) -> Self {
        let fixed = |count| match count {
            Count::Fixed(n) => Some(usize::from(n)),
            Count::None | Count::Star => None,
        };
        let flags = spec.flags;
        Opts {
            width: fixed(spec.width).unwrap_or(0),
            prec: fixed(spec.precision),
            minus: flags.has(Flags::MINUS),
            plus: flags.has(Flags::PLUS),
            sharp: flags.has(Flags::SHARP),
            space: flags.has(Flags::SPACE),
            zero: flags.has(Flags::ZERO) && !flags.has(Flags::MINUS),
        }
    }
}

/// Writes `body` padded to the width: on the right with `-`, else on the
/// left with zeros (when `zero`) or spaces.
pub(super) fn pad(out: &mut dyn Write, body: &str, o: &Opts, zero: bool) -> fmt::Result {
    let fill = o.width.saturating_sub(body.chars().count());
    if o.minus {
        out.write_str(body)?;
        (0..fill).try_for_each(|_| out.write_char(' '))
    } else {
        (0..fill).try_for_each(|_| out.write_char(if zero { '0' } else { ' ' }))?;
        out.write_str(body)
    }
}

/// Writes `value` as the conversion `spec` of `dialect` writes it:
/// [`Dialect::Printf`] and [`Dialect::Python`] follow C/Python, the others
/// Go's `fmt`. Width and precision given as `*` are ignored.
///
/// Text-kind verbs write the string as is (precision truncates it), since a
/// text value holds the rendered text; `%x`/`%X` write a string already in
/// that hex form as is and hex-encode any other string, as Go does. A value
/// of another kind than the verb expects is written plainly (its `Display`),
/// padded to the width.
pub fn render(out: &mut dyn Write, spec: &Spec, dialect: Dialect, value: &Value<'_>) -> fmt::Result {
    if let Some(result) = super::value_forms::render(out, spec, dialect, value) {
        return result;
    }
    let mut o = Opts::new(spec);
    let c_like = matches!(dialect, Dialect::Printf | Dialect::Python);
    if !c_like && matches!(spec.verb, 'v' | 'w') {
        // `%+v` and `%#v` are other formats, not flags of the value.
        o.plus = false;
        o.sharp = false;
    }
    match value {
        Value::Int(v) if c_like => c_int(out, *v, spec.verb, dialect, &o),
        Value::Int(v) => go_int(out, *v, spec.verb, &o),
        Value::Float(v) => match spec.verb {
            'v' | 'e' | 'E' | 'f' | 'F' | 'g' | 'G' if !c_like => float::go(out, *v, spec.verb, &o),
            'e' | 'E' | 'f' | 'F' | 'g' | 'G' | 'A' if c_like => float::c(out, *v, spec.verb, &o),
            'a' if dialect == Dialect::Printf => float::c(out, *v, spec.verb, &o),
            _ => plain(out, value, &o),
        },
        Value::Bool(v) if !c_like && matches!(spec.verb, 't' | 'v') => {
            pad(out, if *v { "true" } else { "false" }, &o, o.zero)
        }
        Value::Bool(_) => plain(out, value, &o),
        Value::Str(s) => string(out, s, spec.verb, dialect, &o),
    }
}

/// Writes a whole message: the literal pieces, and each placeholder with the
/// value of its field (`values` is indexed like [`Template::fields`]).
/// Fails with [`fmt::Error`] when a field has no value.
pub fn render_template(out: &mut dyn Write, template: &Template, values: &[Value<'_>]) -> fmt::Result {
    render_pieces(out, template, |field| values.get(field).map(Some))
}

/// [`render_template`] with some fields unknown: their placeholders are
/// written as `%` and the verb (`%d`), without flags, width or precision.
pub fn render_partial(out: &mut dyn Write, template: &Template, values: &[Option<Value<'_>>]) -> fmt::Result {
    render_pieces(out, template, |field| values.get(field).map(Option::as_ref))
}

/// The pieces of `template`, each placeholder with `value(field)`: `None`
/// (no such field) fails, `Some(None)` writes the verb.
fn render_pieces<'v>(
    out: &mut dyn Write,
    template: &Template,
    value: impl Fn(usize) -> Option<Option<&'v Value<'v>>>,
) -> fmt::Result {
    for piece in template.pieces.iter() {
        match piece {
            Piece::Literal(text) => out.write_str(text)?,
            Piece::Value { field, spec } => match value(usize::from(*field)).ok_or(fmt::Error)? {
                Some(value) => render(out, spec, template.dialect, value)?,
                None => write!(out, "%{}", spec.verb)?,
            },
        }
    }
    Ok(())
}

fn plain(out: &mut dyn Write, value: &Value<'_>, o: &Opts) -> fmt::Result {
    pad(out, &value.to_string(), o, false)
}

/// `mag` in `base`, zero-extended to `min` digits.
fn digits(mag: u64, base: u32, upper: bool, min: usize) -> String {
    let digits = match (base, upper) {
        (2, _) => format!("{mag:b}"),
        (8, _) => format!("{mag:o}"),
        (16, false) => format!("{mag:x}"),
        (16, true) => format!("{mag:X}"),
        _ => mag.to_string(),
    };
    format!("{digits:0>min$}")
}

/// Go's `%d %b %o %O %x %X %c %U` (and `%v`) of an integer.
fn go_int(out: &mut dyn Write, v: i64, verb: char, o: &Opts) -> fmt::Result {
    let (base, upper) = match verb {
        'd' | 'v' => (10, false),
        'b' => (2, false),
        'o' | 'O' => (8, false),
        'x' => (16, false),
        'X' => (16, true),
        'c' => {
            let c = u32::try_from(v).ok().and_then(char::from_u32).unwrap_or('\u{fffd}');
            return pad(out, c.encode_utf8(&mut [0; 4]), o, o.zero);
        }
        'U' => return unicode(out, v, o),
        _ => return plain(out, &Value::Int(v), o),
    };
    let (negative, mag) = (v < 0, v.unsigned_abs());
    if o.prec == Some(0) && mag == 0 {
        return pad(out, "", o, false);
    }
    let signed = negative || o.plus || o.space;
    let min = match o.prec {
        Some(prec) => prec,
        // Zero padding is done as a precision: it ignores any prefix.
        None if o.zero => o.width.saturating_sub(usize::from(signed)),
        None => 0,
    };
    let digits = digits(mag, base, upper, min);
    let sign = o.sign(negative);
    let prefix = match base {
        _ if !o.sharp => "",
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
fn unicode(out: &mut dyn Write, v: i64, o: &Opts) -> fmt::Result {
    let u = v as u64; // Go formats the bits as unsigned
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
fn c_int(out: &mut dyn Write, v: i64, verb: char, dialect: Dialect, o: &Opts) -> fmt::Result {
    let python = dialect == Dialect::Python;
    let (base, upper, signed) = match verb {
        'd' | 'i' => (10, false, true),
        'u' => (10, false, python),
        'o' => (8, false, python),
        'x' => (16, false, python),
        'X' => (16, true, python),
        'c' => {
            let c = u32::try_from(v).ok().and_then(char::from_u32).unwrap_or('\u{fffd}');
            return pad(out, c.encode_utf8(&mut [0; 4]), o, false);
        }
        _ => return plain(out, &Value::Int(v), o),
    };
    let (negative, mag) = if signed { (v < 0, v.unsigned_abs()) } else { (false, v as u64) };
    let digits = if mag == 0 && o.prec == Some(0) && !python {
        String::new()
    } else {
        digits(mag, base, upper, o.prec.unwrap_or(0))
    };
    let prefix = match (verb, python) {
        _ if !o.sharp => "",
        ('o', true) => "0o",
        ('o', false) if !digits.starts_with('0') => "0",
        ('x', _) if python || mag != 0 => "0x",
        ('X', _) if python || mag != 0 => "0X",
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

fn string(out: &mut dyn Write, s: &str, verb: char, dialect: Dialect, o: &Opts) -> fmt::Result {
    let c_like = matches!(dialect, Dialect::Printf | Dialect::Python);
    // Go pads strings with zeros when asked to; C and Python do not.
    let zero = o.zero && !c_like;
    match verb {
        'q' if !c_like => {
            let s = truncate(s, o.prec);
            let quoted = if o.sharp && quote::can_backquote(s) { format!("`{s}`") } else { quote::go_quote(s, o.plus) };
            pad(out, &quoted, o, zero)
        }
        'x' | 'X' => {
            let spaced = o.space && !c_like;
            if is_hex_text(s, verb == 'X', spaced) {
                pad(out, s, o, zero)
            } else {
                pad(out, &hex_encode(s, verb == 'X', spaced, o), o, zero)
            }
        }
        's' | 'p' => pad(out, truncate(s, o.prec), o, zero),
        'v' | 'w' | 'T' if !c_like => pad(out, truncate(s, o.prec), o, zero),
        'r' | 'a' if dialect == Dialect::Python => pad(out, truncate(s, o.prec), o, zero),
        _ => pad(out, s, o, false),
    }
}

/// Whether `s` is hex digits of the case `%x`/`%X` writes (with an optional
/// sign and `0x` prefix, and byte groups separated by spaces when `spaced`).
fn is_hex_text(s: &str, upper: bool, spaced: bool) -> bool {
    let s = s.strip_prefix(['-', '+', ' ']).unwrap_or(s);
    let prefix = if upper { "0X" } else { "0x" };
    let is_digit = |b: u8| b.is_ascii_digit() || if upper { b.is_ascii_uppercase() } else { b.is_ascii_lowercase() };
    let group = |g: &str| {
        let g = g.strip_prefix(prefix).unwrap_or(g);
        !g.is_empty() && g.bytes().all(|b| is_digit(b) && b.is_ascii_hexdigit())
    };
    if spaced {
        s.split(' ').all(group)
    } else {
        group(s)
    }
}

/// Go's `%x` of a string: two hex digits per byte (at most `prec` bytes),
/// `0x` first with `#`, bytes separated by spaces with ` `.
fn hex_encode(s: &str, upper: bool, spaced: bool, o: &Opts) -> String {
    let bytes = &s.as_bytes()[..o.prec.map_or(s.len(), |prec| prec.min(s.len()))];
    let prefix = if upper { "0X" } else { "0x" };
    let mut text = String::with_capacity(bytes.len() * 3 + 2);
    for (i, byte) in bytes.iter().enumerate() {
        if i > 0 && spaced {
            text.push(' ');
        }
        if o.sharp && (i == 0 || spaced) {
            text.push_str(prefix);
        }
        let _ = if upper { write!(text, "{byte:02X}") } else { write!(text, "{byte:02x}") };
    }
    text
}
