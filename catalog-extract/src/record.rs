//! Found messages as records: the fields every language shares, the id, the
//! record files and the dataset's README.
//!
//! The field order and values are those of the datasets in `datasets/`, so
//! that a dataset regenerated from the same source keeps every record (and
//! every id) it had.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::fs;
use std::io;
use std::path::Path;
use std::sync::LazyLock;

use regex::Regex;
use sha2::{Digest, Sha256};

use crate::found::Found;

/// Where the records' source came from, and when they were made.
#[derive(Clone, Debug)]
pub struct Provenance {
    /// `owner/name` on GitHub (the id and the links use it).
    pub repo: String,
    /// The commit or release the source is (`analyzedSha`).
    pub sha: String,
    /// `analyzedAt` and `datasetVersion`.
    pub stamp: String,
}

/// One record: its id and its file's text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordFile {
    pub id: String,
    /// Single-line JSON `{"record": {...}, "datasetVersion": "..."}`.
    pub json: String,
    /// What the README counts.
    pub error_type: String,
    pub severity: String,
    pub file: String,
    pub message: String,
}

/// The id the datasets use: the first 16 hex digits of
/// sha256(repo + filePath + lineNumber + errorMessage).
pub fn record_id(repo: &str, file: &str, line: u32, message: &str) -> String {
    let digest = Sha256::digest(format!("{repo}{file}{line}{message}").as_bytes());
    digest.iter().take(8).fold(String::with_capacity(16), |mut hex, byte| {
        let _ = write!(hex, "{byte:02x}");
        hex
    })
}

/// The first 50 characters of the message, lower-cased, each run of
/// characters other than `a-z0-9` turned into `-`, trimmed of `-`.
pub fn slug(message: &str) -> String {
    let head: String = message.chars().take(50).collect::<String>().to_lowercase();
    let mut slug = String::with_capacity(head.len());
    for c in head.chars() {
        if c.is_ascii_lowercase() || c.is_ascii_digit() {
            slug.push(c);
        } else if !slug.ends_with('-') {
            slug.push('-');
        }
    }
    slug.trim_matches('-').to_string()
}

static RETRY_WORDS: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?i)time(?:d)? ?out|deadline exceeded|unavailable|try again|temporarily|temporary .*error|no responders|catching up",
    )
    .expect("a valid pattern")
});
static CONFIG_WORDS: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)must (?:be|not)|invalid|can ?not be|not allowed|requires|unsupported|too smal")
        .expect("a valid pattern")
});

/// A fixed rule, not a judgement: fatal escalates, debug and info are
/// ignored, a transient wording (and no configuration check) retries, the
/// rest fails.
pub fn handling_strategy(severity: &str, message: &str) -> &'static str {
    match severity {
        "fatal" => "escalate",
        "debug" | "info" => "ignore",
        _ if RETRY_WORDS.is_match(message) && !CONFIG_WORDS.is_match(message) => "retry",
        _ => "fail",
    }
}

/// The parts of a record its language decides.
pub struct LanguageFields {
    /// `messagePattern`.
    pub pattern: String,
    /// The first tag and the start of `backgroundTag` (most languages: the file's stem).
    pub tag: String,
}

/// `documentation`: the extractor's sentence in `Found::context` (each
/// language says in its own words what the call does, where and under which
/// condition), else "Raised by FUNCTION in FILE.".
fn documentation(found: &Found) -> String {
    match (&found.context, &found.function) {
        (Some(sentence), _) => sentence.clone(),
        (None, Some(function)) => format!("Raised by {function} in {}.", found.file),
        (None, None) => format!("Raised in {}.", found.file),
    }
}

