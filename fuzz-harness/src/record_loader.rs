//! The record loader (and the compilation of what it loads) on arbitrary bytes.

use std::collections::HashSet;
use std::path::Path;

use catalog_runtime::build::build;
use catalog_runtime::{load_bytes, Diagnostic, Filter, Loaded};

use crate::template;

/// The bytes are loaded as a `*.json` file (one record) and as a `*.jsonl`
/// file (one record per line). Loading never panics; every diagnostic names
/// the file and a position in it (line at least 1 and at most the file's
/// line count, column at least 1); every record's position and its fields'
/// positions are in the file; a `.json` file gives at most one record and a
/// `.jsonl` file at most one per non-blank line. The records then go through
/// [`build`], as in `Catalog::load`: its diagnostics point into the file
/// too, variant names are unique identifiers, field names are unique
/// identifiers within a variant, and every template satisfies
/// `template::check`.
pub fn record_loader(data: &[u8]) {
    let lines = data.iter().filter(|&&b| b == b'\n').count() + 1;
    for name in ["fuzz.json", "fuzz.jsonl"] {
        let path = Path::new(name);
        let mut loaded = Loaded::default();
        load_bytes(path, data, &mut loaded);
        for diagnostic in &loaded.diagnostics {
            check_position(diagnostic, path, lines);
        }
        if name.ends_with(".jsonl") {
            let non_blank = data.split(|&b| b == b'\n').filter(|line| !line.trim_ascii().is_empty()).count();
            assert!(loaded.records.len() <= non_blank, "{} records from {non_blank} lines", loaded.records.len());
        } else {
            assert!(loaded.records.len() <= 1, "{} records from one document", loaded.records.len());
        }
        for record in &loaded.records {
            let origin = &record.origin;
            assert_eq!(origin.path, path);
            assert!((1..=lines).contains(&origin.line) && origin.column >= 1, "record at {origin:?}");
            for (key, (line, column)) in &origin.fields {
                assert!((1..=lines).contains(line) && *column >= 1, "field {key} at {line}:{column}");
            }
        }
        let built = build(loaded.records, &Filter::default());
        for diagnostic in &built.diagnostics {
            check_position(diagnostic, path, lines);
        }
        let mut names = HashSet::new();
        for entry in &built.entries {
            let metadata = &entry.entry;
            assert!(is_identifier(&metadata.name), "variant name {:?}", metadata.name);
            assert!(names.insert(metadata.name.to_string()), "two variants named {:?}", metadata.name);
            let mut fields = HashSet::new();
            for field in metadata.field_names() {
                assert!(is_identifier(field), "field name {field:?} of {}", metadata.name);
                assert!(fields.insert(field), "two fields named {field:?} in {}", metadata.name);
            }
            template::check(&metadata.template);
        }
    }
}

fn check_position(diagnostic: &Diagnostic, path: &Path, lines: usize) {
    assert_eq!(diagnostic.path, path, "{diagnostic}");
    assert!(diagnostic.line >= 1 && diagnostic.column >= 1, "{diagnostic}");
    assert!(diagnostic.line <= lines, "{diagnostic}: the file has {lines} lines");
    assert!(!diagnostic.message.is_empty(), "{diagnostic}");
}

/// A Rust identifier (possibly raw: `r#type`).
fn is_identifier(name: &str) -> bool {
    let name = name.strip_prefix("r#").unwrap_or(name);
    let mut chars = name.chars();
    chars.next().is_some_and(|c| c == '_' || c.is_ascii_alphabetic())
        && chars.all(|c| c == '_' || c.is_ascii_alphanumeric())
        && name != "_"
}
