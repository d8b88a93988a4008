//! Undoing the escapes envelopes add, so that a record sees exactly the text
//! the program wrote: JSON string escapes (RFC 8259, with UTF-16 surrogate
//! pairs, as Docker, zap, slog, logrus and `json.dumps` write them) and Go
//! quoting (`strconv.Quote`, which slog's text handler and logfmt writers
//! use; go-logfmt's JSON-style escapes are a subset of it).

use std::borrow::Cow;

/// The text of a JSON string literal's contents `raw` (between its quotes).
/// A lone surrogate (which no valid UTF-16 holds, but some encoders write)
/// becomes U+FFFD; a malformed escape gives `None`.
///
/// ```text
/// json_string(r#"disk \u003cfull\u003e\u0009\ud83d\ude00"#) == "disk <full>\t😀"
/// ```
pub(crate) fn json_string(raw: &str) -> Option<Cow<'_, str>> {
    if memchr::memchr(b'\\', raw.as_bytes()).is_none() {
        return Some(Cow::Borrowed(raw));
    }
    let mut out = String::with_capacity(raw.len());
    let mut rest = raw;
    while let Some(at) = memchr::memchr(b'\\', rest.as_bytes()) {
        out.push_str(&rest[..at]);
        let escape = &rest[at + 1..];
        let (text, used) = match escape.as_bytes().first()? {
            b'"' => ('"', 1),
            b'\\' => ('\\', 1),
            b'/' => ('/', 1),
            b'b' => ('\u{8}', 1),
            b'f' => ('\u{c}', 1),
            b'n' => ('\n', 1),
            b'r' => ('\r', 1),
            b't' => ('\t', 1),
            b'u' => utf16_escape(escape)?,
            _ => return None,
        };
        out.push(text);
        rest = &escape[used..];
    }
    out.push_str(rest);
    Some(Cow::Owned(out))
}

/// `uXXXX` (and a following `\uXXXX` low surrogate) at the start of
/// `escape`: the character and the bytes used.
fn utf16_escape(escape: &str) -> Option<(char, usize)> {
    let unit = hex(escape.get(1..5)?)?;
    if (0xD800..0xDC00).contains(&unit) {
        let low = escape.get(5..7).filter(|s| *s == "\\u").and_then(|_| hex(escape.get(7..11)?));
        if let Some(low) = low.filter(|low| (0xDC00..0xE000).contains(low)) {
            let code = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00);
            return Some((char::from_u32(code)?, 11));
        }
    }
    Some((char::from_u32(unit).unwrap_or(char::REPLACEMENT_CHARACTER), 5))
}

fn hex(digits: &str) -> Option<u32> {
    hex_digits(digits.as_bytes())
}

/// The number `digits` spell in hexadecimal (at most 8 of them), if they
/// are all hexadecimal digits.
pub(crate) fn hex_digits(digits: &[u8]) -> Option<u32> {
    if digits.is_empty() {
        return None;
    }
    digits.iter().try_fold(0u32, |value, &digit| Some(value << 4 | char::from(digit).to_digit(16)?))
}

