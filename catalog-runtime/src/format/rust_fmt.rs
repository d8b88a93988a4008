//! Rust `format!` strings (`format!`, `anyhow!`, `bail!`, thiserror's
//! `#[error]`): `{}`, `{0}`, `{name}` (a named argument or an inline
//! capture), `{:?}`/`{:#?}`, fill/align, sign, `#`, `0`, width and precision
//! (`N$`, `name$`, `.*`), and `{{`/`}}`.

use super::brace::{compile_holes, Keys};
use super::std_spec::{self, SpecLanguage};
use super::{Dialect, FormatError, Template};

/// Compiles a Rust format string. `{}` takes the next positional argument
/// (`.*` takes one more before it, for the precision); `{name}` is named
/// `name`, one field per distinct name.
pub(super) fn compile(format: &str) -> Result<Template, FormatError> {
    let mut keys = Keys::default();
    let mut next_positional = 0usize;
    compile_holes(format, Dialect::Rust, "unmatched `}` in a format string (write `}}`)", |format, open, builder| {
        let close = format[open..]
            .find('}')
            .map(|n| open + n)
            .ok_or_else(|| FormatError::new(open, "unterminated placeholder: missing `}`"))?;
        let inside = &format[open + 1..close];
        let (argument, spec_text, spec_at) = match inside.find(':') {
            Some(colon) => (&inside[..colon], &inside[colon + 1..], open + 2 + colon),
            None => (inside, "", close),
        };
        let parsed = std_spec::parse(spec_text, spec_at, SpecLanguage::Rust, None)?;
        let mut take_positional = || {
            next_positional += 1;
            u16::try_from(next_positional - 1).map_err(|_| FormatError::new(open, "too many arguments"))
        };
        if parsed.precision_argument {
            take_positional()?;
        }
        let (arg, name) = if argument.is_empty() {
            (take_positional()?, None)
        } else if argument.bytes().all(|b| b.is_ascii_digit()) {
            (argument.parse().map_err(|_| FormatError::new(open + 1, "argument index is too large"))?, None)
        } else if is_identifier(argument) {
            (keys.arg(argument, open + 1)?, Some(argument.trim_start_matches("r#")))
        } else {
            return Err(FormatError::new(open + 1, format!("invalid argument name {argument:?}")));
        };
        builder.value(arg, name, parsed.spec, parsed.kind);
        Ok(close + 1)
    })
}

/// A Rust identifier (or raw identifier `r#type`).
fn is_identifier(text: &str) -> bool {
    let text = text.strip_prefix("r#").unwrap_or(text);
    let mut chars = text.chars();
    chars.next().is_some_and(|c| c.is_alphabetic() || c == '_') && chars.all(|c| c.is_alphanumeric() || c == '_')
}
