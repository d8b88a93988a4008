//! [`ByteString`]: the type of a generated enum's quoted-string fields.

use std::borrow::{Borrow, Cow};
use std::fmt;
use std::ops::Deref;
use std::str::FromStr;

use super::value::write_escaped_bytes;

/// A string that is usually UTF-8 but need not be: the type of a generated
/// field for a quoted-string placeholder (Go's `%q`).
///
/// Go's `%q` of a string that is not valid UTF-8 writes its invalid bytes as
/// `\x` escapes (`"\xc3(ab"`); unquoting gives bytes that a `String` cannot
/// hold. A `ByteString` holds them exactly, so such a message is classified
/// like any other and renders back as it was written (the escaped text
/// `\xc3(ab` in a `String` would be ambiguous with a real backslash, which
/// Go writes `"\\xc3(ab"`).
///
/// It compares with `str` and `String`, derefs to its bytes, gives its text
/// with [`as_str`](ByteString::as_str) (`None` when it is not UTF-8), and
/// `Display`s each byte that is not part of UTF-8 text as `\xNN` (as
/// [`Value`](crate::Value) does), never with replacement characters; `Debug`
/// writes it as a quoted string with Rust's escapes and `\xNN`.
///
/// ```
/// use catalog_runtime::ByteString;
///
/// let id = ByteString::from(&b"\xc3(ab"[..]);
/// assert_eq!(id.as_str(), None);
/// assert_eq!(id.to_string(), r"\xc3(ab");
/// assert_eq!(format!("{id:?}"), r#""\xc3(ab""#);
/// assert_eq!(&*id, b"\xc3(ab");
///
/// let session = ByteString::from("sess-1");
/// assert_eq!(session, "sess-1");
/// assert_eq!(session.as_str(), Some("sess-1"));
/// ```
#[derive(Clone, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ByteString(Vec<u8>);

impl ByteString {
    /// The bytes as a `ByteString`.
    pub fn new(bytes: impl Into<Vec<u8>>) -> ByteString {
        ByteString(bytes.into())
    }

    /// The bytes.
    pub fn as_bytes(&self) -> &[u8] {
        &self.0
    }

    /// The text, when the bytes are UTF-8.
    pub fn as_str(&self) -> Option<&str> {
        std::str::from_utf8(&self.0).ok()
    }

    /// The text, each invalid sequence replaced with `U+FFFD` (lossy).
    pub fn to_str_lossy(&self) -> Cow<'_, str> {
        String::from_utf8_lossy(&self.0)
    }

    /// The bytes, owned.
    pub fn into_bytes(self) -> Vec<u8> {
        self.0
    }

    /// The text as a `String`, or the `ByteString` back when it is not UTF-8.
    pub fn into_string(self) -> Result<String, ByteString> {
        String::from_utf8(self.0).map_err(|e| ByteString(e.into_bytes()))
    }
}

impl Deref for ByteString {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        &self.0
    }
}

impl AsRef<[u8]> for ByteString {
    fn as_ref(&self) -> &[u8] {
        &self.0
    }
}

impl Borrow<[u8]> for ByteString {
    fn borrow(&self) -> &[u8] {
        &self.0
    }
}

impl From<String> for ByteString {
    fn from(text: String) -> ByteString {
        ByteString(text.into_bytes())
    }
}

impl From<&str> for ByteString {
    fn from(text: &str) -> ByteString {
        ByteString(text.as_bytes().to_vec())
    }
}

impl From<Vec<u8>> for ByteString {
    fn from(bytes: Vec<u8>) -> ByteString {
        ByteString(bytes)
    }
}

impl From<&[u8]> for ByteString {
    fn from(bytes: &[u8]) -> ByteString {
        ByteString(bytes.to_vec())
    }
}

impl From<ByteString> for Vec<u8> {
    fn from(text: ByteString) -> Vec<u8> {
        text.0
    }
}

impl FromStr for ByteString {
    type Err = std::convert::Infallible;
    /// The text's bytes (escapes are not decoded).
    fn from_str(text: &str) -> Result<ByteString, Self::Err> {
        Ok(ByteString::from(text))
    }
}

impl PartialEq<str> for ByteString {
    fn eq(&self, other: &str) -> bool {
        self.0 == other.as_bytes()
    }
}

impl PartialEq<&str> for ByteString {
    fn eq(&self, other: &&str) -> bool {
        self.0 == other.as_bytes()
    }
}

impl PartialEq<String> for ByteString {
    fn eq(&self, other: &String) -> bool {
        self.0 == other.as_bytes()
    }
}

impl PartialEq<ByteString> for str {
    fn eq(&self, other: &ByteString) -> bool {
        self.as_bytes() == other.0
    }
}

impl PartialEq<ByteString> for &str {
    fn eq(&self, other: &ByteString) -> bool {
        self.as_bytes() == other.0
    }
}

impl PartialEq<ByteString> for String {
    fn eq(&self, other: &ByteString) -> bool {
        self.as_bytes() == other.0
    }
}

impl fmt::Display for ByteString {
    /// The text, each byte that is not part of UTF-8 text as `\xNN`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_escaped_bytes(f, &self.0)
    }
}

impl fmt::Debug for ByteString {
    /// A quoted string: text with Rust's `Debug` escapes, each byte that is
    /// not part of UTF-8 text as `\xNN`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("\"")?;
        for chunk in self.0.utf8_chunks() {
            for c in chunk.valid().chars() {
                if c == '\'' {
                    f.write_str("'")?;
                } else {
                    write!(f, "{}", c.escape_debug())?;
                }
            }
            chunk.invalid().iter().try_for_each(|b| write!(f, "\\x{b:02x}"))?;
        }
        f.write_str("\"")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_and_bytes() {
        let text = ByteString::from("a\"b'\n");
        assert_eq!(format!("{text:?}"), format!("{:?}", "a\"b'\n"));
        assert_eq!(text.clone().into_string().as_deref(), Ok("a\"b'\n"));
        let bytes = ByteString::new(b"\xff\\x".to_vec());
        assert_eq!(bytes.to_string(), r"\xff\x");
        assert_eq!(format!("{bytes:?}"), r#""\xff\\x""#);
        assert_eq!(bytes.to_str_lossy(), "\u{fffd}\\x");
        assert_eq!(bytes.clone().into_string(), Err(bytes.clone()));
        assert_ne!(bytes, ByteString::from(r"\xff\x"));
        assert_eq!("x".parse::<ByteString>(), Ok(ByteString::from(&b"x"[..])));
        let (sess, text) = (ByteString::from("sess"), String::from("sess"));
        assert_eq!("sess", sess);
        assert_eq!(text, sess);
        assert_eq!(sess, text);
    }
}
