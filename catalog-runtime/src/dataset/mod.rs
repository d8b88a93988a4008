//! Reading datasets: record files to [`Record`]s with where each came from.
//!
//! Loading records from JSON files: one record per `*.json` file, one per line
//! in `*.jsonl` files, directories walked recursively in sorted path order.
//!
//! Loading never stops at the first problem: every bad field of every file is
//! reported, and every good record is kept.

use std::fs;
use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::diagnostic::{line_column, Diagnostic};
use crate::model::{Record, Text};
use json_spans::{key_spans, record_start, KeySpans};
use record_reader::read_record;

mod json_spans;
pub(crate) mod limits;
mod names;
mod record_reader;

pub(crate) use names::read_names;
pub use names::{Names, Pin, PinnedField, NAMES_FILE};

/// Where a record was read from.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(any(feature = "serde", feature = "cache"), derive(serde::Serialize, serde::Deserialize))]
pub struct Origin {
    /// The file, as named to the loader.
    pub path: PathBuf,
    /// 1-based line of the record's opening brace.
    pub line: usize,
    /// 1-based column of the record's opening brace.
    pub column: usize,
    /// Line and column of each field's value, by JSON key.
    pub fields: Vec<(String, (usize, usize))>,
}

impl Origin {
    /// Line and column of `field`, or of the record when the field is absent.
    pub fn position(&self, field: &str) -> (usize, usize) {
        self.fields.iter().find(|(key, _)| key == field).map_or((self.line, self.column), |(_, pos)| *pos)
    }

    /// A diagnostic about `field` of this record.
    pub fn error(&self, field: &str, message: impl Into<String>) -> Diagnostic {
        Diagnostic::error(self.path.clone(), self.position(field), message).in_field(field)
    }
}

/// A record and where it came from.
#[derive(Clone, Debug, PartialEq)]
pub struct SourcedRecord {
    /// The record.
    pub record: Record,
    /// Where it was read.
    pub origin: Origin,
}

/// What loading a dataset produced: the good records and every problem.
#[derive(Clone, Debug, Default)]
pub struct Loaded {
    /// Records that could be read, in sorted path (then line) order.
    pub records: Vec<SourcedRecord>,
    /// Every file read, in the same order, then the names file if there is
    /// one (for rebuild tracking).
    pub files: Vec<PathBuf>,
    /// The names pinned by the directory's names file ([`NAMES_FILE`]);
    /// empty when it has none.
    pub names: Names,
    /// Every problem found.
    pub diagnostics: Vec<Diagnostic>,
}

/// Loads every `*.json` and `*.jsonl` file under `dir`, recursively, in sorted
/// path order, and `dir`'s names file ([`NAMES_FILE`]) if it has one. Paths
/// in the result are `dir`'s path joined with the file's path below it; a
/// missing or empty directory is a diagnostic.
///
/// ```
/// let loaded = catalog_runtime::load_dir("../data/nats-io/nats-server".as_ref());
/// assert_eq!((loaded.records.len(), loaded.files.len()), (3, 3));
/// assert!(loaded.diagnostics.is_empty());
/// let missing = catalog_runtime::load_dir("no/such/dir".as_ref());
/// assert!(missing.diagnostics[0].message.starts_with("cannot open the record directory"));
/// ```
pub fn load_dir(dir: &Path) -> Loaded {
    load_listed(dir, record_files(dir).map(|files| files.iter().map(fs::DirEntry::path).collect()))
}

/// [`load_dir`], except that records read without a problem have no field
/// positions ([`Origin::fields`] empty: [`Origin::position`] gives the
/// record's). For the `#[catalog]` macro, which reports problems only (it
/// loads again with [`load_dir`] when there are any) and runs unoptimised in
/// a user's debug build, where the positions were a third of the reading.
pub fn load_dir_unplaced(dir: &Path) -> Loaded {
    let files = record_files(dir).map(|files| files.iter().map(fs::DirEntry::path).collect());
    load_listed_with(dir, files, Positions::Skipped)
}

/// Whether records read get their field positions.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Positions {
    Found,
    Skipped,
}

/// Loads `files`, the paths of [`record_files`] for `dir` (the cache lists
/// and stats the files before it decides whether to read them).
pub(crate) fn load_listed(dir: &Path, files: Result<Vec<PathBuf>, String>) -> Loaded {
    load_listed_with(dir, files, Positions::Found)
}

