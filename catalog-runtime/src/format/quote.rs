//! Go string quoting: `strconv.Quote`, `QuoteToASCII` and `Unquote`.

/// Whether `c` is printable as Go's `strconv.IsPrint` and Python's
/// `str.isprintable` define it (the two agree): a letter, mark, number,
/// punctuation or symbol of the Unicode database, or the ASCII space. Format
/// characters, separators, private-use, surrogate and unassigned code points
/// are not (Go's `%q` of U+0E00 is `'\u0e00'`). The table is the crate's
/// Unicode version; Go and Python releases built on an older one escape the
/// characters assigned since.
pub(super) fn is_print(c: char) -> bool {
    use unicode_general_category::{get_general_category, GeneralCategory as G};
    if c.is_ascii() {
        return (' '..='~').contains(&c);
    }
    !matches!(
        get_general_category(c),
        G::Control
            | G::Format
            | G::Surrogate
            | G::PrivateUse
            | G::Unassigned
            | G::SpaceSeparator
            | G::LineSeparator
            | G::ParagraphSeparator
    )
}

/// Quotes `s` as Go's `strconv.Quote` does (`strconv.QuoteToASCII` when
/// `ascii_only`): a double-quoted Go string literal, with `\a \b \f \n \r \t
/// \v \\ \"`, `\xhh` for other ASCII control characters, and `\uhhhh` or
/// `\Uhhhhhhhh` for other characters that are not printable (or not ASCII).
///
/// Printable is [`is_print`]. [`go_unquote`] gives `s` back.
#[cfg(test)]
pub fn go_quote(s: &str, ascii_only: bool) -> String {
    go_quote_bytes(s.as_bytes(), ascii_only)
}

/// `go_quote` of bytes that need not be UTF-8: as Go's `strconv.Quote`
/// does, each byte that is not part of valid UTF-8 is written `\xNN`.
pub fn go_quote_bytes(bytes: &[u8], ascii_only: bool) -> String {
    use std::fmt::Write;
    let mut out = String::with_capacity(bytes.len() + 2);
    out.push('"');
    for chunk in bytes.utf8_chunks() {
        chunk.valid().chars().for_each(|c| quote_char(&mut out, c, '"', ascii_only));
        chunk.invalid().iter().for_each(|b| {
            let _ = write!(out, "\\x{b:02x}");
        });
    }
    out.push('"');
    out
}

/// Go's `strconv.QuoteRune` (`QuoteRuneToASCII` when `ascii_only`) of a
/// code point; an invalid one is written as U+FFFD, as Go does.
pub fn go_quote_rune(code: u32, ascii_only: bool) -> String {
    let c = char::from_u32(code).unwrap_or('\u{fffd}');
    let mut out = String::from("'");
    quote_char(&mut out, c, '\'', ascii_only);
    out.push('\'');
    out
}

/// One character of a Go string (`quote` `"`) or rune (`'`) literal.
fn quote_char(out: &mut String, c: char, quote: char, ascii_only: bool) {
    use std::fmt::Write;
    match c {
        '\\' => out.push_str("\\\\"),
        _ if c == quote => {
            out.push('\\');
            out.push(c);
        }
        _ if is_print(c) && (c.is_ascii() || !ascii_only) => out.push(c),
        '\x07' => out.push_str("\\a"),
        '\x08' => out.push_str("\\b"),
        '\x0c' => out.push_str("\\f"),
        '\n' => out.push_str("\\n"),
        '\r' => out.push_str("\\r"),
        '\t' => out.push_str("\\t"),
        '\x0b' => out.push_str("\\v"),
        _ if c < ' ' || c == '\x7f' => {
            let _ = write!(out, "\\x{:02x}", u32::from(c));
        }
        _ if u32::from(c) < 0x10000 => {
            let _ = write!(out, "\\u{:04x}", u32::from(c));
        }
        _ => {
            let _ = write!(out, "\\U{:08x}", u32::from(c));
        }
    }
}

