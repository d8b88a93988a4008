//! Java: `java.util.Formatter` (`String.format`), SLF4J / Log4j `{}`
//! patterns, and `java.text.MessageFormat`.

use super::std_family;
use super::template::Builder;
use super::{Count, Dialect, Flags, FormatError, Spec, Template, ValueKind};

/// Compiles a `String.format` string: `%[index$][flags][width][.precision]conversion`.
/// `%n` is a line break (`\n`, as on Linux), `%%` a percent sign; `%1$s`
/// names the argument, `%<s` repeats the previous one; date conversions
/// (`%tY`) are text. The `(` flag is refused.
pub(super) fn compile_format(format: &str) -> Result<Template, FormatError> {
    let mut builder = Builder::new(Dialect::JavaFormat);
    let (mut ordinary, mut previous): (u16, Option<u16>) = (0, None);
    let bytes = format.as_bytes();
    let (mut i, mut literal_start) = (0, 0);
    while i < bytes.len() {
        if bytes[i] != b'%' {
            i += 1;
            continue;
        }
        builder.literal(&format[literal_start..i]);
        let percent = i;
        i += 1;
        // `%2$s`: an explicit argument index, or `%<s`: the previous one.
        let digits = format[i..].bytes().take_while(u8::is_ascii_digit).count();
        let mut explicit = None;
        if digits > 0 && bytes.get(i + digits) == Some(&b'$') {
            let n: u16 = format[i..i + digits]
                .parse()
                .ok()
                .filter(|&n| n > 0)
                .ok_or_else(|| FormatError::new(i, "bad argument index"))?;
            explicit = Some(n - 1);
            i += digits + 1;
        } else if bytes.get(i) == Some(&b'<') {
            explicit = Some(previous.ok_or_else(|| FormatError::new(i, "`%<` without a previous argument"))?);
            i += 1;
        }
        let mut flags = Flags::NONE;
        while let Some(&c) = bytes.get(i) {
            flags = match (c, flags.with_printf_flag(c)) {
                (_, Some(with)) => with,
                (b',', None) => flags.with_grouping(),
                (b'(', None) => return Err(FormatError::new(i, "the `(` flag is not supported")),
                _ => break,
            };
            i += 1;
        }
        let width = number(format, &mut i)?.map_or(Count::None, Count::Fixed);
        let precision = if bytes.get(i) == Some(&b'.') {
            i += 1;
            Count::Fixed(number(format, &mut i)?.ok_or_else(|| FormatError::new(i, "missing precision after `.`"))?)
        } else {
            Count::None
        };
        let Some(conversion) = format[i..].chars().next() else {
            return Err(FormatError::new(percent, "missing conversion at the end of the format"));
        };
        i += conversion.len_utf8();
        let verb = match conversion {
            'n' => {
                builder.literal("\n");
                literal_start = i;
                continue;
            }
            '%' => {
                builder.literal("%");
                literal_start = i;
                continue;
            }
            't' | 'T' => {
                let Some(suffix) = format[i..].chars().next() else {
                    return Err(FormatError::new(percent, "missing date conversion after `%t`"));
                };
                i += suffix.len_utf8();
                's'
            }
            'b' | 'B' | 'h' | 'H' | 's' | 'S' | 'c' | 'C' | 'd' | 'o' | 'x' | 'X' | 'e' | 'E' | 'f' | 'g' | 'G'
            | 'a' | 'A' => conversion,
            other => return Err(FormatError::new(i - other.len_utf8(), format!("unknown conversion {other:?}"))),
        };
        let verb = match verb {
            'C' => 'c',
            'H' => 'h',
            'A' => 'a',
            verb => verb,
        };
        let arg = match explicit {
            Some(arg) => arg,
            None => {
                ordinary = ordinary.checked_add(1).ok_or_else(|| FormatError::new(percent, "too many arguments"))?;
                ordinary - 1
            }
        };
        previous = Some(arg);
        let kind = std_family::kind(verb, Dialect::JavaFormat);
        let spec = Spec { verb, flags, width, precision };
        builder.value(arg, None, spec, kind);
        literal_start = i;
    }
    builder.literal(&format[literal_start..]);
    Ok(builder.finish())
}

