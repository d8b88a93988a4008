//! The fast path of record loading: one pass over a record file's text that
//! checks the JSON, reads the record's fields straight into a [`Record`] and
//! notes where each value starts, for a well-formed record whose every field
//! has its schema's type.
//!
//! The `#[catalog]` macro loads every record on every build of a crate that
//! uses it, unoptimised in a user's debug build, where parsing into a
//! `serde_json::Value`, then reading the record out of it and scanning the
//! text again for the keys' positions cost about 700 instructions a byte of
//! record file (the 2,008 nats-server records: 1.6 G). This pass costs about
//! 110 with the positions, 75 without.
//!
//! Anything else gives `None`, and the general path (`load_document`) reads
//! the document instead, with its diagnostics: malformed JSON, a field of
//! the wrong type, a missing `id` or message, a key given twice, and what
//! this pass does not handle (numbers other than integers, `\u` escapes of
//! surrogates, nesting past [`MAX_DEPTH`], keys with escapes, a top-level
//! `record` that is not the first key). So where it gives a record, it is
//! the record and origin that the general path gives (tests below compare
//! the two on the corpora and on generated documents).

use std::borrow::Cow;
use std::path::Path;
use std::sync::OnceLock;

use super::{Origin, Positions, SourcedRecord};
use crate::model::{with_record_schema, ErrorType, HandlingStrategy, Record, Severity, Text, TextList};

/// Nesting this pass follows; serde_json's own limit is 128.
const MAX_DEPTH: usize = 100;

/// The record in `text`, one JSON document that starts at line `first_line`
/// (0-based) of the file at `path`, or `None` for the general path; with
/// `Positions::Skipped`, its origin has no field positions.
pub(super) fn read(path: &Path, text: &str, first_line: usize, positions: Positions) -> Option<SourcedRecord> {
    let mut parser =
        Parser { text, bytes: text.as_bytes(), at: 0, line: 1, line_start: 0, column_at: 0, column: 1, positions };
    parser.skip_whitespace();
    let top = parser.clone();
    parser.expect(b'{')?;
    parser.skip_whitespace();
    let first_key = parser.key()?;
    let (record, origin) = if first_key == "record" {
        // `{"record": {...}, "datasetVersion": "..."}`
        parser.colon()?;
        parser.skip_whitespace();
        let (mut record, origin) = parser.record(path, first_line, false)?;
        let mut version = None;
        while parser.comma_or_end(b'}')? {
            let key = parser.key()?;
            parser.colon()?;
            parser.skip_whitespace();
            match key {
                "record" => return None,
                "datasetVersion" => {
                    if version.is_some() {
                        return None;
                    }
                    version = Some(match parser.peek() {
                        Some(b'"') => Some(parser.string()?),
                        _ => {
                            parser.skip_value(1)?;
                            None
                        }
                    });
                }
                _ => parser.skip_value(1)?,
            }
        }
        // The version beside the record describes the export it came in.
        if let Some(Some(version)) = version {
            record.dataset_version = Some(Text::Owned(version.into_owned()));
        }
        (record, origin)
    } else {
        // A bare record: its own `datasetVersion` is the one beside it.
        parser = top;
        parser.record(path, first_line, true)?
    };
    parser.skip_whitespace();
    if parser.at != text.len() {
        return None;
    }
    // What `read_record` reports.
    if record.id.trim().is_empty()
        || (record.error_message.is_empty() && record.message_pattern.as_deref().is_none_or(str::is_empty))
    {
        return None;
    }
    Some(SourcedRecord { record, origin })
}

