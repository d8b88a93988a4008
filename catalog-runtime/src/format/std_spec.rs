//! The format-spec mini-language after the `:` of a Python `str.format` /
//! f-string field or a Rust `format!` placeholder:
//! `[[fill]align][sign][#][0][width][,][.precision][type]` (Python also `z`
//! and `=`; Rust also `name$`/`N$` widths and precisions and `.*`).

use super::std_family;
use super::{Count, Dialect, Flags, FormatError, Spec, ValueKind};

/// Which language's mini-language.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum SpecLanguage {
    Python,
    Rust,
}

/// A parsed spec.
pub(super) struct ParsedSpec {
    pub(super) spec: Spec,
    pub(super) kind: ValueKind,
    /// Rust's `.*`: the precision is the next positional argument, taken
    /// before the value's.
    pub(super) precision_argument: bool,
}

/// Parses `text` (after the `:`; `at` is its offset in the message).
/// `conversion` is Python's `!r`/`!s`/`!a`, which makes the field text.
pub(super) fn parse(
    text: &str,
    at: usize,
    language: SpecLanguage,
    conversion: Option<char>,
) -> Result<ParsedSpec, FormatError> {
    let python = language == SpecLanguage::Python;
    let dialect = if python { Dialect::PythonBrace } else { Dialect::Rust };
    let chars: Vec<(usize, char)> = text.char_indices().collect();
    let mut i = 0;
    let error = |i: usize, message: String| {
        let offset = chars.get(i).map_or(text.len(), |(n, _)| *n);
        FormatError::new(at + offset, message)
    };
    let is_align = |c: char| matches!(c, '<' | '>' | '^') || (python && c == '=');
    let mut flags = Flags::NONE;
    let mut align = None;
    match (chars.first(), chars.get(1)) {
        (Some(&(_, fill)), Some(&(_, a))) if is_align(a) => {
            match (fill, a) {
                (' ', _) => {}
                ('0', '=') => flags = flags.with_zero(),
                _ => return Err(error(0, format!("fill character {fill:?} is not supported (only spaces and zeros)"))),
            }
            align = Some(a);
            i = 2;
        }
        (Some(&(_, a)), _) if is_align(a) => {
            align = Some(a);
            i = 1;
        }
        _ => {}
    }
    let peek = |i: usize| chars.get(i).map(|(_, c)| *c);
    match peek(i) {
        Some('+') => (flags = flags.with_plus(), i += 1).1,
        Some('-') => i += 1,
        Some(' ') if python => (flags = flags.with_space(), i += 1).1,
        _ => {}
    }
    if python && peek(i) == Some('z') {
        i += 1;
    }
    if peek(i) == Some('#') {
        flags = flags.with_alt();
        i += 1;
    }
    if peek(i) == Some('0') && peek(i + 1).is_none_or(|c| c != '$') {
        flags = flags.with_zero();
        i += 1;
    }
    let (width, _) = count(&chars, &mut i, language, at, text)?;
    if python && matches!(peek(i), Some(',')) {
        flags = flags.with_grouping();
        i += 1;
    } else if python && peek(i) == Some('_') {
        return Err(error(i, "the `_` digit separator is not supported".to_owned()));
    }
    let mut precision = Count::None;
    let mut precision_argument = false;
    if peek(i) == Some('.') {
        i += 1;
        if !python && peek(i) == Some('*') {
            i += 1;
            precision = Count::Star;
            precision_argument = true;
        } else {
            let (p, given) = count(&chars, &mut i, language, at, text)?;
            if !given {
                return Err(error(i, "missing precision after `.`".to_owned()));
            }
            precision = p;
        }
    }
    let rest: String = chars[i..].iter().map(|(_, c)| c).collect();
    // Zero padding without a type is for numbers (`{:05}`): an integer,
    // or with a precision a float.
    let zero_padded = flags.zero() && conversion.is_none();
    let verb = match (language, rest.as_str()) {
        (SpecLanguage::Python | SpecLanguage::Rust, "") if zero_padded && precision != Count::None => 'f',
        (SpecLanguage::Python | SpecLanguage::Rust, "") if zero_padded => 'd',
        (SpecLanguage::Python, "") => 's',
        (SpecLanguage::Python, "n") => 's',
        (SpecLanguage::Python, t) if t.len() == 1 && "bcdeEfFgGosxX%".contains(t) => t.chars().next().unwrap_or('s'),
        (SpecLanguage::Rust, "") if precision != Count::None => 'f',
        (SpecLanguage::Rust, "") => 's',
        (SpecLanguage::Rust, "?" | "x?" | "X?") => '?',
        (SpecLanguage::Rust, t) if t.len() == 1 && "xXobeE".contains(t) => t.chars().next().unwrap_or('s'),
        _ => return Err(error(i, format!("unknown format type {rest:?}"))),
    };
    let verb = match conversion {
        Some(conversion) if verb == 's' => conversion,
        Some(_) => return Err(error(i, format!("format type {rest:?} after a conversion to text"))),
        None => verb,
    };
    let kind = std_family::kind(verb, dialect);
    if kind == ValueKind::Text && flags.zero() {
        return Err(error(0, "zero padding of a text field is not supported".to_owned()));
    }
    match align {
        Some('<') => flags = flags.with_minus(),
        Some('^') => flags = flags.with_center(),
        Some(_) => {}
        // Text is left-aligned by default, numbers right-aligned.
        None if kind == ValueKind::Text => flags = flags.with_minus(),
        None => {}
    }
    if align.is_some_and(|a| a != '=') && kind != ValueKind::Text {
        flags = flags.without_zero(); // an explicit alignment pads with the fill
    }
    Ok(ParsedSpec { spec: Spec { verb, flags, width, precision }, kind, precision_argument })
}

/// A width or precision: digits, Rust's `N$`/`name$`, or Python's nested
/// `{...}` (both given by an argument: [`Count::Star`]). Also says whether
/// one was there.
fn count(
    chars: &[(usize, char)],
    i: &mut usize,
    language: SpecLanguage,
    at: usize,
    text: &str,
) -> Result<(Count, bool), FormatError> {
    let start = *i;
    let offset = |i: usize| at + chars.get(i).map_or(text.len(), |(n, _)| *n);
    if language == SpecLanguage::Python && chars.get(*i).is_some_and(|(_, c)| *c == '{') {
        let close = chars[*i..].iter().position(|(_, c)| *c == '}');
        let Some(close) = close else {
            return Err(FormatError::new(offset(start), "unterminated nested field: missing `}`"));
        };
        *i += close + 1;
        return Ok((Count::Star, true));
    }
    let mut end = *i;
    while chars.get(end).is_some_and(|(_, c)| c.is_ascii_alphanumeric() || *c == '_') {
        end += 1;
    }
    if language == SpecLanguage::Rust && end > start && chars.get(end).is_some_and(|(_, c)| *c == '$') {
        *i = end + 1;
        return Ok((Count::Star, true));
    }
    let mut digits_end = start;
    while chars.get(digits_end).is_some_and(|(_, c)| c.is_ascii_digit()) {
        digits_end += 1;
    }
    if digits_end == start {
        return Ok((Count::None, false));
    }
    *i = digits_end;
    let digits: String = chars[start..digits_end].iter().map(|(_, c)| c).collect();
    let n = digits
        .parse()
        .map_err(|_| FormatError::new(offset(start), format!("width or precision {digits} is too large")))?;
    Ok((Count::Fixed(n), true))
}