/// The text of a Go-quoted string's contents `raw` (between its quotes), as
/// `strconv.Unquote` reads it: `\a \b \f \n \r \t \v \\ \" \'`, `\xHH`,
/// octal `\NNN`, `\uXXXX`, `\UXXXXXXXX`, plus JSON's `\/` (go-logfmt).
/// Byte escapes that do not form UTF-8 become U+FFFD; a malformed escape
/// gives `None`.
pub(crate) fn go_quoted(raw: &str) -> Option<Cow<'_, str>> {
    if memchr::memchr(b'\\', raw.as_bytes()).is_none() {
        return Some(Cow::Borrowed(raw));
    }
    // Bytes, since `\xHH` escapes may together spell one UTF-8 character.
    let mut out: Vec<u8> = Vec::with_capacity(raw.len());
    let mut rest = raw;
    while let Some(at) = memchr::memchr(b'\\', rest.as_bytes()) {
        out.extend_from_slice(&rest.as_bytes()[..at]);
        let escape = &rest[at + 1..];
        let simple = |c: char| Some((c, 1));
        let (text, used) = match escape.as_bytes().first()? {
            b'a' => simple('\u{7}')?,
            b'b' => simple('\u{8}')?,
            b'f' => simple('\u{c}')?,
            b'n' => simple('\n')?,
            b'r' => simple('\r')?,
            b't' => simple('\t')?,
            b'v' => simple('\u{b}')?,
            b'\\' => simple('\\')?,
            b'"' => simple('"')?,
            b'\'' => simple('\'')?,
            b'/' => simple('/')?,
            b'x' => {
                out.push(u8::try_from(hex(escape.get(1..3)?)?).ok()?);
                rest = &escape[3..];
                continue;
            }
            b'0'..=b'7' => {
                let digits = escape.get(..3)?;
                if !digits.bytes().all(|b| (b'0'..=b'7').contains(&b)) {
                    return None;
                }
                out.push(u8::try_from(u32::from_str_radix(digits, 8).ok()?).ok()?);
                rest = &escape[3..];
                continue;
            }
            b'u' => (char::from_u32(hex(escape.get(1..5)?)?).unwrap_or(char::REPLACEMENT_CHARACTER), 5),
            b'U' => (char::from_u32(hex(escape.get(1..9)?)?).unwrap_or(char::REPLACEMENT_CHARACTER), 9),
            _ => return None,
        };
        out.extend_from_slice(text.encode_utf8(&mut [0; 4]).as_bytes());
        rest = &escape[used..];
    }
    out.extend_from_slice(rest.as_bytes());
    Some(Cow::Owned(match String::from_utf8(out) {
        Ok(text) => text,
        Err(err) => String::from_utf8_lossy(err.as_bytes()).into_owned(),
    }))
}

/// Which escapes give a character no literal holds.
#[derive(Clone, Copy)]
pub(crate) struct Escapes<'b> {
    /// Which bytes occur in the literals (`[b]` for byte `b`).
    pub literal_bytes: &'b [bool; 256],
    /// Go's escapes (logfmt) besides JSON's.
    pub go: bool,
    /// The message may be unwrapped again (Docker): an escaped backslash
    /// may begin an escape of the inner line.
    pub nested: bool,
}

