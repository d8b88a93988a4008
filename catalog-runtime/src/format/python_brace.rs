//! Python `str.format` strings and f-string bodies: `{}`, `{0}`, `{name}`,
//! `{0.attr}`, `{0[key]}`, `{expr}`, conversions `!r !s !a`, the format-spec
//! mini-language (`{:>10}`, `{:.2f}`, `{:,d}`), self-documenting `{expr=}`,
//! and `{{`/`}}`.

use super::brace::{compile_holes, expression_name, scan_expression, Keys};
use super::std_spec::{self, SpecLanguage};
use super::template::Builder;
use super::{Dialect, FormatError, Template};

/// Compiles a `str.format` string or an f-string's body. A field is a
/// positional argument (`{}` numbered automatically, `{0}`), or else named
/// after its key or expression (`{self.model.__name__}` → `model_name`),
/// one field per distinct expression.
pub(super) fn compile(format: &str) -> Result<Template, FormatError> {
    let mut fields = Fields { keys: Keys::default(), next_auto: 0 };
    compile_holes(
        format,
        Dialect::PythonBrace,
        "single `}` in a format string (write `}}`)",
        |format, open, builder| fields.field(format, open, builder),
    )
}

struct Fields {
    keys: Keys,
    next_auto: usize,
}

impl Fields {
    /// Parses the replacement field opening at `open`; returns the position
    /// after its `}`.
    fn field(&mut self, format: &str, open: usize, builder: &mut Builder) -> Result<usize, FormatError> {
        let bytes = format.as_bytes();
        let self_documenting = |text: &str, i: usize| {
            let b = text.as_bytes();
            let next_ok = b.get(i + 1) != Some(&b'=');
            let prev_ok = i == 0 || !matches!(b[i - 1], b'=' | b'!' | b'<' | b'>');
            let after = text[i + 1..].trim_start();
            next_ok && prev_ok && (after.starts_with('}') || after.starts_with('!') || after.starts_with(':'))
        };
        let stop = |text: &str, i: usize| match text.as_bytes()[i] {
            b'}' | b':' => true,
            b'!' => text.as_bytes().get(i + 1) != Some(&b'='),
            b'=' => self_documenting(text, i),
            _ => false,
        };
        let end = scan_expression(format, open + 1, open, "replacement field", stop)?;
        let expr = &format[open + 1..end];
        let mut i = end;
        let mut conversion = None;
        if bytes[i] == b'=' {
            // `{expr=}` writes the expression's text, `=` and the spaces around
            // it, then the value (its `repr` unless a conversion or spec says).
            let spaces = format[i + 1..].len() - format[i + 1..].trim_start().len();
            builder.literal(&format[open + 1..=i + spaces]);
            i += 1 + spaces;
            if !matches!(bytes.get(i), Some(b'!' | b':')) {
                conversion = Some('r');
            }
        }
        if bytes.get(i) == Some(&b'!') {
            conversion = match format[i + 1..].chars().next() {
                Some(c @ ('r' | 's' | 'a')) => Some(c),
                _ => return Err(FormatError::new(i, "expected a conversion `!r`, `!s` or `!a`")),
            };
            i += 2;
        }
        let spec_text = if bytes.get(i) == Some(&b':') {
            let start = i + 1;
            let mut depth = 0usize;
            let close = format[start..].char_indices().find_map(|(n, c)| match c {
                '{' => (depth += 1, None).1,
                '}' if depth == 0 => Some(start + n),
                '}' => (depth -= 1, None).1,
                _ => None,
            });
            let close = close.ok_or_else(|| FormatError::new(open, "unterminated replacement field: missing `}`"))?;
            i = close;
            Some((start, &format[start..close]))
        } else {
            None
        };
        if bytes.get(i) != Some(&b'}') {
            return Err(FormatError::new(i, "expected `}` to end the replacement field"));
        }
        let (spec_at, spec_text) = spec_text.unwrap_or((i, ""));
        let parsed = std_spec::parse(spec_text, spec_at, SpecLanguage::Python, conversion)?;
        let (arg, name) = self.argument(expr.trim(), open)?;
        builder.value(arg, name.as_deref(), parsed.spec, parsed.kind);
        Ok(i + 1)
    }

    /// The argument index and name of field `expr`.
    fn argument(&mut self, expr: &str, open: usize) -> Result<(u16, Option<String>), FormatError> {
        let too_many = || FormatError::new(open, "too many arguments");
        if expr.is_empty() {
            let arg = u16::try_from(self.next_auto).map_err(|_| too_many())?;
            self.next_auto += 1;
            return Ok((arg, None));
        }
        let digits = expr.len() - expr.trim_start_matches(|c: char| c.is_ascii_digit()).len();
        if digits == expr.len() {
            let arg = expr.parse::<u16>().map_err(|_| too_many())?;
            return Ok((arg, None));
        }
        // `{0.attr}`, `{0[key]}`: named after the attribute or key; other
        // keys and expressions after themselves.
        let name = expression_name(&expr[digits..]);
        Ok((self.keys.arg(expr, open)?, name))
    }
}
