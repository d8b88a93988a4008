//! The fields of a one-line JSON object, read without building a tree: the
//! envelopes need a few string fields and where their text is in the line
//! (for `span_in_input`), and skip everything else. Nested objects are
//! flattened with dotted keys (`{"log":{"level":"x"}}` gives `log.level`),
//! as ECS writes them either way.

use std::borrow::Cow;
use std::ops::Range;

use super::unescape::json_string;

/// How deep nested objects are read into fields; deeper ones are skipped.
const MAX_DEPTH: usize = 4;

/// One field's value.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Json<'a> {
    /// A string: its contents as written (escaped) and their range in the line.
    Str { raw: &'a str, at: Range<usize> },
    /// An array, as written (journald writes non-text `MESSAGE`s as byte arrays).
    Array(&'a str),
    /// `null`.
    Null,
    /// A number, `true` or `false`, as written.
    Scalar(&'a str),
}

impl<'a> Json<'a> {
    /// The text of a string (unescaped), or of a number as written.
    pub(crate) fn text(&self) -> Option<Cow<'a, str>> {
        match self {
            Json::Str { raw, .. } => json_string(raw),
            Json::Scalar(raw) => Some(Cow::Borrowed(raw)),
            Json::Array(_) | Json::Null => None,
        }
    }
}

/// A line's fields, in order: `(dotted key, value)`.
pub(crate) type Fields<'a> = Vec<(Cow<'a, str>, Json<'a>)>;

/// The fields of `line` when it is one JSON object (with nothing but
/// whitespace around it), else `None`.
pub(crate) fn fields(line: &str) -> Option<Fields<'_>> {
    let mut reader = Reader { line, at: 0 };
    reader.space();
    let mut fields = Vec::new();
    reader.object(None, 0, &mut fields)?;
    reader.space();
    (reader.at == line.len()).then_some(fields)
}

/// The value of `key` among `fields` (the first, when repeated).
pub(crate) fn get<'f, 'a>(fields: &'f Fields<'a>, key: &str) -> Option<&'f Json<'a>> {
    fields.iter().find(|(name, _)| name == key).map(|(_, value)| value)
}

struct Reader<'a> {
    line: &'a str,
    at: usize,
}

impl<'a> Reader<'a> {
    fn peek(&self) -> Option<u8> {
        self.line.as_bytes().get(self.at).copied()
    }

    fn space(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t' | b'\r' | b'\n')) {
            self.at += 1;
        }
    }

    fn expect(&mut self, byte: u8) -> Option<()> {
        (self.peek()? == byte).then(|| self.at += 1)
    }

    /// A string at `at`: its raw contents and their range.
    fn string(&mut self) -> Option<(&'a str, Range<usize>)> {
        self.expect(b'"')?;
        let start = self.at;
        let bytes = self.line.as_bytes();
        loop {
            let next = self.at + memchr::memchr2(b'"', b'\\', &bytes[self.at..])?;
            if bytes[next] == b'\\' {
                self.at = next + 2;
                if self.at > bytes.len() {
                    return None;
                }
                continue;
            }
            self.at = next + 1;
            return Some((&self.line[start..next], start..next));
        }
    }

    /// An object at `at`; its fields (under `prefix`) go to `fields`.
    fn object(&mut self, prefix: Option<&str>, depth: usize, fields: &mut Fields<'a>) -> Option<()> {
        self.expect(b'{')?;
        self.space();
        if self.peek()? == b'}' {
            self.at += 1;
            return Some(());
        }
        loop {
            self.space();
            let (raw, _) = self.string()?;
            let key = json_string(raw)?;
            let key = match prefix {
                Some(prefix) => Cow::Owned(format!("{prefix}.{key}")),
                None => key,
            };
            self.space();
            self.expect(b':')?;
            self.space();
            match self.peek()? {
                b'"' => {
                    let (raw, at) = self.string()?;
                    fields.push((key, Json::Str { raw, at }));
                }
                b'{' if depth < MAX_DEPTH => self.object(Some(&key), depth + 1, fields)?,
                b'{' | b'[' => {
                    let start = self.at;
                    self.skip_nested()?;
                    if self.line.as_bytes()[start] == b'[' {
                        fields.push((key, Json::Array(&self.line[start..self.at])));
                    }
                }
                _ => {
                    let start = self.at;
                    while !matches!(self.peek()?, b',' | b'}' | b' ' | b'\t' | b'\r' | b'\n') {
                        self.at += 1;
                    }
                    let scalar = &self.line[start..self.at];
                    let value = match scalar {
                        "null" => Json::Null,
                        "true" | "false" => Json::Scalar(scalar),
                        number if is_number(number) => Json::Scalar(number),
                        _ => return None,
                    };
                    fields.push((key, value));
                }
            }
            self.space();
            match self.peek()? {
                b',' => self.at += 1,
                b'}' => {
                    self.at += 1;
                    return Some(());
                }
                _ => return None,
            }
        }
    }

    /// Past a balanced array or object at `at` (strings in it skipped whole).
    fn skip_nested(&mut self) -> Option<()> {
        let mut depth = 0usize;
        loop {
            match self.peek()? {
                b'"' => {
                    self.string()?;
                    continue;
                }
                b'{' | b'[' => depth += 1,
                b'}' | b']' => {
                    depth = depth.checked_sub(1)?;
                    if depth == 0 {
                        self.at += 1;
                        return Some(());
                    }
                }
                _ => {}
            }
            self.at += 1;
        }
    }
}

