//! What the brace dialects (Python `str.format` and f-strings, Rust, C#,
//! MessageFormat, JavaScript template literals) share: scanning an
//! expression inside `{...}`, naming a field after it, and numbering fields
//! that are not positional arguments.

use super::template::Builder;
use super::{Dialect, FormatError, Template};

/// Compiles a brace format string in `dialect`: literal text with `{{` and
/// `}}` escapes, and holes, each read by `hole(format, open, builder)` from
/// its `{` at `open` to the position after its `}`. A lone `}` is an error
/// (`unmatched`, the dialect's words for it).
pub(super) fn compile_holes(
    format: &str,
    dialect: Dialect,
    unmatched: &str,
    mut hole: impl FnMut(&str, usize, &mut Builder) -> Result<usize, FormatError>,
) -> Result<Template, FormatError> {
    let mut builder = Builder::new(dialect);
    let bytes = format.as_bytes();
    let (mut i, mut literal_start) = (0, 0);
    while i < bytes.len() {
        match bytes[i] {
            b'{' | b'}' if bytes.get(i + 1) == Some(&bytes[i]) => {
                builder.literal(&format[literal_start..=i]);
                i += 2;
                literal_start = i;
            }
            b'}' => return Err(FormatError::new(i, unmatched)),
            b'{' => {
                builder.literal(&format[literal_start..i]);
                i = hole(format, i, &mut builder)?;
                literal_start = i;
            }
            _ => i += 1,
        }
    }
    builder.literal(&format[literal_start..]);
    Ok(builder.finish())
}

/// Fields named by a key or an expression (`{name}`, `{self.model}`) rather
/// than by a positional argument get argument indexes from here on, in order
/// of first use: one field per distinct key, never mixed up with positional
/// arguments (a message has far fewer than this many).
pub(super) const NAMED_ARG_BASE: u16 = 0x4000;

/// The distinct keys of a message, in order of first use.
#[derive(Default)]
pub(super) struct Keys(Vec<String>);

impl Keys {
    /// The argument index of the field named `key`.
    pub(super) fn arg(&mut self, key: &str, at: usize) -> Result<u16, FormatError> {
        let rank = self.0.iter().position(|k| k == key).unwrap_or_else(|| {
            self.0.push(key.to_owned());
            self.0.len() - 1
        });
        u16::try_from(rank)
            .ok()
            .and_then(|rank| NAMED_ARG_BASE.checked_add(rank))
            .ok_or_else(|| FormatError::new(at, "too many distinct fields"))
    }
}

/// Scans an expression from byte `start` to the first top-level byte
/// position where `stop` holds (outside brackets and string literals), and
/// returns that position. `what` names the construct in the error for an
/// unterminated one, reported at `open`.
pub(super) fn scan_expression(
    text: &str,
    start: usize,
    open: usize,
    what: &str,
    stop: impl Fn(&str, usize) -> bool,
) -> Result<usize, FormatError> {
    let bytes = text.as_bytes();
    let mut depth = 0usize;
    let mut i = start;
    while i < bytes.len() {
        let c = bytes[i];
        if depth == 0 && stop(text, i) {
            return Ok(i);
        }
        match c {
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' => depth = depth.saturating_sub(1),
            b'"' | b'\'' | b'`' => {
                let end = bytes[i + 1..].iter().position(|&b| b == c).map(|n| i + 1 + n);
                match end {
                    Some(end) => i = end,
                    None => return Err(FormatError::new(open, format!("unterminated string in {what}"))),
                }
            }
            _ => {}
        }
        i += 1;
    }
    Err(FormatError::new(open, format!("unterminated {what}: missing `}}`")))
}

/// A field name made from an expression: its identifiers, without a leading
/// `self`, `this` or `cls` and without the underscores of dunder names, the
/// last four joined by `_` (`self.model.__name__` → `model_name`,
/// `user.name` → `user_name`). `None` when it has no identifier.
pub(super) fn expression_name(expr: &str) -> Option<String> {
    let mut idents: Vec<&str> = Vec::new();
    let bytes = expr.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i];
        if c == b'"' || c == b'\'' || c == b'`' {
            i = bytes[i + 1..].iter().position(|&b| b == c).map_or(bytes.len(), |n| i + n + 2);
        } else if c.is_ascii_digit() {
            while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_' || bytes[i] == b'.') {
                i += 1;
            }
        } else if c.is_ascii_alphabetic() || c == b'_' || c == b'$' {
            let start = i;
            while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_' || bytes[i] == b'$') {
                i += 1;
            }
            let ident = expr[start..i].trim_matches(['_', '$']);
            if !ident.is_empty() {
                idents.push(ident);
            }
        } else {
            i += 1;
        }
    }
    if idents.len() > 1 && matches!(idents[0], "self" | "this" | "cls") {
        idents.remove(0);
    }
    let keep = idents.len().saturating_sub(4);
    let name = idents[keep..].join("_");
    (!name.is_empty()).then_some(name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_from_expressions() {
        assert_eq!(expression_name("self.model.__name__").as_deref(), Some("model_name"));
        assert_eq!(expression_name("user.name").as_deref(), Some("user_name"));
        assert_eq!(expression_name("this[kMaxEventTargetListeners]").as_deref(), Some("kMaxEventTargetListeners"));
        assert_eq!(expression_name("obj['key']").as_deref(), Some("obj"));
        assert_eq!(expression_name("1 + 2"), None);
        assert_eq!(expression_name("self").as_deref(), Some("self"));
    }

    #[test]
    fn expressions_skip_nested_brackets_and_strings() {
        let text = "a{f(x, {y: '}'})}b";
        let end = scan_expression(text, 2, 1, "field", |t, i| t.as_bytes()[i] == b'}').unwrap();
        assert_eq!(&text[2..end], "f(x, {y: '}'})");
        assert!(scan_expression("{f(x", 1, 0, "field", |t, i| t.as_bytes()[i] == b'}').is_err());
    }
}