fn load_listed_with(dir: &Path, files: Result<Vec<PathBuf>, String>, positions: Positions) -> Loaded {
    let mut loaded = Loaded::default();
    let files = match files {
        Ok(files) => files,
        Err(message) => {
            loaded.diagnostics.push(Diagnostic::error(dir, (1, 1), message));
            return loaded;
        }
    };
    if files.is_empty() {
        loaded.diagnostics.push(Diagnostic::error(dir, (1, 1), "no record files (*.json, *.jsonl) in this directory"));
    }
    for file in files {
        match read_limited(&file) {
            Ok(bytes) => load_bytes_with(&file, &bytes, &mut loaded, positions),
            Err(message) => loaded.diagnostics.push(Diagnostic::error(&file, (1, 1), message)),
        }
        loaded.files.push(file);
    }
    let (names, names_file) = read_names(dir, &mut loaded.diagnostics);
    loaded.names = names;
    loaded.files.extend(names_file);
    loaded
}

/// The contents of a record file, unless it is larger than
/// [`MAX_FILE_BYTES`](limits::MAX_FILE_BYTES).
fn read_limited(path: &Path) -> Result<Vec<u8>, String> {
    use std::io::Read;
    let limit = limits::MAX_FILE_BYTES;
    let file = fs::File::open(path).map_err(|err| format!("cannot read file: {err}"))?;
    let mut bytes = Vec::new();
    // `take` holds to the limit even if the file grows while it is read.
    file.take(limit + 1).read_to_end(&mut bytes).map_err(|err| format!("cannot read file: {err}"))?;
    if bytes.len() as u64 > limit {
        return Err(format!("the file is larger than {} MiB, the limit for a record file", limit >> 20));
    }
    Ok(bytes)
}

/// The record files under `dir` in the order [`load_dir`] reads them: hidden
/// entries skipped, `*.json` and `*.jsonl`, sorted by path, recursively. Each
/// entry's path is `dir` joined with the file's path below it.
pub(crate) fn record_files(dir: &Path) -> Result<Vec<fs::DirEntry>, String> {
    record_files_and_dirs(dir, &mut Vec::new())
}

/// [`record_files`], and every directory walked (`dir` first), with its
/// metadata as it was before it was listed: a listing is current while
/// these stay the same, since adding, removing or renaming an entry
/// changes its directory's modification time.
pub(crate) fn record_files_and_dirs(
    dir: &Path,
    dirs: &mut Vec<(PathBuf, fs::Metadata)>,
) -> Result<Vec<fs::DirEntry>, String> {
    let mut files = Vec::new();
    collect_files(dir, &mut files, &mut Vec::new(), dirs)?;
    Ok(files)
}

/// Adds the record files under `dir` to `files`. `ancestors` are the
/// directories being walked (real path, path as walked), to stop at a
/// symbolic link that leads back into one of them: the walk would never end.
fn collect_files(
    dir: &Path,
    files: &mut Vec<fs::DirEntry>,
    ancestors: &mut Vec<(PathBuf, PathBuf)>,
    dirs: &mut Vec<(PathBuf, fs::Metadata)>,
) -> Result<(), String> {
    let metadata = fs::metadata(dir).map_err(|err| format!("cannot open the record directory: {err}"))?;
    if !metadata.is_dir() {
        return Err("not a directory".to_owned());
    }
    dirs.push((dir.to_owned(), metadata));
    let real = fs::canonicalize(dir).map_err(|err| format!("cannot open the record directory: {err}"))?;
    if let Some((_, walked)) = ancestors.iter().find(|(ancestor, _)| *ancestor == real) {
        return Err(format!("symbolic link loop: `{}` leads back to `{}`", dir.display(), walked.display()));
    }
    ancestors.push((real, dir.to_owned()));
    // Sorted by name, which within one directory is the order of their paths.
    let mut entries: Vec<(std::ffi::OsString, fs::DirEntry)> = fs::read_dir(dir)
        .map_err(|err| format!("cannot list the record directory: {err}"))?
        .filter_map(|entry| entry.ok().map(|entry| (entry.file_name(), entry)))
        .collect();
    entries.sort_unstable_by(|(a, _), (b, _)| a.cmp(b));
    for (name, entry) in entries {
        if is_hidden(&name) {
            continue;
        }
        // The listing gives each entry's type without a stat (a start-up cost
        // over thousands of files); a symbolic link is followed, as
        // `Path::is_dir` does.
        let path = entry.path();
        let is_dir = match entry.file_type() {
            Ok(file_type) if !file_type.is_symlink() => file_type.is_dir(),
            _ => path.is_dir(),
        };
        if is_dir {
            collect_files(&path, files, ancestors, dirs)?;
        } else if is_record_file(&path) {
            files.push(entry);
        }
    }
    ancestors.pop();
    Ok(())
}

