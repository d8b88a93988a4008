//! `errcat names DIR`: write or update the dataset's names file, which pins
//! every record's variant and field names (see `error_catalog::Names`).

use std::collections::{HashMap, HashSet};
use std::fs;
use std::io::{self, Write};
use std::path::Path;

use error_catalog::build::{build_with_names, Built};
use error_catalog::{load_dir, Diagnostic, Filter, Names, Pin, NAMES_FILE};

use crate::exit::{FOUND, NOT_FOUND};
use crate::style::Out;

pub struct Dataset {
    pub built: Built,
    pub names: Names,
}

/// Loads and builds the dataset under `dir` with its names file; the errors,
/// if any. A pin whose record is gone is not one of them: it is what
/// `names` drops and `diff` reports as a removal.
pub fn load(dir: &Path) -> Result<Dataset, Vec<Diagnostic>> {
    let loaded = load_dir(dir);
    let built = build_with_names(loaded.records, &loaded.names, &Filter::default());
    let mut errors: Vec<Diagnostic> = loaded
        .diagnostics
        .into_iter()
        .chain(built.diagnostics.iter().cloned())
        .filter(|d| d.is_error() && !built.is_stale_pin_error(&loaded.names, d))
        .collect();
    if errors.is_empty() {
        return Ok(Dataset { built, names: loaded.names });
    }
    errors.sort();
    Err(errors)
}

pub fn run(dir: &Path, out: &mut Out) -> io::Result<u8> {
    let dataset = match load(dir) {
        Ok(dataset) => dataset,
        Err(errors) => {
            for error in &errors {
                eprintln!("{error}");
            }
            eprintln!(
                "errcat: {} has {} error(s); its names file is left as it is: fix them first (`errcat check {0}`)",
                dir.display(),
                errors.len()
            );
            return Ok(NOT_FOUND);
        }
    };
    let path = dir.join(NAMES_FILE);
    let before = dataset.names;
    let after = Names::of_entries(dataset.built.entries.iter().map(|e| &e.entry));
    let text = after.to_text();
    let unchanged = fs::read_to_string(&path).is_ok_and(|old| old == text);
    if !unchanged {
        write_atomically(&path, &text)
            .map_err(|err| io::Error::new(err.kind(), format!("cannot write {}: {err}", path.display())))?;
    }
    let summary = Summary::new(&before, &after);
    out.line(&format!(
        "{}: {} record(s) pinned{}",
        path.display(),
        after.pins.len(),
        if unchanged { ", unchanged".to_owned() } else { summary.counts() }
    ))?;
    for pin in &summary.dropped {
        out.line(&format!("  - {} ({}): the record is gone", pin.variant, pin.id))?;
    }
    for pin in &summary.refitted {
        out.line(&format!("  ~ {} ({}): its fields changed; they are pinned as they are now", pin.variant, pin.id))?;
    }
    Ok(FOUND)
}

struct Summary<'n> {
    added: usize,
    /// Pins whose record is gone.
    dropped: Vec<&'n Pin>,
    /// Pins whose record's fields no longer fit them (now pinned anew).
    refitted: Vec<&'n Pin>,
}

impl<'n> Summary<'n> {
    fn new(before: &'n Names, after: &'n Names) -> Self {
        let now: HashMap<&str, &Pin> = after.pins.iter().map(|pin| (pin.id.as_str(), pin)).collect();
        let pinned: HashSet<&str> = before.pins.iter().map(|pin| pin.id.as_str()).collect();
        let field_set = |pin: &Pin| -> HashSet<(String, String)> {
            pin.fields.iter().map(|f| (f.name.clone(), f.rust_type.clone())).collect()
        };
        Summary {
            added: after.pins.iter().filter(|pin| !pinned.contains(pin.id.as_str())).count(),
            dropped: before.pins.iter().filter(|pin| !now.contains_key(pin.id.as_str())).collect(),
            refitted: before
                .pins
                .iter()
                .filter(|pin| now.get(pin.id.as_str()).is_some_and(|new| field_set(new) != field_set(pin)))
                .collect(),
        }
    }

    fn counts(&self) -> String {
        format!(": {} added, {} dropped, {} with new field names", self.added, self.dropped.len(), self.refitted.len())
    }
}

/// Writes `text` to `path` through a temporary file beside it, synced and
/// renamed over it: an interrupted run leaves the old file or the new one,
/// never half of one (half a names file would fail every build of the crate).
pub fn write_atomically(path: &Path, text: &str) -> io::Result<()> {
    let name = path.file_name().unwrap_or_default().to_string_lossy();
    // Hidden and ending in `.tmp`: neither a dataset walk nor `--follow` reads it.
    let temporary = path.with_file_name(format!(".{name}.{}.tmp", std::process::id()));
    let written = fs::File::create(&temporary)
        .and_then(|mut file| file.write_all(text.as_bytes()).and_then(|()| file.sync_all()))
        .and_then(|()| fs::rename(&temporary, path));
    if written.is_err() {
        let _ = fs::remove_file(&temporary);
    }
    written
}
