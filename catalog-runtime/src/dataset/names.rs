//! The names file of a dataset: the variant and field names its records
//! keep, whatever records are added or removed.
//!
//! A generated enum is public API, and the naming rule gives a record a
//! longer name as soon as another record's message starts with the same
//! words. A dataset with a names file ([`NAMES_FILE`] in its directory, as
//! `errcat names DIR` writes it) pins every record it lists to its names;
//! only records it does not list are named by the rule (see `crate::build`).
//!
//! The format is line-oriented so that a change reviews as a diff: `#`
//! comments and blank lines, then one record per line, sorted by id:
//!
//! ```text
//! # error-catalog names ...
//! 443048c6cb7c33f3 CreateQos2IncomingMessagesStreamForAccount acc_name:String err:String
//! 59aa3418e32dd765 Qos1InFlightWindowIsFull mqtt_max_acks_in_flight:i64 jsa_timeout:String
//! ```
//!
//! An id that is not one plain word (spaces, a leading `#` or `"`) is
//! written as a JSON string.

use std::collections::HashMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use crate::diagnostic::Diagnostic;
use crate::entry::Entry;
use crate::model::is_identifier;

/// The names file's name, in the dataset directory. Not `*.json`, so the
/// record loader never reads it as a record.
pub const NAMES_FILE: &str = "error-catalog.names";

/// The largest names file read, in bytes (a line per record: the 2,008
/// nats-server records take about 150 KiB).
const MAX_NAMES_BYTES: u64 = 16 << 20;

/// The Rust types a pinned field may have, as [`ValueKind::rust_type`](crate::ValueKind::rust_type) names them,
/// and `i64`, which names files written before integer fields were `i128` have.
const FIELD_TYPES: [&str; 6] = ["String", "ByteString", "i128", "f64", "bool", "i64"];

/// The names pinned by a dataset's names file; empty when it has none.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Names {
    /// The names file, when the dataset has one.
    pub path: Option<PathBuf>,
    /// The pins, in file order, each id and variant name once (a line that
    /// repeats either is an error and is left out).
    pub pins: Vec<Pin>,
}

/// One record's pinned names: a line of the names file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pin {
    /// The record id.
    pub id: String,
    /// The variant name.
    pub variant: String,
    /// The fields, in placeholder order.
    pub fields: Vec<PinnedField>,
    /// 1-based line in the names file (0 for pins not read from a file).
    pub line: usize,
}

/// A pinned field: its name and the Rust type it had when pinned.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PinnedField {
    /// The field name.
    pub name: String,
    /// `String`, `i64`, `f64` or `bool`.
    pub rust_type: String,
}

impl Names {
    /// The pin of record `id`, if any.
    pub fn pin(&self, id: &str) -> Option<&Pin> {
        self.pins.iter().find(|pin| pin.id == id)
    }

    /// Whether no name is pinned.
    pub fn is_empty(&self) -> bool {
        self.pins.is_empty()
    }

    /// The pins of `entries`' names as they are (what `errcat names` writes).
    pub fn of_entries<'e>(entries: impl IntoIterator<Item = &'e Entry>) -> Names {
        let mut pins: Vec<Pin> = entries
            .into_iter()
            .map(|entry| Pin {
                id: entry.record().id.to_string(),
                variant: entry.name.to_string(),
                fields: entry
                    .template
                    .fields
                    .iter()
                    .map(|field| PinnedField {
                        name: field.name.to_string(),
                        rust_type: field.kind.rust_type().to_owned(),
                    })
                    .collect(),
                line: 0,
            })
            .collect();
        pins.sort_by(|a, b| a.id.cmp(&b.id));
        Names { path: None, pins }
    }

    /// The names file's text: a header, then one line per pin, sorted by id.
    /// The same pins always give the same text.
    pub fn to_text(&self) -> String {
        let mut pins: Vec<&Pin> = self.pins.iter().collect();
        pins.sort_by(|a, b| a.id.cmp(&b.id));
        let mut text = String::from(HEADER);
        for pin in pins {
            text.push_str(&write_id(&pin.id));
            text.push(' ');
            text.push_str(&pin.variant);
            for field in &pin.fields {
                let _ = write!(text, " {}:{}", field.name, field.rust_type);
            }
            text.push('\n');
        }
        text
    }

    /// Reads a names file's text; every problem (with its line and column)
    /// goes to `diagnostics`, and the lines in error are left out.
    pub fn parse(path: &Path, text: &str, diagnostics: &mut Vec<Diagnostic>) -> Names {
        let mut names = Names { path: Some(path.to_owned()), pins: Vec::new() };
        // Indexes into `names.pins` by id and by variant: a names file has a
        // line per record, thousands, read by an unoptimised macro in most
        // builds, so no search over the lines read so far.
        let mut by_id: HashMap<String, usize> = HashMap::new();
        let mut by_variant: HashMap<String, usize> = HashMap::new();
        for (index, line) in text.lines().enumerate() {
            let number = index + 1;
            let trimmed = line.trim_start();
            if trimmed.is_empty() || trimmed.starts_with('#') {
                continue;
            }
            let indent = line.len() - trimmed.len();
            match parse_line(trimmed) {
                Ok(pin) => {
                    let pin = Pin { line: number, ..pin };
                    if let Some(first) = by_id.get(&pin.id).map(|&i| &names.pins[i]) {
                        let message = format!(
                            "record `{}` is pinned twice (first on line {}): keep one line",
                            pin.id, first.line
                        );
                        diagnostics.push(Diagnostic::error(path, (number, indent + 1), message));
                    } else if let Some(first) = by_variant.get(&pin.variant).map(|&i| &names.pins[i]) {
                        let message = format!(
                            "variant name `{}` is pinned to two records, `{}` (line {}) and `{}`: \
                             each record needs a name of its own",
                            pin.variant, first.id, first.line, pin.id
                        );
                        diagnostics.push(Diagnostic::error(path, (number, indent + 1), message));
                    } else {
                        by_id.insert(pin.id.clone(), names.pins.len());
                        by_variant.insert(pin.variant.clone(), names.pins.len());
                        names.pins.push(pin);
                    }
                }
                Err((column, message)) => {
                    diagnostics.push(Diagnostic::error(path, (number, indent + column), message));
                }
            }
        }
        names
    }
}

