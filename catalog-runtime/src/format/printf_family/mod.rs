//! The printf family: Go's `fmt`, C's `printf` and Python's `%` (and the
//! plain text of patterns' groups), whose conversions share flags, widths,
//! precisions and most verbs: what each placeholder's text looks like (its
//! regex, here), how a value is written (`render`) and read back (`parse`).

use std::borrow::Cow;

use super::template::{INTEGER, QUOTED, TEXT};
use super::{Count, Dialect, Spec};

mod parse;
mod render;

pub(super) use parse::{parse_value as parse, star_value};
pub(super) use render::render;

/// A Go raw string as `%#q` writes it (`strconv.CanBackquote`).
const BACKQUOTED: &str = r"`[^`\x00-\x08\n-\x1f\x7f\x{feff}]*`";
const GO_FLOAT: &str = r"[-+ ]?(?:[0-9]+(?:\.[0-9]*)?(?:[eE][-+]?[0-9]+)?|Inf|NaN)";
/// Python pads `inf` and `nan` with zeros (`%010f`), C does not.
const C_FLOAT: &str = r"[-+ ]?(?:[0-9]+(?:\.[0-9]*)?(?:[eE][-+]?[0-9]+)?|0*(?:inf|nan|INF|NAN))";
const C_HEX_FLOAT: &str = r"[-+ ]?(?:0[xX][0-9a-fA-F]+(?:\.[0-9a-fA-F]*)?[pP][-+]?[0-9]+|inf|nan|INF|NAN)";

/// The regex of one placeholder: padding, then one capture group holding
/// only the value. Padding is `" *"` on the left (right with `-`), on both
/// sides for a `*` width (inside the group: the width is read back from the
/// padded text), and `"0*"` for Go non-numbers padded with `0`.
pub(in crate::format) fn regex(spec: &Spec, dialect: Dialect) -> String {
    let inner = inner_regex(spec, dialect);
    if spec.width.is_star() {
        return format!("( *(?:{inner}) *)");
    }
    let flags = spec.flags;
    let go = dialect == Dialect::Go;
    let (left, right) = match spec.width {
        Count::None | Count::Fixed(0) => ("", ""),
        Count::Star | Count::Arg(_) => unreachable!("returned above"),
        Count::Fixed(_) if flags.minus() => ("", " *"),
        // Go pads text with zeros too: inside the capture for text verbs
        // (`%05v` of 0 is `00000`), outside for quoted strings, booleans and characters.
        Count::Fixed(_) if go && flags.zero() && matches!(spec.verb, 'q' | 't' | 'c') => ("0*", ""),
        Count::Fixed(_) => (" *", ""),
    };
    format!("{left}({inner}){right}")
}

fn inner_regex(spec: &Spec, dialect: Dialect) -> Cow<'static, str> {
    let flags = spec.flags;
    let go = dialect == Dialect::Go;
    let int = |digits: &str| -> Cow<'static, str> {
        if spec.precision == Count::Fixed(0) && go {
            // Go's `%.0d` of zero writes nothing.
            format!("(?:[-+ ]?{digits})?").into()
        } else if spec.precision == Count::Fixed(0) {
            // C's writes only the sign its flags ask for.
            format!("[-+ ]?(?:{digits})?").into()
        } else {
            format!("[-+ ]?{digits}").into()
        }
    };
    let go_hex = |upper: bool| -> Cow<'static, str> {
        let (prefix, digit, p) = if upper { ("0X", "[0-9A-F]", "P") } else { ("0x", "[0-9a-f]", "p") };
        // Integers, bytes (spaced with ` `, `0x` padded with zeros before
        // it), hex floats; an empty string writes nothing.
        let group = if flags.space() { format!("(?: (?:{prefix})?{digit}+)*") } else { String::new() };
        format!("(?:[-+ ]?0*(?:{prefix})?{digit}+{group}(?:\\.{digit}*)?(?:{p}[-+][0-9]+)?|[-+ ]?(?:Inf|NaN))?").into()
    };
    let c_hex = |upper: bool| {
        let (prefix, digit) = if upper { ("(?:0X)?", "[0-9A-F]+") } else { ("(?:0x)?", "[0-9a-f]+") };
        int(&format!("{prefix}{digit}"))
    };
    match (dialect, spec.verb) {
        (Dialect::Printf | Dialect::Python, verb) => match verb {
            'd' | 'i' | 'u' => int("[0-9]+"),
            'o' => int(r"(?:0o)?[0-7]+"),
            'x' | 'X' => c_hex(verb == 'X'),
            'c' => ".".into(),
            'f' | 'F' | 'e' | 'E' | 'g' | 'G' => C_FLOAT.into(),
            'A' => C_HEX_FLOAT.into(),
            'a' if dialect == Dialect::Printf => C_HEX_FLOAT.into(),
            _ => TEXT.into(),
        },
        (_, verb) => match verb {
            'd' if spec.precision == Count::Fixed(0) => int("[0-9]+"),
            'd' => INTEGER.into(),
            // `%b` of a float: `4503599627370496p-52`.
            'b' => format!("{}|[-+ ]?[0-9]+p[-+][0-9]+|[-+ ]?(?:Inf|NaN)", int("(?:0b)?[01]+")).into(),
            'o' => int("[0-7]+"),
            'O' => int("0o[0-7]+"),
            'x' | 'X' => go_hex(verb == 'X'),
            'c' => ".".into(),
            'U' if flags.alt() => r"U\+[0-9A-F]+(?: '.')?".into(),
            'U' => r"U\+[0-9A-F]+".into(),
            'e' | 'E' | 'f' | 'F' | 'g' | 'G' => GO_FLOAT.into(),
            't' => "true|false".into(),
            'q' if flags.alt() => format!("{QUOTED}|{BACKQUOTED}").into(),
            'q' => QUOTED.into(),
            _ => TEXT.into(),
        },
    }
}
