//! Finding, loading and compiling the records, with catalog-runtime (the same
//! code the run-time loader uses).

use std::path::{Path, PathBuf};

use catalog_runtime::__private_0_1::load_dir_unplaced;
use catalog_runtime::build::build_with_names;
use catalog_runtime::{load_dir, Diagnostic, Entry, Filter};
use syn::LitStr;

use crate::ctxt::Ctxt;

/// Read before `CARGO_MANIFEST_DIR`, so tests that build elsewhere (trybuild)
/// can point the macro at their fixtures.
const OVERRIDE: &str = "CARGO_MANIFEST_DIR_OVERRIDE";
const MANIFEST: &str = "CARGO_MANIFEST_DIR";

pub struct Data {
    pub entries: Vec<Entry>,
    /// Every file read (the records, then the names file if there is one),
    /// relative to the base directory, with `/` separators.
    pub files: Vec<String>,
    /// The variable the base directory came from, for `include_bytes!`.
    pub base_var: &'static str,
}

impl Data {
    /// No records (when there is no directory to read).
    pub fn empty() -> Data {
        Data { entries: Vec::new(), files: Vec::new(), base_var: MANIFEST }
    }
}

pub fn load(path: &LitStr, filter: &Filter, cx: &mut Ctxt) -> Data {
    let mut data = Data::empty();
    let relative = path.value();
    if Path::new(&relative).is_absolute() {
        let message = "absolute paths are rejected (they only work on one machine): give the record directory relative to the crate's Cargo.toml";
        cx.error(path.span(), message);
        return data;
    }
    let (base_var, base) = match std::env::var(OVERRIDE) {
        Ok(dir) => (OVERRIDE, PathBuf::from(dir)),
        Err(_) => match std::env::var(MANIFEST) {
            Ok(dir) => (MANIFEST, PathBuf::from(dir)),
            Err(_) => {
                cx.error(path.span(), "CARGO_MANIFEST_DIR is not set: build with cargo");
                return data;
            }
        },
    };
    data.base_var = base_var;
    // The records and the directory's names file, if any: its pinned names
    // are kept, and it is tracked like the record files. Read without the
    // fields' positions, which only diagnostics need: read again with them
    // when there are errors.
    let dir = base.join(&relative);
    let mut loaded = load_dir_unplaced(&dir);
    let mut built = build_with_names(std::mem::take(&mut loaded.records), &loaded.names, filter);
    if loaded.diagnostics.iter().chain(&built.diagnostics).any(Diagnostic::is_error) {
        loaded = load_dir(&dir);
        built = build_with_names(std::mem::take(&mut loaded.records), &loaded.names, filter);
    }
    let shown = |diagnostic: &Diagnostic| {
        let mut diagnostic = diagnostic.clone();
        if let Ok(inside) = diagnostic.path.strip_prefix(&base) {
            diagnostic.path = inside.to_owned();
        }
        // Messages may name other files (a duplicate id's first definition).
        diagnostic.message = diagnostic.message.replace(&format!("{}/", base.display()), "");
        diagnostic
    };
    for diagnostic in loaded.diagnostics.iter().chain(&built.diagnostics).filter(|d| d.is_error()) {
        cx.error(path.span(), shown(diagnostic));
    }
    for file in &loaded.files {
        let inside = file.strip_prefix(&base).unwrap_or(file);
        let parts: Vec<String> = inside.components().map(|c| c.as_os_str().to_string_lossy().into_owned()).collect();
        data.files.push(parts.join("/"));
    }
    data.entries = built.entries.into_iter().map(|entry| entry.entry).collect();
    data
}