const HEADER: &str = "\
# error-catalog names: the variant and field names of this dataset's records.
# Written by `errcat names DIR`; commit it. A record listed here keeps these
# names whatever records are added to or removed from the dataset; a record
# not listed is named by the usual rule, avoiding every name listed here.
# One record per line, sorted by id: <id> <VariantName> [<field>:<type> ...]
";

/// Reads `DIR/error-catalog.names`, if there is one: its names, and the path
/// read (for rebuild tracking). A names file that cannot be read or parsed
/// is a diagnostic.
pub(crate) fn read_names(dir: &Path, diagnostics: &mut Vec<Diagnostic>) -> (Names, Option<PathBuf>) {
    use std::io::Read;
    let path = dir.join(NAMES_FILE);
    if !path.is_file() {
        return (Names::default(), None);
    }
    let mut bytes = Vec::new();
    let read = std::fs::File::open(&path).and_then(|file| file.take(MAX_NAMES_BYTES + 1).read_to_end(&mut bytes));
    let problem = match read {
        Err(err) => Some(format!("cannot read the names file: {err}")),
        Ok(_) if bytes.len() as u64 > MAX_NAMES_BYTES => {
            Some(format!("the names file is larger than {} MiB", MAX_NAMES_BYTES >> 20))
        }
        Ok(_) => None,
    };
    if let Some(message) = problem {
        diagnostics.push(Diagnostic::error(&path, (1, 1), message));
        return (Names { path: Some(path.clone()), pins: Vec::new() }, Some(path));
    }
    match std::str::from_utf8(&bytes) {
        Ok(text) => (Names::parse(&path, text, diagnostics), Some(path)),
        Err(err) => {
            let before = String::from_utf8_lossy(&bytes[..err.valid_up_to()]);
            let position = crate::diagnostic::line_column(&before, before.len());
            diagnostics.push(Diagnostic::error(&path, position, "the names file is not valid UTF-8"));
            (Names { path: Some(path.clone()), pins: Vec::new() }, Some(path))
        }
    }
}

/// The id as written: bare when it is one plain word, else a JSON string.
fn write_id(id: &str) -> String {
    let plain = !id.is_empty()
        && !id.starts_with(['#', '"'])
        && id.chars().all(|c| c.is_ascii_graphic() || (!c.is_ascii() && !c.is_whitespace() && !c.is_control()));
    if plain {
        id.to_owned()
    } else {
        serde_json::Value::String(id.to_owned()).to_string()
    }
}

/// A problem on a line: 1-based column in the line, and what is wrong.
type LineError = (usize, String);

/// One pin line (without its leading blanks); `line` is set by the caller.
fn parse_line(text: &str) -> Result<Pin, LineError> {
    let (id, rest, rest_column) = read_id(text)?;
    let mut words = words(rest).map(|(offset, word)| (rest_column + offset, word));
    let Some((column, variant)) = words.next() else {
        return Err((
            text.len() + 1,
            format!("record `{id}` has no variant name: write `<id> <VariantName> [<field>:<type> ...]`"),
        ));
    };
    if !is_identifier(variant) {
        return Err((
            column,
            format!("`{variant}` cannot name a variant: use letters, digits and `_`, not a Rust keyword"),
        ));
    }
    let mut fields: Vec<PinnedField> = Vec::new();
    for (column, word) in words {
        let Some((name, rust_type)) = word.split_once(':') else {
            return Err((column, format!("expected `<field>:<type>`, found `{word}`")));
        };
        if !is_identifier(name) {
            return Err((
                column,
                format!("`{name}` cannot name a field: use letters, digits and `_`, not a Rust keyword"),
            ));
        }
        if !FIELD_TYPES.contains(&rust_type) {
            let column = column + name.len() + 1;
            return Err((
                column,
                format!("unknown field type `{rust_type}`; expected one of {}", FIELD_TYPES.join(", ")),
            ));
        }
        if fields.iter().any(|field| field.name == name) {
            return Err((column, format!("field `{name}` is listed twice")));
        }
        fields.push(PinnedField { name: name.to_owned(), rust_type: rust_type.to_owned() });
    }
    Ok(Pin { id, variant: variant.to_owned(), fields, line: 0 })
}

