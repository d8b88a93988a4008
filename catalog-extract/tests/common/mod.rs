//! Comparing extracted messages with the records of a dataset in `datasets/`.

#![allow(dead_code)]

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use catalog_extract::lang::Message;
use sha2::{Digest, Sha256};

/// The fields of one record that an extractor decides.
#[derive(Debug, PartialEq, Eq, Clone)]
pub struct Expected {
    pub id: String,
    pub file: String,
    pub line: u32,
    pub call_lines: (u32, u32),
    pub message: String,
    pub pattern: String,
    pub error_type: String,
    pub error_class: Option<String>,
    pub error_code: Option<String>,
    pub severity: String,
    pub source: String,
    pub documentation: String,
}

pub fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap().to_path_buf()
}

/// The record id: `sha256(repo + filePath + lineNumber + errorMessage)[:16]`.
pub fn record_id(repo: &str, file: &str, line: u32, message: &str) -> String {
    let digest = Sha256::digest(format!("{repo}{file}{line}{message}").as_bytes());
    digest.iter().take(8).map(|b| format!("{b:02x}")).collect()
}

/// The records of `datasets/<name>`, by id.
pub fn dataset(name: &str) -> BTreeMap<String, Expected> {
    let dir = repo_root().join("datasets").join(name);
    let mut out = BTreeMap::new();
    for entry in std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "json") {
            continue;
        }
        let value: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        let r = &value["record"];
        let s = |k: &str| r[k].as_str().map(str::to_string);
        let n = |k: &str| r[k].as_u64().unwrap() as u32;
        let expected = Expected {
            id: s("id").unwrap(),
            file: s("filePath").unwrap(),
            line: n("lineNumber"),
            call_lines: (n("sourceCodeStart"), n("sourceCodeEnd")),
            message: s("errorMessage").unwrap(),
            pattern: s("messagePattern").unwrap(),
            error_type: s("errorType").unwrap(),
            error_class: s("errorClass"),
            error_code: s("errorCode"),
            severity: s("severity").unwrap(),
            source: s("sourceCode").unwrap(),
            documentation: s("documentation").unwrap(),
        };
        out.insert(expected.id.clone(), expected);
    }
    out
}

/// The source files (path, text) under `root` ending in `.{ext}` whose
/// path starts with `prefix` and that `skip` keeps.
pub fn sources(root: &Path, (ext, prefix): (&str, &str), skip: fn(&str) -> bool) -> Vec<(String, String)> {
    source_files(root, ext)
        .into_iter()
        .filter(|file| file.starts_with(prefix) && !skip(file))
        .map(|file| {
            let text = std::fs::read_to_string(root.join(&file)).unwrap();
            (file, text)
        })
        .collect()
}

/// The fields of `messages` that a record takes, with its id under `repo`.
pub fn expected(repo: &str, messages: Vec<Message>) -> Vec<Expected> {
    messages
        .into_iter()
        .map(|m| {
            let f = m.found;
            Expected {
                id: record_id(repo, &f.file, f.line, &f.message),
                file: f.file,
                line: f.line,
                call_lines: f.call_lines,
                message: f.message,
                pattern: m.pattern,
                error_type: f.error_type,
                error_class: f.error_class,
                error_code: f.error_code,
                severity: f.severity,
                source: f.source,
                documentation: f.context.unwrap_or_default(),
            }
        })
        .collect()
}

/// Every `.{ext}` file under `root`, relative and `/`-separated, sorted.
pub fn source_files(root: &Path, ext: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut dirs = vec![root.to_path_buf()];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|e| e == ext) {
                let rel = path.strip_prefix(root).unwrap();
                out.push(rel.components().map(|c| c.as_os_str().to_string_lossy()).collect::<Vec<_>>().join("/"));
            }
        }
    }
    out.sort();
    out
}

/// What differs between the extracted and the dataset's records: ids only
/// in the dataset (removed), ids in both with a field changed, and ids only
/// extracted (added).
#[derive(Default, Debug)]
pub struct Comparison {
    pub removed: Vec<Expected>,
    pub changed: Vec<(Expected, Expected)>,
    pub added: Vec<Expected>,
}

pub fn compare(extracted: &[Expected], dataset: &BTreeMap<String, Expected>) -> Comparison {
    let mut out = Comparison::default();
    let mut by_id = BTreeMap::new();
    for e in extracted {
        by_id.entry(e.id.clone()).or_insert_with(|| e.clone());
    }
    for (id, want) in dataset {
        match by_id.get(id) {
            None => out.removed.push(want.clone()),
            Some(got) if got != want => out.changed.push((want.clone(), got.clone())),
            Some(_) => {}
        }
    }
    out.added = by_id.into_values().filter(|e| !dataset.contains_key(&e.id)).collect();
    out
}

/// A few lines on what differs, for a failing assertion.
pub fn describe(c: &Comparison) -> String {
    let mut s = format!("{} removed, {} changed, {} added\n", c.removed.len(), c.changed.len(), c.added.len());
    for r in c.removed.iter().take(15) {
        s += &format!("REMOVED {}:{} {:?}\n", r.file, r.line, r.message);
    }
    let shown = if std::env::var_os("SHOW_ALL_ADDED").is_some() { usize::MAX } else { 15 };
    for a in c.added.iter().take(shown) {
        s += &format!("ADDED {}:{} {:?}\n", a.file, a.line, a.message);
    }
    for (want, got) in c.changed.iter().take(15) {
        s += &format!("CHANGED {}:{}\n  want {want:?}\n  got  {got:?}\n", want.file, want.line);
    }
    s
}

/// The fixture files under `tests/fixtures/<dir>` give exactly the records
/// of `datasets/<name>` that come from those files.
pub fn assert_fixtures_give_dataset(dir: &str, name: &str, extract: fn(&Path) -> Vec<Expected>, ext: &str) {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures").join(dir);
    let files = source_files(&root, ext);
    assert!(files.len() >= 3, "fixtures missing under {}", root.display());
    let mut want = dataset(name);
    want.retain(|_, r| files.contains(&r.file));
    assert!(want.len() >= 40, "the fixtures hold {} dataset records", want.len());
    assert_same(&compare(&extract(&root), &want));
}

/// The source tree named by the environment variable `var` gives exactly
/// `datasets/<name>`; without it, the test says it is skipped.
pub fn assert_tree_gives_dataset(var: &str, what: &str, name: &str, extract: fn(&Path) -> Vec<Expected>) {
    let Some(root) = std::env::var_os(var) else {
        eprintln!("SKIPPED: set {var} to {what} to compare the whole of datasets/{name}");
        return;
    };
    assert_same(&compare(&extract(Path::new(&root)), &dataset(name)));
}

fn assert_same(c: &Comparison) {
    assert!(c.removed.is_empty() && c.changed.is_empty() && c.added.is_empty(), "{}", describe(c));
}