/// A decimal number at `*i`, if there is one.
fn number(format: &str, i: &mut usize) -> Result<Option<u16>, FormatError> {
    let digits = format[*i..].bytes().take_while(u8::is_ascii_digit).count();
    if digits == 0 {
        return Ok(None);
    }
    let text = &format[*i..*i + digits];
    let n = text.parse().map_err(|_| FormatError::new(*i, format!("width or precision {text} is too large")))?;
    *i += digits;
    Ok(Some(n))
}

/// Compiles an SLF4J / Log4j message pattern: each `{}` takes the next
/// argument (as `String.valueOf` writes it); `\{}` is a literal `{}` and
/// `\\{}` a backslash before a placeholder. A trailing throwable argument
/// has no placeholder and is not part of the message.
pub(super) fn compile_slf4j(pattern: &str) -> Result<Template, FormatError> {
    let mut builder = Builder::new(Dialect::Slf4j);
    let mut arg = 0u16;
    let (mut i, mut literal_start) = (0, 0);
    while let Some(n) = pattern[i..].find("{}") {
        let at = i + n;
        let before = &pattern[..at];
        if before.ends_with('\\') && !before.ends_with("\\\\") {
            builder.literal(&pattern[literal_start..at - 1]);
            builder.literal("{}");
        } else {
            let end = if before.ends_with("\\\\") { at - 1 } else { at };
            builder.literal(&pattern[literal_start..end]);
            let spec = Spec { verb: 's', flags: Flags::NONE, width: Count::None, precision: Count::None };
            builder.value(arg, None, spec, ValueKind::Text);
            arg = arg.checked_add(1).ok_or_else(|| FormatError::new(at, "too many arguments"))?;
        }
        i = at + 2;
        literal_start = i;
    }
    builder.literal(&pattern[literal_start..]);
    Ok(builder.finish())
}

/// Compiles a `MessageFormat` pattern: `{0}` (text), `{0,number}` and
/// `{0,number,integer}` (integers with grouping), `{0,number,#}` and other
/// integer patterns (grouped when they contain `,`), other types and styles
/// as text; `'...'` quotes literal text and `''` is a quote.
pub(super) fn compile_message_format(pattern: &str) -> Result<Template, FormatError> {
    let mut builder = Builder::new(Dialect::MessageFormat);
    let mut chars = pattern.char_indices().peekable();
    let mut literal = String::new();
    while let Some((at, c)) = chars.next() {
        match c {
            '\'' if chars.peek().is_some_and(|(_, c)| *c == '\'') => {
                chars.next();
                literal.push('\'');
            }
            '\'' => loop {
                match chars.next() {
                    Some((_, '\'')) if chars.peek().is_some_and(|(_, c)| *c == '\'') => {
                        chars.next();
                        literal.push('\'');
                    }
                    Some((_, '\'')) | None => break,
                    Some((_, c)) => literal.push(c),
                }
            },
            '{' => {
                builder.literal(&std::mem::take(&mut literal));
                let mut depth = 0usize;
                let mut inside = String::new();
                loop {
                    match chars.next() {
                        Some((_, '{')) => (depth += 1, inside.push('{')).1,
                        Some((_, '}')) if depth == 0 => break,
                        Some((_, '}')) => (depth -= 1, inside.push('}')).1,
                        Some((_, c)) => inside.push(c),
                        None => return Err(FormatError::new(at, "unterminated argument: missing `}`")),
                    }
                }
                let mut parts = inside.splitn(3, ',').map(str::trim);
                let index = parts.next().unwrap_or_default();
                let arg: u16 = index
                    .parse()
                    .map_err(|_| FormatError::new(at + 1, format!("argument index {index:?} is not a number")))?;
                let (verb, flags) = match (parts.next(), parts.next()) {
                    (Some("number"), None | Some("integer")) => ('d', Flags::NONE.with_grouping()),
                    (Some("number"), Some(style)) if !style.is_empty() && style.chars().all(|c| "#0,".contains(c)) => {
                        ('d', if style.contains(',') { Flags::NONE.with_grouping() } else { Flags::NONE })
                    }
                    _ => ('s', Flags::NONE),
                };
                let spec = Spec { verb, flags, width: Count::None, precision: Count::None };
                builder.value(arg, None, spec, std_family::kind(verb, Dialect::MessageFormat));
            }
            c => literal.push(c),
        }
    }
    builder.literal(&literal);
    Ok(builder.finish())
}