/// Whether `text` is a JSON number: `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`
/// (read by hand: parsing every number of every line as a float cost more
/// than the rest of reading the object).
fn is_number(text: &str) -> bool {
    fn digits(bytes: &[u8]) -> usize {
        bytes.iter().take_while(|b| b.is_ascii_digit()).count()
    }
    let bytes = text.as_bytes();
    let mut at = usize::from(bytes.first() == Some(&b'-'));
    match digits(&bytes[at..]) {
        0 => return false,
        n if n > 1 && bytes[at] == b'0' => return false,
        n => at += n,
    }
    if bytes.get(at) == Some(&b'.') {
        match digits(&bytes[at + 1..]) {
            0 => return false,
            n => at += 1 + n,
        }
    }
    if matches!(bytes.get(at), Some(b'e' | b'E')) {
        at += 1 + usize::from(matches!(bytes.get(at + 1), Some(b'+' | b'-')));
        match digits(&bytes[at.min(bytes.len())..]) {
            0 => return false,
            n => at += n,
        }
    }
    at == bytes.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_are_read_with_their_place_in_the_line() {
        let line = r#" {"log":"a \"b\"\n","stream":"stderr","attrs":{"tag":"x","n":[1,{"y":"]"}]},"time":"t","n":-1.5e3,"ok":true,"gone":null} "#;
        let fields = fields(line).unwrap();
        let keys: Vec<&str> = fields.iter().map(|(key, _)| key.as_ref()).collect();
        assert_eq!(keys, ["log", "stream", "attrs.tag", "attrs.n", "time", "n", "ok", "gone"]);
        let Json::Str { raw, at } = get(&fields, "log").unwrap() else { panic!() };
        assert_eq!((*raw, &line[at.clone()]), (r#"a \"b\"\n"#, r#"a \"b\"\n"#));
        assert_eq!(get(&fields, "log").unwrap().text().unwrap(), "a \"b\"\n");
        assert_eq!(get(&fields, "attrs.n"), Some(&Json::Array(r#"[1,{"y":"]"}]"#)));
        assert_eq!(get(&fields, "n").unwrap().text().unwrap(), "-1.5e3");
        assert_eq!(get(&fields, "gone"), Some(&Json::Null));
    }

    #[test]
    fn anything_but_one_whole_object_is_no_fields() {
        for line in [
            "",
            "{",
            "[1]",
            r#"{"a":"b"} x"#,
            r#"{"a":"b\"}"#,
            r#"{"a":b}"#,
            r#"{"a" "b"}"#,
            r#"{"a":"b",}"#,
            r#"{"a":[1,2}"#,
            r#"{"a":"\"#,
            "plain text",
        ] {
            assert_eq!(fields(line), None, "{line}");
        }
        assert_eq!(fields("{}"), Some(Vec::new()));
    }

    #[test]
    fn numbers_are_read_as_json_writes_them() {
        for number in ["0", "-0", "7", "-12", "1764436800.123", "1e5", "-1.5E+3", "2e-07", "0.5"] {
            assert!(is_number(number), "{number}");
            assert_eq!(fields(&format!(r#"{{"n":{number}}}"#)).unwrap()[0].1, Json::Scalar(number));
        }
        for not in ["", "-", "01", "1.", ".5", "+1", "1e", "1e+", "inf", "NaN", "0x10", "1.2.3", "--1", "1_000"] {
            assert!(!is_number(not), "{not}");
            assert_eq!(fields(&format!(r#"{{"n":{not}}}"#)), None, "{not}");
        }
    }
}
