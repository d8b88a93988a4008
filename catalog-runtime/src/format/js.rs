//! JavaScript: Node's `util.format` (`%s %d %i %f %j %o %O %c %%`) and
//! template literals (`${expr}`).

use super::brace::{expression_name, scan_expression, Keys};
use super::template::Builder;
use super::{std_family, Count, Dialect, Flags, FormatError, Spec, Template};

/// Compiles a `util.format` string. Each conversion takes the next argument;
/// `%c` takes one and writes nothing (CSS styling in browsers); `%` before
/// any other character, or at the end, is literal. A message without any
/// conversion is all literal, `%%` included: Node's `E()` errors and
/// `util.format` with a single argument use such a message as is.
pub(super) fn compile_format(format: &str) -> Result<Template, FormatError> {
    let conversions = format.split('%').skip(1).any(|rest| rest.starts_with(['s', 'd', 'i', 'f', 'j', 'o', 'O', 'c']));
    let mut builder = Builder::new(Dialect::JsFormat);
    if !conversions {
        builder.literal(format);
        return Ok(builder.finish());
    }
    let mut arg = 0u16;
    let (mut i, mut literal_start) = (0, 0);
    let bytes = format.as_bytes();
    while i < bytes.len() {
        if bytes[i] != b'%' {
            i += 1;
            continue;
        }
        let verb = bytes.get(i + 1).copied();
        match verb {
            Some(b'%') => {
                builder.literal(&format[literal_start..=i]);
            }
            Some(c @ (b's' | b'd' | b'i' | b'f' | b'j' | b'o' | b'O' | b'c')) => {
                builder.literal(&format[literal_start..i]);
                if c != b'c' {
                    let verb = char::from(c);
                    let spec = Spec { verb, flags: Flags::NONE, width: Count::None, precision: Count::None };
                    builder.value(arg, None, spec, std_family::kind(verb, Dialect::JsFormat));
                }
                arg = arg.checked_add(1).ok_or_else(|| FormatError::new(i, "too many arguments"))?;
            }
            _ => {
                i += 1;
                continue;
            }
        }
        i += 2;
        literal_start = i;
    }
    builder.literal(&format[literal_start..]);
    Ok(builder.finish())
}

/// Compiles a template literal's text: each `${expr}` is a text field named
/// after its expression (`${user.name}` → `user_name`), one per distinct
/// expression. Braces, strings and nested template literals inside the
/// expression are skipped over.
pub(super) fn compile_template(text: &str) -> Result<Template, FormatError> {
    let mut builder = Builder::new(Dialect::JsTemplate);
    let mut keys = Keys::default();
    let (mut i, mut literal_start) = (0, 0);
    while let Some(n) = text[i..].find("${") {
        let open = i + n;
        if text[..open].ends_with('\\') && !text[..open].ends_with("\\\\") {
            i = open + 2; // `\${` is literal text
            continue;
        }
        builder.literal(&text[literal_start..open]);
        let close = scan_expression(text, open + 2, open, "`${` substitution", |t, j| t.as_bytes()[j] == b'}')?;
        let expr = text[open + 2..close].trim();
        let spec = Spec { verb: 's', flags: Flags::NONE, width: Count::None, precision: Count::None };
        let name = expression_name(expr);
        builder.value(keys.arg(expr, open)?, name.as_deref(), spec, super::ValueKind::Text);
        i = close + 1;
        literal_start = i;
    }
    builder.literal(&text[literal_start..]);
    Ok(builder.finish())
}