/// Whether Go's `%#q` may write `s` as a raw string (`strconv.CanBackquote`).
pub(super) fn can_backquote(s: &str) -> bool {
    s.chars().all(|c| !((c < ' ' && c != '\t') || c == '`' || c == '\x7f' || c == '\u{feff}'))
}

/// Reads a Go string literal: `"..."` with every Go escape (`\a \b \f \n \r
/// \t \v \\ \" \'`, octal `\377`, `\xhh`, `\uhhhh`, `\Uhhhhhhhh`), or a raw
/// `` `...` `` string (carriage returns dropped, as Go does). `None` when `s` is
/// not such a literal or its bytes are not UTF-8. Unlike Go, `\'` is accepted
/// in a double-quoted string.
#[cfg(test)]
pub fn go_unquote(s: &str) -> Option<String> {
    String::from_utf8(go_unquote_bytes(s)?).ok()
}

/// `go_unquote` giving the bytes, which need not be UTF-8 (`"\xc3(ab"`).
pub fn go_unquote_bytes(s: &str) -> Option<Vec<u8>> {
    if let Some(raw) = s.strip_prefix('`').and_then(|s| s.strip_suffix('`')) {
        return (!raw.contains('`')).then(|| raw.replace('\r', "").into_bytes());
    }
    let inner = s.strip_prefix('"')?.strip_suffix('"')?;
    let mut bytes = Vec::with_capacity(inner.len());
    let mut rest = inner;
    while let Some(c) = rest.chars().next() {
        rest = &rest[c.len_utf8()..];
        match c {
            '"' | '\n' => return None,
            '\\' => rest = escape(rest, &mut bytes)?,
            _ => bytes.extend_from_slice(c.encode_utf8(&mut [0; 4]).as_bytes()),
        }
    }
    Some(bytes)
}

/// Reads a Go rune literal (`'x'`, `'\''`, `'\u263a'`, what `%q` writes for
/// an integer): its code point.
pub fn go_unquote_rune(s: &str) -> Option<u32> {
    let inner = s.strip_prefix('\'')?.strip_suffix('\'')?;
    let mut chars = inner.chars();
    let first = chars.next()?;
    if first != '\\' {
        return (chars.next().is_none() && first != '\'' && first != '\n').then_some(u32::from(first));
    }
    let rest = chars.as_str();
    match rest.chars().next()? {
        c @ ('u' | 'U') => {
            let digits = &rest[1..];
            let valid = digits.len() == if c == 'u' { 4 } else { 8 } && digits.bytes().all(|b| b.is_ascii_hexdigit());
            valid.then(|| u32::from_str_radix(digits, 16).ok()).flatten().filter(|&u| char::from_u32(u).is_some())
        }
        _ => {
            let mut bytes = Vec::new();
            let left = escape(rest, &mut bytes)?;
            (left.is_empty() && bytes.len() == 1).then(|| u32::from(bytes[0]))
        }
    }
}

