//! Python's `repr()` and `ascii()` of a `str` (what `%r` and `%a` write),
//! and reading such a literal back.

use std::fmt::Write;

use super::quote::is_print;

/// `repr(s)` (`ascii(s)` when `ascii_only`): single quotes unless `s` holds
/// a `'` and no `"`; `\\`, the quote, `\t \n \r` escaped; other characters
/// that are not printable (Python's `str.isprintable`, as
/// [`is_print`] reads it), and with `ascii_only` every non-ASCII one, as `\xNN`,
/// `\uNNNN` or `\UNNNNNNNN`.
pub(super) fn repr(s: &str, ascii_only: bool) -> String {
    let quote = if s.contains('\'') && !s.contains('"') { '"' } else { '\'' };
    let mut out = String::with_capacity(s.len() + 2);
    out.push(quote);
    for c in s.chars() {
        let code = u32::from(c);
        match c {
            '\\' => out.push_str("\\\\"),
            _ if c == quote => {
                out.push('\\');
                out.push(c);
            }
            '\t' => out.push_str("\\t"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            _ if c.is_ascii() && (c < ' ' || c == '\x7f') => {
                let _ = write!(out, "\\x{code:02x}");
            }
            _ if c.is_ascii() || (!ascii_only && is_print(c)) => out.push(c),
            _ if code <= 0xff => {
                let _ = write!(out, "\\x{code:02x}");
            }
            _ if code <= 0xffff => {
                let _ = write!(out, "\\u{code:04x}");
            }
            _ => {
                let _ = write!(out, "\\U{code:08x}");
            }
        }
    }
    out.push(quote);
    out
}

/// Reads a Python string literal as [`repr`] writes it (and the other
/// escapes of a literal: `\a \b \f \v \' \"`, octal): `None` when `s` is not one.
pub(super) fn unrepr(s: &str) -> Option<String> {
    let quote = s.chars().next().filter(|&c| c == '\'' || c == '"')?;
    let inner = s.strip_prefix(quote)?.strip_suffix(quote)?;
    let mut out = String::with_capacity(inner.len());
    let mut chars = inner.chars();
    while let Some(c) = chars.next() {
        if c == quote || c == '\n' {
            return None;
        }
        if c != '\\' {
            out.push(c);
            continue;
        }
        let escape = chars.next()?;
        let simple = match escape {
            '\\' | '\'' | '"' => Some(escape),
            't' => Some('\t'),
            'n' => Some('\n'),
            'r' => Some('\r'),
            'a' => Some('\x07'),
            'b' => Some('\x08'),
            'f' => Some('\x0c'),
            'v' => Some('\x0b'),
            _ => None,
        };
        if let Some(c) = simple {
            out.push(c);
            continue;
        }
        let len = match escape {
            'x' => 2,
            'u' => 4,
            'U' => 8,
            '0'..='7' => {
                let mut code = escape.to_digit(8)?;
                for _ in 0..2 {
                    match chars.clone().next().and_then(|c| c.to_digit(8)) {
                        Some(d) => {
                            code = code * 8 + d;
                            chars.next();
                        }
                        None => break,
                    }
                }
                out.push(char::from_u32(code)?);
                continue;
            }
            _ => return None,
        };
        let digits: String = chars.by_ref().take(len).collect();
        if digits.len() != len || !digits.bytes().all(|b| b.is_ascii_hexdigit()) {
            return None;
        }
        out.push(char::from_u32(u32::from_str_radix(&digits, 16).ok()?)?);
    }
    Some(out)
}

/// Python's `repr()` of a float: the shortest digits that read back,
/// positional for exponents -4 to 15 (with `.0` when whole), else
/// `1e+16`-style; `nan`, `inf`, `-inf`.
pub(super) fn float_repr(v: f64) -> String {
    if v.is_nan() {
        return "nan".to_owned();
    }
    if v.is_infinite() {
        return if v > 0.0 { "inf" } else { "-inf" }.to_owned();
    }
    let sci = format!("{:e}", v.abs());
    let (mantissa, exp) = sci.split_once('e').unwrap_or((&sci, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    let digits: String = mantissa.chars().filter(char::is_ascii_digit).collect();
    let sign = if v.is_sign_negative() { "-" } else { "" };
    let decpt = exp + 1;
    if !(-3..=16).contains(&decpt) {
        let rest = &digits[1..];
        let dot = if rest.is_empty() { String::new() } else { format!(".{rest}") };
        return format!("{sign}{}{dot}e{}{:02}", &digits[..1], if exp < 0 { '-' } else { '+' }, exp.unsigned_abs());
    }
    let body = if decpt <= 0 {
        format!("0.{}{digits}", "0".repeat(decpt.unsigned_abs() as usize))
    } else {
        let point = decpt as usize;
        if digits.len() <= point {
            format!("{digits}{}.0", "0".repeat(point - digits.len()))
        } else {
            format!("{}.{}", &digits[..point], &digits[point..])
        }
    };
    format!("{sign}{body}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn repr_like_python() {
        let cases = [
            ("abc", "'abc'", "'abc'"),
            ("it's", "\"it's\"", "\"it's\""),
            ("both ' and \"", r#"'both \' and "'"#, r#"'both \' and "'"#),
            ("a\\b\t\n\r\x00\x7f", r"'a\\b\t\n\r\x00\x7f'", r"'a\\b\t\n\r\x00\x7f'"),
            ("é日😀", "'é日😀'", r"'\xe9\u65e5\U0001f600'"),
            ("\u{85}\u{ad}\u{2028}", r"'\x85\xad\u2028'", r"'\x85\xad\u2028'"),
        ];
        for (text, repr_form, ascii_form) in cases {
            assert_eq!(repr(text, false), repr_form);
            assert_eq!(repr(text, true), ascii_form);
            assert_eq!(unrepr(repr_form).as_deref(), Some(text));
            assert_eq!(unrepr(ascii_form).as_deref(), Some(text));
        }
        assert_eq!(unrepr("'a'b'"), None);
        assert_eq!(unrepr("abc"), None);
        assert_eq!(unrepr(r"'\q'"), None);
    }

    #[test]
    fn float_repr_like_python() {
        let cases = [
            (0.0, "0.0"),
            (-0.0, "-0.0"),
            (1.5, "1.5"),
            (1e16, "1e+16"),
            (1e15, "1000000000000000.0"),
            (1e-5, "1e-05"),
            (0.0001, "0.0001"),
            (1.5e-7, "1.5e-07"),
            (123456.789, "123456.789"),
            (5e-324, "5e-324"),
            (f64::MAX, "1.7976931348623157e+308"),
        ];
        for (v, text) in cases {
            assert_eq!(float_repr(v), text);
        }
    }
}