/// Whether the walk skips an entry of this name (`.git`, editors' files).
pub(crate) fn is_hidden(name: &std::ffi::OsStr) -> bool {
    name.as_encoded_bytes().starts_with(b".")
}

/// Whether the walk reads the file at `path` as records.
pub(crate) fn is_record_file(path: &Path) -> bool {
    matches!(path.extension().and_then(|e| e.to_str()), Some("json" | "jsonl"))
}

/// Reads the records of one file's contents into `loaded` (`*.jsonl`: one per
/// non-blank line; otherwise one per file).
pub fn load_bytes(path: &Path, bytes: &[u8], loaded: &mut Loaded) {
    load_bytes_with(path, bytes, loaded, Positions::Found);
}

fn load_bytes_with(path: &Path, bytes: &[u8], loaded: &mut Loaded, positions: Positions) {
    let text = match std::str::from_utf8(bytes) {
        Ok(text) => text,
        Err(err) => {
            let offset = err.valid_up_to();
            let pos = line_column(&String::from_utf8_lossy(&bytes[..offset]), offset);
            loaded.diagnostics.push(Diagnostic::error(path, pos, "the file is not valid UTF-8"));
            return;
        }
    };
    if path.extension().and_then(|e| e.to_str()) == Some("jsonl") {
        for (index, line) in text.split_inclusive('\n').enumerate() {
            if !line.trim().is_empty() {
                load_document(path, line, index, loaded, positions);
            }
        }
    } else {
        load_document(path, text, 0, loaded, positions);
    }
}

/// Parses one JSON document that starts at line `first_line` (0-based) of
/// the file: through a `serde_json::Value`, then the keys' positions found in
/// the text. Every problem is reported.
fn load_document(path: &Path, text: &str, first_line: usize, loaded: &mut Loaded, positions: Positions) {
    let at = |offset: usize| {
        let (line, column) = line_column(text, offset);
        (line + first_line, column)
    };
    let value: Value = match serde_json::from_str(text) {
        Ok(value) => value,
        Err(err) => {
            let pos = (err.line() + first_line, err.column().max(1));
            // serde_json ends its message with the position, which the diagnostic already shows.
            let message = err.to_string();
            let message = message.rsplit_once(" at line ").map_or(message.as_str(), |(text, _)| text);
            loaded.diagnostics.push(Diagnostic::error(path, pos, format!("malformed JSON: {message}")));
            return;
        }
    };
    let spans = match positions {
        Positions::Found => key_spans(text),
        // The keys' offsets were most of the reading in the macro's unoptimised build.
        Positions::Skipped => {
            KeySpans { record: record_start(text, value.get("record").is_some()), ..KeySpans::default() }
        }
    };
    let dataset_version = value.get("datasetVersion").and_then(Value::as_str).map(|v| Text::Owned(v.to_owned()));
    let object = match value.get("record").unwrap_or(&value) {
        Value::Object(object) => object,
        other => {
            let diagnostic = Diagnostic::error(
                path,
                at(spans.record),
                format!("expected a record object, found {}", kind_of(other)),
            );
            loaded.diagnostics.push(diagnostic.in_field("record"));
            return;
        }
    };
    let (record_line, record_column) = at(spans.record);
    let origin = Origin {
        path: path.to_owned(),
        line: record_line,
        column: record_column,
        fields: sorted_positions(text, &spans, first_line),
    };
    match read_record(object, &origin) {
        Ok(mut record) => {
            // The version beside the record describes the export it came in.
            if dataset_version.is_some() {
                record.dataset_version = dataset_version;
            }
            loaded.records.push(SourcedRecord { record, origin });
        }
        Err(mut problems) => loaded.diagnostics.append(&mut problems),
    }
}