/// The id at the start of `text` (bare, or a JSON string), the text after
/// it, and that text's 1-based column.
fn read_id(text: &str) -> Result<(String, &str, usize), LineError> {
    if !text.starts_with('"') {
        let end = text.find(char::is_whitespace).unwrap_or(text.len());
        return Ok((text[..end].to_owned(), &text[end..], end + 1));
    }
    let mut stream = serde_json::Deserializer::from_str(text).into_iter::<String>();
    match stream.next() {
        Some(Ok(id)) => {
            let end = stream.byte_offset();
            Ok((id, &text[end..], end + 1))
        }
        _ => Err((1, "malformed quoted id: expected a JSON string".to_owned())),
    }
}

/// The blank-separated words of `text`, each with its 0-based byte offset.
fn words(text: &str) -> impl Iterator<Item = (usize, &str)> {
    text.split_whitespace().map(move |word| (word.as_ptr() as usize - text.as_ptr() as usize, word))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> (Names, Vec<String>) {
        let mut diagnostics = Vec::new();
        let names = Names::parse(Path::new("d/error-catalog.names"), text, &mut diagnostics);
        (names, diagnostics.iter().map(ToString::to_string).collect())
    }

    fn pin(id: &str, variant: &str, fields: &[(&str, &str)]) -> Pin {
        let fields = fields
            .iter()
            .map(|(name, ty)| PinnedField { name: (*name).to_owned(), rust_type: (*ty).to_owned() })
            .collect();
        Pin { id: id.to_owned(), variant: variant.to_owned(), fields, line: 0 }
    }

    #[test]
    fn written_text_reads_back_the_same_pins_whatever_their_order() {
        let names = Names {
            path: None,
            pins: vec![
                pin("b2", "Second", &[]),
                pin("a 1", "First", &[("ps_id", "String"), ("seq", "i64")]),
                pin("#x", "Third", &[("ok", "bool")]),
            ],
        };
        let text = names.to_text();
        assert!(text.ends_with("\"#x\" Third ok:bool\n\"a 1\" First ps_id:String seq:i64\nb2 Second\n"), "{text}");
        let mut reversed = names.clone();
        reversed.pins.reverse();
        assert_eq!(reversed.to_text(), text);
        let (read, problems) = parse(&text);
        assert!(problems.is_empty(), "{problems:?}");
        let ids: Vec<&str> = read.pins.iter().map(|p| p.id.as_str()).collect();
        assert_eq!(ids, ["#x", "a 1", "b2"]);
        assert_eq!(read.pin("a 1").unwrap().fields, names.pins[1].fields);
        assert_eq!(read.pin("b2").unwrap().line, 8);
    }

    #[test]
    fn every_bad_line_is_reported_with_its_line_and_column() {
        let text = "# header\n\
                    a1 Good x:String\n\
                    a2\n\
                    a3 match\n\
                    a4 Fine y:u8\n\
                    a5 Fine2 z\n\
                    \"a6 Quoted\n\
                    a1 Again\n\
                    a7 Good\n\
                    a8 Dup q:i64 q:i64\n";
        let (names, problems) = parse(text);
        assert_eq!(
            problems,
            [
                "d/error-catalog.names:3:3: record `a2` has no variant name: write `<id> <VariantName> [<field>:<type> ...]`",
                "d/error-catalog.names:4:4: `match` cannot name a variant: use letters, digits and `_`, not a Rust keyword",
                "d/error-catalog.names:5:11: unknown field type `u8`; expected one of String, ByteString, i128, f64, bool, i64",
                "d/error-catalog.names:6:10: expected `<field>:<type>`, found `z`",
                "d/error-catalog.names:7:1: malformed quoted id: expected a JSON string",
                "d/error-catalog.names:8:1: record `a1` is pinned twice (first on line 2): keep one line",
                "d/error-catalog.names:9:1: variant name `Good` is pinned to two records, `a1` (line 2) and `a7`: \
                 each record needs a name of its own",
                "d/error-catalog.names:10:14: field `q` is listed twice",
            ]
        );
        assert_eq!(names.pins.len(), 1, "only the good line is kept");
    }
}
