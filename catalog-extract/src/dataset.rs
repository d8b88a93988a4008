//! A source tree through one language's extractor: the dataset's records.

use std::fs;
use std::io;
use std::path::Path;

use crate::lang::Language;
use crate::readme;
use crate::record::{record_file, write_records, LanguageFields, Provenance, RecordFile};

/// The records extracted from one source tree.
pub struct Dataset {
    pub language: &'static dyn Language,
    pub provenance: Provenance,
    /// How many files were read.
    pub files: usize,
    /// Sorted by id.
    pub records: Vec<RecordFile>,
}

impl Dataset {
    /// Writes the records into `dir` (replacing the record files there) and its `README.md`.
    pub fn write(&self, dir: &Path) -> io::Result<()> {
        write_records(dir, &self.records)?;
        let name = dir.file_name().and_then(|n| n.to_str()).unwrap_or("dataset");
        let text = readme::readme(name, self.language, &self.provenance, self.files, &self.records);
        fs::write(dir.join("README.md"), text)
    }
}

/// Every file under `root` the language reads, as sorted `/`-separated
/// paths relative to `root`. Symbolic links are not followed.
pub fn source_files(root: &Path, language: &dyn Language) -> io::Result<Vec<String>> {
    let mut files = Vec::new();
    let mut dirs = vec![String::new()];
    while let Some(dir) = dirs.pop() {
        let path = root.join(&dir);
        let entries = fs::read_dir(&path).map_err(|err| with_path(err, &path))?;
        for entry in entries {
            let entry = entry.map_err(|err| with_path(err, &path))?;
            let Some(name) = entry.file_name().to_str().map(str::to_string) else { continue };
            let rel = if dir.is_empty() { name } else { format!("{dir}/{name}") };
            let kind = entry.file_type().map_err(|err| with_path(err, &entry.path()))?;
            if kind.is_dir() {
                dirs.push(rel);
            } else if kind.is_file() && language.scans(&rel) {
                files.push(rel);
            }
        }
    }
    files.sort();
    Ok(files)
}

/// Runs the language's extractor over every file it reads under `root`.
/// A file that is not UTF-8 is an error naming it.
pub fn extract(language: &'static dyn Language, root: &Path, provenance: &Provenance) -> io::Result<Dataset> {
    let files = source_files(root, language)?;
    let tree = language.for_tree(root, &files)?;
    let reader: &dyn Language = tree.as_deref().unwrap_or(language);
    let mut records = Vec::new();
    for file in &files {
        let path = root.join(file);
        let bytes = fs::read(&path).map_err(|err| with_path(err, &path))?;
        let text = String::from_utf8(bytes).map_err(|err| {
            let line = 1 + err.as_bytes()[..err.utf8_error().valid_up_to()].iter().filter(|&&b| b == b'\n').count();
            io::Error::new(io::ErrorKind::InvalidData, format!("{}:{line}: not UTF-8 text", path.display()))
        })?;
        for found in reader.extract_file(file, &universal_newlines(&text)) {
            let fields = LanguageFields { pattern: reader.message_pattern(&found), tag: reader.tag(&found) };
            records.push(record_file(&found, &fields, provenance));
        }
    }
    records.sort_by(|a, b| a.id.cmp(&b.id));
    Ok(Dataset { language, provenance: provenance.clone(), files: files.len(), records })
}

/// `\r\n` and a lone `\r` as `\n`: lines are counted as editors count them.
fn universal_newlines(text: &str) -> String {
    if !text.contains('\r') {
        return text.to_string();
    }
    text.replace("\r\n", "\n").replace('\r', "\n")
}

fn with_path(err: io::Error, path: &Path) -> io::Error {
    io::Error::new(err.kind(), format!("{}: {err}", path.display()))
}