/// The record file of one found message.
pub fn record_file(found: &Found, fields: &LanguageFields, provenance: &Provenance) -> RecordFile {
    let Provenance { repo, sha, stamp } = provenance;
    let id = record_id(repo, &found.file, found.line, &found.message);
    let (start, end) = found.call_lines;
    let tag = &fields.tag;
    let error_type = &found.error_type;
    let mut record = JsonObject::default();
    record.string("id", &id);
    record.string("repo", repo);
    record.string("slug", &slug(&found.message));
    record.optional("errorCode", found.error_code.as_deref());
    record.string("errorMessage", &found.message);
    record.string("messagePattern", &fields.pattern);
    record.string("errorType", error_type);
    record.optional("errorClass", found.error_class.as_deref());
    record.raw("httpStatus", "null");
    record.string("severity", &found.severity);
    record.string("filePath", &found.file);
    record.raw("lineNumber", &found.line.to_string());
    record.string("sourceCode", &found.source);
    record.raw("sourceCodeStart", &start.to_string());
    record.raw("sourceCodeEnd", &end.to_string());
    record.string("githubUrl", &format!("https://github.com/{repo}/blob/{sha}/{}#L{start}-L{end}", found.file));
    record.string("documentation", &documentation(found));
    record.raw("triggerScenarios", "null");
    record.raw("commonSituations", "null");
    record.raw("solutions", "[]");
    record.raw("exampleFix", "null");
    record.string("handlingStrategy", handling_strategy(&found.severity, &found.message));
    record.raw("validationCode", "null");
    record.raw("typeGuard", "null");
    record.raw("tryCatchPattern", "null");
    record.raw("preventionTips", "[]");
    record.raw("tags", &format!("[{},{}]", json_string(tag), json_string(error_type)));
    record.string("backgroundTag", &format!("{tag}-{error_type}"));
    record.string("analyzedSha", sha);
    record.string("analyzedAt", stamp);
    record.raw("contentChangedAt", "null");
    record.raw("schemaVersion", "2");
    let mut file = JsonObject::default();
    file.raw("record", &record.finish());
    file.string("datasetVersion", stamp);
    RecordFile {
        id,
        json: file.finish(),
        error_type: found.error_type.clone(),
        severity: found.severity.clone(),
        file: found.file.clone(),
        message: found.message.clone(),
    }
}

/// A JSON object written key by key, in the order given (the records' schema
/// order), compact and not ASCII-escaped, as the datasets' files are.
#[derive(Default)]
struct JsonObject(String);

impl JsonObject {
    fn raw(&mut self, key: &str, value: &str) {
        self.0.push(if self.0.is_empty() { '{' } else { ',' });
        self.0.push_str(&json_string(key));
        self.0.push(':');
        self.0.push_str(value);
    }

    fn string(&mut self, key: &str, value: &str) {
        self.raw(key, &json_string(value));
    }

    fn optional(&mut self, key: &str, value: Option<&str>) {
        self.raw(key, &value.map_or_else(|| "null".to_string(), json_string));
    }

    fn finish(mut self) -> String {
        self.0.push('}');
        self.0
    }
}

fn json_string(value: &str) -> String {
    serde_json::to_string(value).expect("a string serializes")
}

/// Writes one `<id>.json` a record into `dir` (made if missing), after
/// removing the record files already there, so that the folder holds exactly
/// these records. Two records with one id are refused.
pub fn write_records(dir: &Path, records: &[RecordFile]) -> io::Result<()> {
    let mut by_id = BTreeMap::new();
    for record in records {
        if let Some(other) = by_id.insert(record.id.as_str(), record) {
            return Err(io::Error::new(
                io::ErrorKind::InvalidData,
                format!(
                    "two records with the id {}: {}:{:?} and {}:{:?}",
                    record.id, other.file, other.message, record.file, record.message
                ),
            ));
        }
    }
    fs::create_dir_all(dir)?;
    for entry in fs::read_dir(dir)? {
        let path = entry?.path();
        if path.extension().is_some_and(|ext| ext == "json") {
            fs::remove_file(&path)?;
        }
    }
    for (id, record) in by_id {
        fs::write(dir.join(format!("{id}.json")), &record.json)?;
    }
    Ok(())
}
