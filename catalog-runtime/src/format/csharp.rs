//! C#: composite formatting (`string.Format("{0,-10:N2}", x)`) and
//! interpolated strings (`$"{x}"`): `{index-or-expression[,alignment][:format]}`
//! with `{{`/`}}` escapes.

use super::brace::{compile_holes, expression_name, scan_expression, Keys};
use super::std_family;
use super::{Count, Dialect, Flags, FormatError, Spec, Template};

/// Compiles a composite format string or an interpolated string's text. A
/// numeric hole is that argument; any other is named after its expression.
/// Standard numeric formats are typed (`D`/`d` and `X`/`x` integers with an
/// optional digit count, `F`, `N` (grouped) and `E` floats, invariant
/// culture); other formats are text. A negative alignment pads on the right.
pub(super) fn compile(format: &str) -> Result<Template, FormatError> {
    let mut keys = Keys::default();
    compile_holes(format, Dialect::CSharp, "unmatched `}` (write `}}`)", |format, open, builder| {
        let bytes = format.as_bytes();
        let stop = |t: &str, j: usize| matches!(t.as_bytes()[j], b'}' | b',' | b':');
        let end = scan_expression(format, open + 1, open, "format item", stop)?;
        let hole = format[open + 1..end].trim();
        let mut j = end;
        let mut alignment = 0i32;
        if bytes[j] == b',' {
            let close = format[j..].find([':', '}']).map_or(format.len(), |n| j + n);
            let text = format[j + 1..close].trim();
            alignment =
                text.parse().map_err(|_| FormatError::new(j + 1, format!("alignment {text:?} is not a number")))?;
            j = close;
        }
        let mut format_text = "";
        if bytes.get(j) == Some(&b':') {
            let close = format[j..].find('}').map_or(format.len(), |n| j + n);
            format_text = &format[j + 1..close];
            j = close;
        }
        if bytes.get(j) != Some(&b'}') {
            return Err(FormatError::new(open, "unterminated format item: missing `}`"));
        }
        let (verb, precision, grouping) = standard_format(format_text);
        let mut flags = if grouping { Flags::NONE.with_grouping() } else { Flags::NONE };
        if alignment < 0 {
            flags = flags.with_minus();
        }
        let width =
            u16::try_from(alignment.unsigned_abs()).map_err(|_| FormatError::new(open, "alignment is too large"))?;
        let width = if width == 0 { Count::None } else { Count::Fixed(width) };
        let spec = Spec { verb, flags, width, precision };
        let kind = std_family::kind(verb, Dialect::CSharp);
        if hole.bytes().all(|b| b.is_ascii_digit()) && !hole.is_empty() {
            let arg = hole.parse().map_err(|_| FormatError::new(open + 1, "argument index is too large"))?;
            builder.value(arg, None, spec, kind);
        } else {
            let name = expression_name(hole);
            builder.value(keys.arg(hole, open + 1)?, name.as_deref(), spec, kind);
        }
        Ok(j + 1)
    })
}

/// The verb, precision and grouping of a standard numeric format string
/// (`N2` → `f`, 2, grouped); anything else is text.
fn standard_format(text: &str) -> (char, Count, bool) {
    let mut chars = text.chars();
    let letter = chars.next();
    let digits = chars.as_str();
    let precision = match digits {
        "" => Some(Count::None),
        d if d.len() <= 2 && d.bytes().all(|b| b.is_ascii_digit()) => d.parse().ok().map(Count::Fixed),
        _ => None,
    };
    match (letter, precision) {
        (Some('D' | 'd'), Some(p)) => ('d', p, false),
        (Some(c @ ('X' | 'x')), Some(p)) => (c, p, false),
        (Some('F' | 'f'), Some(p)) => ('f', p, false),
        (Some('N' | 'n'), Some(p)) => ('f', p, true),
        (Some(c @ ('E' | 'e')), Some(p)) => (c, p, false),
        _ => ('s', Count::None, false),
    }
}