/// Sets one field of a record from the value at the parser.
type Setter = fn(&mut Record, &mut Parser<'_>) -> Option<()>;

macro_rules! schema_tables {
    ($($(#[doc = $doc:literal])* $field:ident: $ty:ty = $key:literal,)*) => {
        /// The schema's JSON keys, in schema order.
        const KEYS: &[&str] = &[$($key),*];
        /// The setter of each key of [`KEYS`].
        const SETTERS: &[Setter] = &[$(|record, parser| {
            record.$field = <$ty as FastField>::parse(parser)?;
            Some(())
        }),*];
    };
}
with_record_schema!(schema_tables);

/// The position of each key of [`KEYS`] in the keys' sorted order.
fn ranks() -> &'static [usize] {
    static RANKS: OnceLock<Vec<usize>> = OnceLock::new();
    RANKS.get_or_init(|| {
        let mut sorted: Vec<usize> = (0..KEYS.len()).collect();
        sorted.sort_by_key(|&i| KEYS[i]);
        let mut ranks = vec![0; KEYS.len()];
        for (rank, &i) in sorted.iter().enumerate() {
            ranks[i] = rank;
        }
        ranks
    })
}

/// A schema field's type, read from the JSON value at the parser as the
/// general path reads it (`record_reader`); `None` for a value of another
/// type, which the general path reports.
trait FastField: Sized {
    fn parse(parser: &mut Parser<'_>) -> Option<Self>;
}

impl FastField for Option<Text> {
    fn parse(parser: &mut Parser<'_>) -> Option<Self> {
        match parser.peek()? {
            b'"' => Some(Some(Text::Owned(parser.string()?.into_owned()))),
            b'n' => parser.literal("null").map(|()| None),
            _ => None,
        }
    }
}

impl FastField for Text {
    fn parse(parser: &mut Parser<'_>) -> Option<Self> {
        Option::<Text>::parse(parser).map(Option::unwrap_or_default)
    }
}

impl FastField for Option<u16> {
    fn parse(parser: &mut Parser<'_>) -> Option<Self> {
        Option::<u32>::parse(parser)?.map(u16::try_from).transpose().ok()
    }
}

impl FastField for Option<u32> {
    fn parse(parser: &mut Parser<'_>) -> Option<Self> {
        match parser.peek()? {
            b'n' => parser.literal("null").map(|()| None),
            _ => u32::try_from(parser.unsigned()?).ok().map(Some),
        }
    }
}

macro_rules! open_enums {
    ($($ty:ty),*) => {$(
        impl FastField for Option<$ty> {
            fn parse(parser: &mut Parser<'_>) -> Option<Self> {
                Option::<Text>::parse(parser).map(|text| text.map(|text| <$ty>::from_text(&text)))
            }
        }
    )*};
}
open_enums!(ErrorType, Severity, HandlingStrategy);

impl FastField for TextList {
    fn parse(parser: &mut Parser<'_>) -> Option<Self> {
        if parser.peek()? == b'n' {
            parser.literal("null")?;
            return Some(Cow::Borrowed(&[]));
        }
        parser.expect(b'[')?;
        parser.skip_whitespace();
        let mut items = Vec::new();
        if parser.peek()? == b']' {
            parser.at += 1;
            return Some(Cow::Owned(items));
        }
        loop {
            if parser.peek()? != b'"' {
                return None;
            }
            items.push(Text::Owned(parser.string()?.into_owned()));
            if !parser.comma_or_end(b']')? {
                return Some(Cow::Owned(items));
            }
        }
    }
}

#[derive(Clone)]
struct Parser<'a> {
    text: &'a str,
    bytes: &'a [u8],
    at: usize,
    /// The line of `at` (from 1) and the offset where it starts: a line
    /// break can only be whitespace between tokens in valid JSON.
    line: usize,
    line_start: usize,
    /// The column (from 1) at offset `column_at`, positions being asked for
    /// in increasing order.
    column_at: usize,
    column: usize,
    positions: Positions,
}

impl<'a> Parser<'a> {
    fn peek(&self) -> Option<u8> {
        if self.at < self.bytes.len() {
            Some(self.bytes[self.at])
        } else {
            None
        }
    }

    fn skip_whitespace(&mut self) {
        while self.at < self.bytes.len() {
            match self.bytes[self.at] {
                b' ' | b'\t' | b'\r' => {}
                b'\n' => {
                    self.line += 1;
                    self.line_start = self.at + 1;
                }
                _ => return,
            }
            self.at += 1;
        }
    }

    fn expect(&mut self, byte: u8) -> Option<()> {
        if self.peek()? == byte {
            self.at += 1;
            Some(())
        } else {
            None
        }
    }

    /// `:` and the whitespace around it.
    fn colon(&mut self) -> Option<()> {
        self.skip_whitespace();
        self.expect(b':')
    }

    /// After a value: `true` at a `,` (and the whitespace after it), `false`
    /// at `end`, which is consumed.
    fn comma_or_end(&mut self, end: u8) -> Option<bool> {
        self.skip_whitespace();
        let byte = self.peek()?;
        self.at += 1;
        if byte == b',' {
            self.skip_whitespace();
            Some(true)
        } else if byte == end {
            Some(false)
        } else {
            None
        }
    }

    /// Line (from 1) and column (from 1, in characters) of `offset`, at or
    /// after every offset asked for before, on the current line.
    fn position(&mut self, offset: usize) -> (usize, usize) {
        if self.column_at < self.line_start {
            self.column_at = self.line_start;
            self.column = 1;
        }
        // `str`'s character count is optimised even in an unoptimised build.
        self.column += self.text[self.column_at..offset].chars().count();
        self.column_at = offset;
        (self.line, self.column)
    }

    fn literal(&mut self, word: &str) -> Option<()> {
        let end = self.at + word.len();
        if end <= self.bytes.len() && &self.bytes[self.at..end] == word.as_bytes() {
            self.at = end;
            Some(())
        } else {
            None
        }
    }

    /// A non-negative integer without a fraction or exponent.
    fn unsigned(&mut self) -> Option<u64> {
        let start = self.at;
        let mut value: u64 = 0;
        while self.at < self.bytes.len() && self.bytes[self.at].is_ascii_digit() {
            value = value.checked_mul(10)?.checked_add(u64::from(self.bytes[self.at] - b'0'))?;
            self.at += 1;
        }
        let digits = self.at - start;
        let leading_zero = digits > 1 && self.bytes[start] == b'0';
        if digits == 0 || leading_zero || matches!(self.peek(), Some(b'.' | b'e' | b'E')) {
            return None;
        }
        Some(value)
    }

    /// An object key without escapes, and the quotes around it.
    fn key(&mut self) -> Option<&'a str> {
        if self.peek()? != b'"' {
            return None;
        }
        let start = self.at + 1;
        let end = self.plain_run(start);
        if end >= self.bytes.len() || self.bytes[end] != b'"' {
            return None;
        }
        self.at = end + 1;
        Some(&self.text[start..end])
    }

    /// Schema key `index`, if it is the key at the parser (which is then past it).
    fn expected_key(&mut self, index: usize) -> Option<&'static str> {
        let key = *KEYS.get(index)?;
        let end = self.at + key.len() + 2;
        let quoted = self.bytes.get(self.at..end)?;
        if quoted[0] == b'"' && quoted[quoted.len() - 1] == b'"' && &quoted[1..quoted.len() - 1] == key.as_bytes() {
            self.at = end;
            Some(key)
        } else {
            None
        }
    }

    /// The offset of the first `"`, `\` or control character at or after `from`.
    fn plain_run(&self, from: usize) -> usize {
        let mut i = from;
        while i < self.bytes.len() {
            let byte = self.bytes[i];
            if byte == b'"' || byte == b'\\' || byte < 0x20 {
                return i;
            }
            i += 1;
        }
        i
    }

    /// The string at the parser, unescaped.
    fn string(&mut self) -> Option<Cow<'a, str>> {
        self.expect(b'"')?;
        let start = self.at;
        let mut end = self.plain_run(start);
        if end < self.bytes.len() && self.bytes[end] == b'"' {
            self.at = end + 1;
            return Some(Cow::Borrowed(&self.text[start..end]));
        }
        let mut owned = String::new();
        let mut from = start;
        loop {
            owned.push_str(&self.text[from..end]);
            if end >= self.bytes.len() {
                return None;
            }
            match self.bytes[end] {
                b'"' => {
                    self.at = end + 1;
                    return Some(Cow::Owned(owned));
                }
                b'\\' => {
                    let escape = *self.bytes.get(end + 1)?;
                    let mut next = end + 2;
                    owned.push(match escape {
                        b'"' => '"',
                        b'\\' => '\\',
                        b'/' => '/',
                        b'b' => '\u{8}',
                        b'f' => '\u{c}',
                        b'n' => '\n',
                        b'r' => '\r',
                        b't' => '\t',
                        b'u' => {
                            let hex = self.text.get(end + 2..end + 6)?;
                            next = end + 6;
                            // Surrogates, paired or not, take the general path.
                            char::from_u32(
                                u32::from_str_radix(hex, 16)
                                    .ok()
                                    .filter(|_| hex.bytes().all(|b| b.is_ascii_hexdigit()))?,
                            )?
                        }
                        _ => return None,
                    });
                    from = next;
                    end = self.plain_run(from);
                }
                // A control character.
                _ => return None,
            }
        }
    }

    /// Checks and skips any JSON value, `depth` containers deep.
    fn skip_value(&mut self, depth: usize) -> Option<()> {
        match self.peek()? {
            b'"' => self.string().map(drop),
            b'n' => self.literal("null"),
            b't' => self.literal("true"),
            b'f' => self.literal("false"),
            b'-' => {
                self.at += 1;
                self.unsigned().map(drop)
            }
            b'0'..=b'9' => self.unsigned().map(drop),
            open @ (b'[' | b'{') if depth < MAX_DEPTH => {
                self.at += 1;
                self.skip_whitespace();
                let close = if open == b'[' { b']' } else { b'}' };
                if self.peek()? == close {
                    self.at += 1;
                    return Some(());
                }
                loop {
                    if open == b'{' {
                        // Any key, escapes and all.
                        if self.peek()? != b'"' {
                            return None;
                        }
                        self.string()?;
                        self.colon()?;
                        self.skip_whitespace();
                    }
                    self.skip_value(depth + 1)?;
                    if !self.comma_or_end(close)? {
                        return Some(());
                    }
                }
            }
            _ => None,
        }
    }

    /// The record object at the parser; `bare` when it is the document
    /// itself (not the value of a top-level `record`).
    fn record(&mut self, path: &Path, first_line: usize, bare: bool) -> Option<(Record, Origin)> {
        let open = self.at;
        let (line, column) = self.position(open);
        self.expect(b'{')?;
        self.skip_whitespace();
        let mut record = Record::default();
        let mut seen = vec![false; KEYS.len()];
        // (key, schema index or none, position of the value)
        let placed = self.positions == Positions::Found;
        let mut keys: Vec<(&'a str, Option<usize>, (usize, usize))> =
            Vec::with_capacity(if placed { KEYS.len() } else { 0 });
        let mut unknown = false;
        let mut guess = 0;
        if self.peek()? == b'}' {
            return None;
        }
        loop {
            // Records mostly list their keys in schema order: the next
            // schema key is tried first, by one comparison.
            let (key, index) = match self.expected_key(guess) {
                Some(key) => (key, Some(guess)),
                None => {
                    let key = self.key()?;
                    (key, KEYS.iter().position(|known| *known == key))
                }
            };
            self.colon()?;
            self.skip_whitespace();
            let (value_line, value_column) = if placed { self.position(self.at) } else { (0, 0) };
            match index {
                Some(index) => {
                    if seen[index] {
                        return None;
                    }
                    seen[index] = true;
                    guess = index + 1;
                    SETTERS[index](&mut record, self)?;
                }
                None => {
                    // A top-level `record` key makes this the wrapper, not a
                    // bare record: the general path sorts that out.
                    if key == "record" && bare {
                        return None;
                    }
                    unknown = true;
                    self.skip_value(2)?;
                }
            }
            if placed {
                keys.push((key, index, (value_line + first_line, value_column)));
            }
            if !self.comma_or_end(b'}')? {
                break;
            }
        }
        let fields = if !placed {
            Vec::new()
        } else if unknown {
            keys.sort_by_key(|(key, _, _)| *key);
            if keys.windows(2).any(|pair| pair[0].0 == pair[1].0) {
                return None;
            }
            keys.iter().map(|(key, _, position)| ((*key).to_owned(), *position)).collect()
        } else {
            // Known keys only: their sorted order is their ranks'.
            let ranks = ranks();
            let mut slots: Vec<Option<(usize, (usize, usize))>> = vec![None; KEYS.len()];
            for (_, index, position) in &keys {
                let index = index.unwrap_or_default();
                slots[ranks[index]] = Some((index, *position));
            }
            // A loop, not iterator adapters: unoptimised, each costs calls.
            let mut fields = Vec::with_capacity(keys.len());
            for &(index, position) in slots.iter().flatten() {
                fields.push((KEYS[index].to_owned(), position));
            }
            fields
        };
        let origin = Origin { path: path.to_owned(), line: line + first_line, column, fields };
        Some((record, origin))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dataset::{load_document_general, Loaded};
    use proptest::prelude::*;

    /// What the general path gives for `text`: the record and its origin
    /// when it reads one record and reports nothing.
    fn general(text: &str, first_line: usize) -> Option<SourcedRecord> {
        let mut loaded = Loaded::default();
        load_document_general(Path::new("d/r.json"), text, first_line, &mut loaded);
        if loaded.diagnostics.is_empty() && loaded.records.len() == 1 {
            loaded.records.pop()
        } else {
            None
        }
    }

    fn agrees(text: &str) {
        for first_line in [0, 3] {
            let fast = read(Path::new("d/r.json"), text, first_line, Positions::Found);
            if let Some(fast) = &fast {
                assert_eq!(Some(fast), general(text, first_line).as_ref(), "{text}");
            }
            // Without positions: the same record, and the origin without its
            // fields (a key given twice that is not the schema's is no reason
            // to leave then).
            let unplaced = read(Path::new("d/r.json"), text, first_line, Positions::Skipped);
            if fast.is_some() {
                assert!(unplaced.is_some(), "{text}");
            }
            if let Some(unplaced) = unplaced {
                let mut general = general(text, first_line).expect("the general path reads it");
                general.origin.fields.clear();
                assert_eq!(unplaced, general, "{text}");
            }
        }
    }

    #[test]
    fn every_corpus_record_takes_the_fast_path_and_reads_as_on_the_general_path() {
        let corpora = ["nats-server", "cargo", "django", "kafka", "nodejs-node"];
        let dirs = ["../data/nats-io/nats-server", "../tests/data/wide", "../tests/data/gateway"]
            .into_iter()
            .map(std::path::PathBuf::from)
            .chain(corpora.into_iter().filter_map(|name| crate::test_support::corpus(name, "fast_reader")));
        let mut read_fast = 0;
        for dir in dirs {
            let Ok(files) = crate::dataset::record_files(&dir) else { continue };
            for file in files {
                let text = std::fs::read_to_string(file.path()).expect("a record file");
                if file.path().extension().is_some_and(|e| e == "jsonl") {
                    continue;
                }
                let fast = read(Path::new("d/r.json"), &text, 0, Positions::Found);
                let general = general(&text, 0);
                assert_eq!(fast.is_some(), general.is_some(), "{}", file.path().display());
                assert_eq!(fast, general, "{}", file.path().display());
                read_fast += usize::from(fast.is_some());
            }
        }
        assert!(read_fast >= 3, "{read_fast} records read");
    }

    #[test]
    fn documents_the_fast_path_leaves_to_the_general_path() {
        let leaves = [
            r#"{"id": "a", "errorMessage": 5}"#,
            r#"{"id": "a", "errorMessage": "m", "id": "b"}"#,
            r#"{"id": "a", "errorMessage": "m", "x": 1, "x": 2}"#,
            r#"{"id": " ", "errorMessage": "m"}"#,
            r#"{"errorMessage": "m"}"#,
            r#"{"id": "a", "errorMessage": ""}"#,
            r#"{"id": "a", "errorMessage": "m", "lineNumber": 1.5}"#,
            r#"{"id": "a", "errorMessage": "m", "lineNumber": -1}"#,
            r#"{"id": "a", "errorMessage": "m", "httpStatus": 70000}"#,
            r#"{"id": "a", "errorMessage": "m\ud800"}"#,
            r#"{"id": "a", "errorMessage": "m	tab"}"#,
            r#"{"id": "a", "errorMessage": "m"} x"#,
            r#"{"id": "a", "errorMessage": "m",}"#,
            r#"{"datasetVersion": "v", "record": {"id": "a", "errorMessage": "m"}}"#,
            r#"{"record": {"id": "a", "errorMessage": "m"}, "record": {}}"#,
            r#"{"record": 5}"#,
            r#"[{"id": "a", "errorMessage": "m"}]"#,
            r#"{"id": "a", "errorMessage": "m", "x": [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]}"#,
        ];
        for text in leaves {
            assert_eq!(read(Path::new("d/r.json"), text, 0, Positions::Found), None, "{text}");
            agrees(text);
        }
    }

    #[test]
    fn reads_wrapped_and_bare_records_with_their_positions() {
        let text = "{\"record\":{\"id\":\"a1\",\"errorMessage\":\"boom %d\",\"severity\":\"fatal\",\n  \"errorType\":\"weird\",\
                    \"errorCode\":null,\"solutions\":[\"x\", \"\\u00e9\\n\"],\"unknownField\":{\"deep\":[1, true, \"\\\"\"]}},\
                    \n\"datasetVersion\":\"v1\", \"other\": [-3, {}]}\n";
        let fast = read(Path::new("d/r.json"), text, 0, Positions::Found).expect("the fast path");
        assert_eq!(fast.record.dataset_version.as_deref(), Some("v1"));
        assert_eq!(fast.record.solutions[..], [Text::from("x"), Text::from("é\n")]);
        assert_eq!(fast.origin.position("errorType"), (2, 15));
        agrees(text);
        let bare =
            "  {\"id\": \"é\", \"errorMessage\": \"\",\r\n\t\"messagePattern\": \"p (.+)\", \"datasetVersion\": \"v\"}";
        let fast = read(Path::new("d/r.json"), bare, 2, Positions::Found).expect("the fast path");
        assert_eq!((fast.origin.line, fast.origin.column), (3, 3));
        assert_eq!(fast.origin.position("messagePattern"), (4, 20));
        agrees(bare);
    }

    /// JSON text for a value: strings with escapes, numbers, nesting.
    fn value() -> impl Strategy<Value = String> {
        let leaf = prop_oneof![
            Just("null".to_owned()),
            Just("true".to_owned()),
            Just("false".to_owned()),
            (0u64..100_000).prop_map(|n| n.to_string()),
            Just("-7".to_owned()),
            Just("1.5".to_owned()),
            Just("007".to_owned()),
            Just("1e3".to_owned()),
            "[a-z %\"\\\\/\u{e9}\u{1F600}\t\n\u{1}]{0,8}".prop_map(|s| serde_json::to_string(&s).unwrap()),
            Just(r#""\u00e9\ud83d\ude00\/\b""#.to_owned()),
            Just(r#""bad \x escape""#.to_owned()),
            Just("\"raw\ttab\"".to_owned()),
        ];
        leaf.prop_recursive(3, 16, 4, |inner| {
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..4).prop_map(|items| format!("[{}]", items.join(","))),
                prop::collection::vec(("[a-z]{1,3}", inner), 0..4).prop_map(|members| {
                    let members: Vec<String> = members.into_iter().map(|(k, v)| format!("\"{k}\": {v}")).collect();
                    format!("{{{}}}", members.join(","))
                }),
            ]
        })
    }

    /// A record object: schema keys (and some others) with values of the
    /// right type mostly, separated by random whitespace.
    fn document() -> impl Strategy<Value = String> {
        let key = prop_oneof![
            8 => prop::sample::select(KEYS.to_vec()).prop_map(str::to_owned),
            1 => Just("unknownKey".to_owned()),
            1 => Just("record".to_owned()),
        ];
        let space = prop::sample::select(vec!["", " ", "\n", "\r\n  ", "\t"]);
        let string = "[a-z %\u{e9}]{0,6}".prop_map(|s| serde_json::to_string(&s).unwrap());
        let typed = prop_oneof![
            3 => string.clone(),
            1 => prop::collection::vec(string, 0..3).prop_map(|items| format!("[{}]", items.join(", "))),
            1 => (0u32..70_000).prop_map(|n| n.to_string()),
            1 => value(),
        ];
        let members = prop::collection::vec((key, typed, space.clone(), space.clone()), 0..12);
        (members, "[a-z ]{0,4}", any::<bool>(), space, any::<bool>()).prop_map(
            |(members, id, wrapped, space, version)| {
                let mut parts = vec![format!("\"id\":{space}\"{id}\""), "\"errorMessage\": \"m %d\"".to_owned()];
                parts.extend(members.into_iter().map(|(k, v, a, b)| format!("{a}\"{k}\"{b}:{a}{v}{b}")));
                let object = format!("{{{}}}", parts.join(","));
                match (wrapped, version) {
                    (true, true) => format!("{{\"record\":{space}{object}, \"datasetVersion\": \"v\"}}"),
                    (true, false) => format!("{{\"record\":{object}}}{space}"),
                    (false, _) => format!("{space}{object}"),
                }
            },
        )
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]

        #[test]
        fn the_fast_path_reads_what_the_general_path_reads(text in document()) {
            agrees(&text);
        }

        #[test]
        fn any_value_is_skipped_as_serde_json_reads_it(value in value()) {
            let text = format!("{{\"id\": \"a\", \"errorMessage\": \"m\", \"extra\": {value}}}");
            let fast = read(Path::new("d/r.json"), &text, 0, Positions::Found);
            let valid = serde_json::from_str::<serde_json::Value>(&value).is_ok();
            prop_assert!(fast.is_none() || valid, "{}", value);
            agrees(&text);
        }
    }
}