impl Escapes<'_> {
    /// Whether every backslash of `text` begins a harmless escape (a
    /// backslash that is no escape, in an unquoted logfmt value or a CRI
    /// message read as it is, is harmless too, but taken for one).
    pub fn all_harmless(&self, text: &str) -> bool {
        let bytes = text.as_bytes();
        let mut at = 0;
        while let Some(next) = memchr::memchr(b'\\', &bytes[at..]) {
            let next = at + next;
            match self.harmless(&bytes[next + 1..]) {
                Some(used) => at = next + 1 + used,
                None => return false,
            }
        }
        true
    }

    /// The length of the harmless escape `escape` begins with (after its
    /// backslash), if it is one.
    pub fn harmless(&self, escape: &[u8]) -> Option<usize> {
        let gives = |byte: u8| !self.literal_bytes[usize::from(byte)];
        let (char, used) = match *escape.first()? {
            byte @ (b'"' | b'/') => (u32::from(byte), 1),
            b'\\' => (u32::from(b'\\'), 1),
            b't' => (0x09, 1),
            b'b' => (0x08, 1),
            b'f' => (0x0c, 1),
            b'u' => (hex_digits(escape.get(1..5)?)?, 5),
            b'U' if self.go => (hex_digits(escape.get(1..9)?)?, 9),
            _ => return None,
        };
        let harmless = match char {
            // A line break, which the caller is to see.
            0x0a | 0x0d => false,
            0x5c if self.nested => false,
            // ASCII, as itself.
            0..=0x7f => gives(char as u8),
            // Anything else (a surrogate too, which becomes a character
            // with the next escape, or U+FFFD) is not ASCII.
            _ => (0x80..=0xff).all(gives),
        };
        harmless.then_some(used)
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    pub(crate) fn bytes_of(literals: &str) -> [bool; 256] {
        let mut set = [false; 256];
        for byte in literals.bytes() {
            set[usize::from(byte)] = true;
        }
        set
    }

    #[test]
    fn escapes_are_harmless_when_no_literal_holds_what_they_give() {
        let none = bytes_of("abc ");
        let quote = bytes_of("abc \"");
        let accented = bytes_of("abc é");
        fn json(literal_bytes: &[bool; 256]) -> Escapes<'_> {
            Escapes { literal_bytes, go: false, nested: false }
        }
        assert!(json(&none).all_harmless(r#"x \"y\" \u003c\u003e\u0026 \t \/ \\ \u00e9 \ud83d\ude00 \b\f"#));
        assert!(!json(&quote).all_harmless(r#"x \"y\""#));
        assert!(!json(&quote).all_harmless(r#"x \u0022y"#));
        assert!(!json(&bytes_of("a")).all_harmless(r"\u0061"));
        assert!(!json(&accented).all_harmless(r"\u00e9"));
        assert!(!json(&accented).all_harmless(r"\ud83d\ude00"));
        // Line breaks, malformed or unknown escapes, a backslash at the end.
        for text in [r"a\nb", r"a\rb", r"\u000a", r"\u000D", r"\x41", r"\u12", r"\uZZZZ", r"\a", r"\'", r"end\"] {
            assert!(!json(&none).all_harmless(text), "{text}");
        }
        // Go's \U is an escape of logfmt, not of JSON.
        assert!(!json(&none).all_harmless(r"\U0001F600"));
        assert!(Escapes { go: true, ..json(&none) }.all_harmless(r"\U0001F600"));
        // A backslash that may begin an escape of an inner line.
        let nested = Escapes { nested: true, ..json(&none) };
        assert!(!nested.all_harmless(r"\\u0061") && !nested.all_harmless(r"\u005c"));
        assert!(json(&none).all_harmless(r"\\u0061"));
    }

    #[test]
    fn json_escapes_come_out_as_the_program_wrote_them() {
        // Docker's HTML-safe escapes and its `\u0009` for a tab (moby
        // daemon/logger/jsonfilelog/jsonlog/jsonlogbytes.go).
        let raw = r#"persist session \"s7\" (seq=5): disk \u003cfull\u003e \u0026 more\u0009at x"#;
        assert_eq!(json_string(raw).unwrap(), "persist session \"s7\" (seq=5): disk <full> & more\tat x");
        assert_eq!(json_string(r#"\ud83d\ude00 \u00e9\/\b\f\n\r\t\\"#).unwrap(), "😀 é/\u{8}\u{c}\n\r\t\\");
        // A lone surrogate (high or low) is not text: U+FFFD.
        assert_eq!(json_string(r#"a\ud83d b \ude00"#).unwrap(), "a\u{fffd} b \u{fffd}");
        assert!(matches!(json_string("plain"), Some(Cow::Borrowed("plain"))));
        for bad in [r"\", r"\x41", r"\u12", r"\uZZZZ", r"\u+123"] {
            assert_eq!(json_string(bad), None, "{bad}");
        }
    }

    #[test]
    fn go_quotes_come_out_as_the_program_wrote_them() {
        // slog's TextHandler quoting a message holding a `%q` value: the
        // quotes are escaped twice over.
        assert_eq!(go_quoted(r#"session \"s7\" \\\"x\\\""#).unwrap(), r#"session "s7" \"x\""#);
        assert_eq!(go_quoted(r"\a\b\f\n\r\t\v\'\/").unwrap(), "\u{7}\u{8}\u{c}\n\r\t\u{b}'/");
        assert_eq!(go_quoted(r"\xc3\xa9 \303\251 \u00e9 \U0001F600").unwrap(), "é é é 😀");
        assert_eq!(go_quoted(r"\xff!").unwrap(), "\u{fffd}!");
        for bad in [r"\", r"\q", r"\x4", r"\08", r"\400", r"\U0011000"] {
            assert_eq!(go_quoted(bad), None, "{bad}");
        }
    }
}