/// Decodes the escape after a backslash into `bytes`; returns the rest.
fn escape<'a>(rest: &'a str, bytes: &mut Vec<u8>) -> Option<&'a str> {
    let c = rest.chars().next()?;
    let hex = |len: usize| -> Option<(u32, &'a str)> {
        let digits = rest.get(1..1 + len)?;
        if !digits.bytes().all(|b| b.is_ascii_hexdigit()) {
            return None;
        }
        Some((u32::from_str_radix(digits, 16).ok()?, &rest[1 + len..]))
    };
    let simple = match c {
        'a' => Some(7),
        'b' => Some(8),
        'f' => Some(12),
        'n' => Some(b'\n'),
        'r' => Some(b'\r'),
        't' => Some(b'\t'),
        'v' => Some(11),
        '\\' | '"' | '\'' => Some(c as u8),
        _ => None,
    };
    if let Some(byte) = simple {
        bytes.push(byte);
        return Some(&rest[1..]);
    }
    match c {
        'x' => {
            let (value, rest) = hex(2)?;
            bytes.push(u8::try_from(value).ok()?);
            Some(rest)
        }
        'u' | 'U' => {
            let (value, rest) = hex(if c == 'u' { 4 } else { 8 })?;
            let c = char::from_u32(value)?;
            bytes.extend_from_slice(c.encode_utf8(&mut [0; 4]).as_bytes());
            Some(rest)
        }
        '0'..='7' => {
            let digits = rest.get(..3)?;
            if !digits.bytes().all(|b| (b'0'..=b'7').contains(&b)) {
                return None;
            }
            bytes.push(u8::try_from(u32::from_str_radix(digits, 8).ok()?).ok()?);
            Some(&rest[3..])
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quotes_like_go() {
        let cases = [
            ("abc", r#""abc""#, r#""abc""#),
            ("a\"b\\c", r#""a\"b\\c""#, r#""a\"b\\c""#),
            ("\x07\x08\x0c\n\r\t\x0b", r#""\a\b\f\n\r\t\v""#, r#""\a\b\f\n\r\t\v""#),
            ("\x00\x1f\x7f", r#""\x00\x1f\x7f""#, r#""\x00\x1f\x7f""#),
            (
                "\u{80}\u{a0}\u{ad}\u{2028}\u{feff}",
                r#""\u0080\u00a0\u00ad\u2028\ufeff""#,
                r#""\u0080\u00a0\u00ad\u2028\ufeff""#,
            ),
            ("☺ é 日本", "\"☺ é 日本\"", r#""\u263a \u00e9 \u65e5\u672c""#),
            ("\u{1F600}", "\"\u{1F600}\"", r#""\U0001f600""#),
            ("\u{10FFFF}\u{E000}", r#""\U0010ffff\ue000""#, r#""\U0010ffff\ue000""#),
            ("'", r#""'""#, r#""'""#),
        ];
        for (text, quoted, ascii) in cases {
            assert_eq!(go_quote(text, false), quoted, "{text:?}");
            assert_eq!(go_quote(text, true), ascii, "{text:?}");
            assert_eq!(go_unquote(quoted).as_deref(), Some(text));
            assert_eq!(go_unquote(ascii).as_deref(), Some(text));
        }
    }

    #[test]
    fn unquotes_every_go_escape() {
        let cases = [
            (r#""\x41\x42""#, Some("AB")),
            (r#""\101\102\040""#, Some("AB ")),
            (r#""\xe2\x98\xba""#, Some("☺")),
            (r#""\342\230\272""#, Some("☺")),
            (r#""\u263A\U0001F600""#, Some("☺\u{1F600}")),
            (r#""\'\"""#, Some("'\"")),
            ("`raw \\n \"x\"`", Some("raw \\n \"x\"")),
            ("`a\r\nb`", Some("a\nb")),
            (r#""\xff""#, None),   // not UTF-8
            (r#""\400""#, None),   // octal above 255
            (r#""\12""#, None),    // octal needs 3 digits
            (r#""\x4""#, None),    // \x needs 2 digits
            (r#""\ud800""#, None), // surrogate
            (r#""\U00110000""#, None),
            (r#""\q""#, None),
            (r#""a"b""#, None),
            ("\"a\nb\"", None),
            (r#""abc"#, None),
            ("abc", None),
            ("`a`b`", None),
            ("\"", None),
        ];
        for (quoted, text) in cases {
            assert_eq!(go_unquote(quoted).as_deref(), text, "{quoted}");
        }
    }

    #[test]
    fn backquote() {
        assert!(can_backquote("a\tb ☺"));
        assert!(!can_backquote("a`b"));
        assert!(!can_backquote("a\nb"));
        assert!(!can_backquote("\u{feff}"));
    }

    proptest::proptest! {
        #[test]
        fn unquote_inverts_quote(s in ".*", ascii: bool) {
            proptest::prop_assert_eq!(go_unquote(&go_quote(&s, ascii)), Some(s));
        }

        #[test]
        fn unquote_inverts_quote_any_char(chars in proptest::collection::vec(proptest::char::any(), 0..20), ascii: bool) {
            let s: String = chars.into_iter().collect();
            proptest::prop_assert_eq!(go_unquote(&go_quote(&s, ascii)), Some(s));
        }
    }
}