/// Line and column of every key's value (an offset past the text has none),
/// sorted by key, in time linear in the text (datasets have thousands of
/// records of dozens of keys each). The text between two keys is searched
/// for line breaks and its characters counted by `str`'s own routines,
/// which are optimised even in the unoptimised build that runs the macro (a
/// loop over `char_indices` was a tenth of the macro's time there).
fn sorted_positions(text: &str, spans: &KeySpans, first_line: usize) -> Vec<(String, (usize, usize))> {
    let mut by_offset: Vec<(usize, &String)> = spans.keys.iter().map(|(key, &offset)| (offset, key)).collect();
    by_offset.sort();
    let mut fields = Vec::with_capacity(by_offset.len());
    // Line and column (both from 1) at byte `at`.
    let (mut line, mut column, mut at) = (1, 1, 0);
    for (offset, key) in by_offset {
        if offset > text.len() {
            break;
        }
        // An offset inside a character stands for the character after it
        // (the text's end is a boundary).
        let mut offset = offset;
        while !text.is_char_boundary(offset) {
            offset += 1;
        }
        let between = &text[at..offset];
        match between.rfind('\n') {
            Some(last) => {
                line += between.matches('\n').count();
                column = between[last + 1..].chars().count() + 1;
            }
            None => column += between.chars().count(),
        }
        at = offset;
        fields.push((key.clone(), (line + first_line, column)));
    }
    fields.sort();
    fields
}

