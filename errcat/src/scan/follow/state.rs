//! `--state FILE`: where each followed file was read to, kept across
//! restarts. The file is JSON, `{"version": 1, "files": [{"path", "device",
//! "inode", "offset", "line"}, ...]}`, one entry per file followed, written
//! whole to a temporary file beside it and renamed over it, so that a
//! crash leaves the old state or the new one, never a mix.

use std::collections::HashMap;
use std::fs;
use std::io;
use std::path::Path;

use serde_json::{json, Value};

use super::Identity;
use crate::input;

/// Where a file was read to: the offset just past the last line passed on,
/// and the number of the next line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Position {
    pub offset: u64,
    pub line: u64,
}

/// A saved entry.
pub struct Saved {
    pub path: String,
    pub identity: Identity,
    pub position: Position,
}

const VERSION: u64 = 1;

/// The positions saved in `path`, by file identity; `None` when there is
/// no state file yet. A state file that cannot be read is an error naming
/// it (and the line, or the entry and field, at fault).
pub fn load(path: &Path) -> Result<Option<HashMap<Identity, Position>>, String> {
    let label = path.display();
    let text = match fs::read_to_string(path) {
        Ok(text) => text,
        Err(err) if err.kind() == io::ErrorKind::NotFound => return Ok(None),
        Err(err) => return Err(format!("--state {label}: cannot read: {}", input::io_message(&err))),
    };
    let value: Value = serde_json::from_str(&text)
        .map_err(|err| format!("--state {label}:{}:{}: not a state file: {err}", err.line(), err.column()))?;
    if value.get("version").and_then(Value::as_u64) != Some(VERSION) {
        return Err(format!("--state {label}: field `version`: expected {VERSION}"));
    }
    let files = value
        .get("files")
        .and_then(Value::as_array)
        .ok_or_else(|| format!("--state {label}: field `files`: expected a list"))?;
    let mut positions = HashMap::with_capacity(files.len());
    for (index, entry) in files.iter().enumerate() {
        let number = |field: &str| {
            entry.get(field).and_then(Value::as_u64).ok_or_else(|| {
                format!("--state {label}: files[{index}]: field `{field}`: expected a non-negative integer")
            })
        };
        let identity = Identity { device: number("device")?, inode: number("inode")? };
        positions.insert(identity, Position { offset: number("offset")?, line: number("line")?.max(1) });
    }
    Ok(Some(positions))
}

/// Writes `entries` to `path` atomically.
pub fn save(path: &Path, entries: impl Iterator<Item = Saved>) -> io::Result<()> {
    let files: Vec<Value> = entries
        .map(|saved| {
            json!({
                "path": saved.path,
                "device": saved.identity.device,
                "inode": saved.identity.inode,
                "offset": saved.position.offset,
                "line": saved.position.line,
            })
        })
        .collect();
    let text = serde_json::to_string_pretty(&json!({ "version": VERSION, "files": files }))?;
    crate::names::write_atomically(path, &(text + "\n"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_survive_a_save_and_a_load() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("state.json");
        assert!(load(&path).unwrap().is_none());
        let identity = Identity { device: 2049, inode: 77 };
        let saved = Saved { path: "a \"log\"\n".to_owned(), identity, position: Position { offset: 10, line: 3 } };
        save(&path, [saved].into_iter()).unwrap();
        let loaded = load(&path).unwrap().unwrap();
        assert_eq!(loaded[&identity], Position { offset: 10, line: 3 });
        assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 1, "no temporary file is left");
    }

    #[test]
    fn a_bad_state_file_is_named_with_its_line_or_field() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("state.json");
        fs::write(&path, "{\"version\": 1,\n \"files\": [\n").unwrap();
        let err = load(&path).unwrap_err();
        assert!(err.starts_with(&format!("--state {}:3:", path.display())), "{err}");
        fs::write(&path, r#"{"version": 1, "files": [{"device": 1, "inode": 2, "offset": -1, "line": 1}]}"#).unwrap();
        let err = load(&path).unwrap_err();
        assert!(err.ends_with("files[0]: field `offset`: expected a non-negative integer"), "{err}");
    }
}