pub(super) fn kind_of(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{ErrorType, Severity};

    #[test]
    fn positions_count_lines_and_characters_as_a_walk_over_the_characters_does() {
        // The walk `sorted_positions` replaced, as the reference.
        fn walked(text: &str, offsets: &[usize]) -> Vec<(usize, usize)> {
            let (mut line, mut column, mut found) = (1, 1, Vec::new());
            let mut wanted = offsets.iter().copied().peekable();
            for (offset, c) in text.char_indices().chain(std::iter::once((text.len(), ' '))) {
                while wanted.next_if(|want| *want <= offset).is_some() {
                    found.push((line, column));
                }
                if c == '\n' {
                    (line, column) = (line + 1, 1);
                } else {
                    column += 1;
                }
            }
            found
        }
        let texts =
            ["", "abc", "a\nb\n\nc", "a\r\nb\r\n\r\nc", "é\n€x\n\u{1F600}y z\n", "\n\n", "{\"k\": \"v\",\n  \"é\": 1}"];
        for (text, first_line) in texts.into_iter().flat_map(|text| [(text, 0), (text, 5)]) {
            let offsets: Vec<usize> = (0..=text.len() + 2).collect();
            let keys = offsets.iter().map(|&o| (format!("k{o:03}"), o)).collect();
            let spans = KeySpans { record: 0, keys };
            let positions: Vec<(usize, usize)> =
                sorted_positions(text, &spans, first_line).into_iter().map(|(_, position)| position).collect();
            let within: Vec<usize> = offsets.into_iter().filter(|&o| o <= text.len()).collect();
            let expected: Vec<(usize, usize)> =
                walked(text, &within).into_iter().map(|(line, column)| (line + first_line, column)).collect();
            assert_eq!(positions, expected, "{text:?}");
        }
    }

    #[test]
    fn reads_wrapped_and_bare_records_with_their_positions() {
        let text = "{\"record\":{\"id\":\"a1\",\"errorMessage\":\"boom %d\",\"severity\":\"fatal\",\n  \"errorType\":\"weird\",\
                    \"errorCode\":null,\"solutions\":[\"x\", \"\\u00e9\\n\"],\"unknownField\":{\"deep\":[1, true, \"\\\"\"]}},\
                    \n\"datasetVersion\":\"v1\", \"other\": [-3, {}]}\n";
        let loaded = load("d/r.json", text);
        assert!(loaded.diagnostics.is_empty(), "{:?}", loaded.diagnostics);
        let read = &loaded.records[0];
        assert_eq!(read.record.dataset_version.as_deref(), Some("v1"));
        assert_eq!(read.record.solutions[..], [Text::from("x"), Text::from("é\n")]);
        assert_eq!(read.origin.position("errorType"), (2, 15));
        let bare = "\n\n  {\"id\": \"é\", \"errorMessage\": \"\",\r\n\t\"messagePattern\": \"p (.+)\", \"datasetVersion\": \"v\"}";
        let loaded = load("d/r.json", bare);
        assert!(loaded.diagnostics.is_empty(), "{:?}", loaded.diagnostics);
        let read = &loaded.records[0];
        assert_eq!((read.origin.line, read.origin.column), (3, 3));
        assert_eq!(read.origin.position("messagePattern"), (4, 20));
    }

    fn load(name: &str, text: &str) -> Loaded {
        let mut loaded = Loaded::default();
        load_bytes(Path::new(name), text.as_bytes(), &mut loaded);
        loaded
    }

    #[test]
    fn reads_a_wrapped_record_with_nulls_and_unknown_fields() {
        let text = r#"{"record":{"id":"a1","errorMessage":"boom %d","severity":"fatal","errorType":"weird",
            "errorCode":null,"solutions":["x"],"unknownField":{"deep":[1]}},"datasetVersion":"v1"}"#;
        let loaded = load("a.json", text);
        assert!(loaded.diagnostics.is_empty(), "{:?}", loaded.diagnostics);
        let record = &loaded.records[0].record;
        assert_eq!(record.id, "a1");
        assert_eq!(record.severity, Some(Severity::Fatal));
        assert_eq!(record.error_type, Some(ErrorType::Other("weird".into())));
        assert_eq!(record.solutions.len(), 1);
        assert_eq!(record.dataset_version.as_deref(), Some("v1"));
        assert!(record.tags.is_empty());
    }

    #[test]
    fn reports_every_bad_field_with_its_position() {
        let text = "{\"record\":{\"id\":\"a1\",\n  \"errorMessage\": 5,\n  \"lineNumber\": \"x\",\n  \"tags\": [1]}}";
        let loaded = load("dir/a.json", text);
        assert!(loaded.records.is_empty());
        let shown: Vec<String> = loaded.diagnostics.iter().map(ToString::to_string).collect();
        assert!(
            shown.contains(&"dir/a.json:2:19: field `errorMessage`: expected a string, found a number".to_owned()),
            "{shown:?}"
        );
        assert!(shown.iter().any(|d| d.starts_with("dir/a.json:3:17: field `lineNumber`")), "{shown:?}");
        assert!(shown.iter().any(|d| d.starts_with("dir/a.json:4:11: field `tags`")), "{shown:?}");
    }

    #[test]
    fn reports_malformed_json_and_missing_fields() {
        let loaded = load("b.json", "{\"record\": {\"id\": \"x\",}");
        assert!(
            loaded.diagnostics[0].to_string().starts_with("b.json:1:23: malformed JSON"),
            "{:?}",
            loaded.diagnostics
        );
        let loaded = load("c.json", "{\"record\": {\"severity\": \"error\"}}");
        let shown: Vec<String> = loaded.diagnostics.iter().map(ToString::to_string).collect();
        assert_eq!(shown.len(), 2, "{shown:?}");
        assert!(shown[0].starts_with("c.json:1:12: field `id`: missing required field"), "{shown:?}");
    }

    #[test]
    fn walks_directories_recursively_in_sorted_order() {
        let root = std::env::temp_dir().join(format!("catalog-load-{}", std::process::id()));
        let write = |path: &str, text: &str| {
            let path = root.join(path);
            fs::create_dir_all(path.parent().unwrap()).unwrap();
            fs::write(path, text).unwrap();
        };
        let record = |id: &str| format!("{{\"id\":\"{id}\",\"errorMessage\":\"m {id}\"}}");
        write("b/z.json", &record("bz"));
        write("a.json", &record("a"));
        write("b/c/d.jsonl", &format!("{}\n{}\n", record("d1"), record("d2")));
        write("b/.hidden.json", &record("hidden"));
        write("b/notes.txt", "not a record");
        let loaded = load_dir(&root);
        fs::remove_dir_all(&root).unwrap();
        assert!(loaded.diagnostics.is_empty(), "{:?}", loaded.diagnostics);
        let ids: Vec<&str> = loaded.records.iter().map(|r| r.record.id.as_ref()).collect();
        assert_eq!(ids, ["a", "d1", "d2", "bz"]);
        assert_eq!(loaded.files.len(), 3);
    }

    #[test]
    fn reads_jsonl_with_line_numbers() {
        let text = "{\"id\":\"a\",\"errorMessage\":\"m\"}\n\n{\"id\":\"b\",\"errorMessage\":7}\n{\"id\":\"c\",\"messagePattern\":\"p\"}\n";
        let loaded = load("r.jsonl", text);
        assert_eq!(loaded.records.len(), 2);
        assert_eq!(loaded.records[1].origin.line, 4);
        assert_eq!(loaded.diagnostics[0].line, 3);
    }
}
