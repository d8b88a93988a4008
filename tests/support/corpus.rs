//! The shared corpora (`../shared/corpus/<name>` beside the repository's
//! root), for the tests that need them. Included with `#[path]` by every
//! crate's corpus tests, so that all find them, and skip without them, alike.
//!
//! A test without its corpus says so on the terminal (written past the test
//! harness's output capture, so it shows even when the test passes), and
//! fails instead when `ERROR_CATALOG_REQUIRE_CORPUS` is set, as `.ci/run`
//! does: in CI a missing corpus is a broken set-up, not a skip.

#![allow(dead_code)]

use std::io::Write;
use std::path::{Path, PathBuf};

/// The workspace root: the nearest directory above the including crate whose
/// `Cargo.toml` declares the workspace.
pub fn workspace_root() -> PathBuf {
    let manifest_dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    let declares_workspace =
        |dir: &Path| std::fs::read_to_string(dir.join("Cargo.toml")).is_ok_and(|text| text.contains("[workspace]"));
    manifest_dir.ancestors().find(|dir| declares_workspace(dir)).unwrap_or(manifest_dir).to_owned()
}

/// `../shared/corpus/<name>` from the workspace root, when it is there.
/// When it is not, `test` is reported as skipped, with the reason (or fails
/// when `ERROR_CATALOG_REQUIRE_CORPUS` is set).
pub fn corpus(name: &str, test: &str) -> Option<PathBuf> {
    shared(&format!("corpus/{name}"), test)
}

/// `../shared/<path>` from the workspace root (a corpus, Loghub-2k...), as
/// [`corpus`] finds it, or reports its absence.
pub fn shared(path: &str, test: &str) -> Option<PathBuf> {
    let dir = workspace_root().join("../shared").join(path);
    if dir.is_dir() {
        return Some(dir);
    }
    let reason = format!("{} is absent (clone `shared` beside the repository)", dir.display());
    if std::env::var_os("ERROR_CATALOG_REQUIRE_CORPUS").is_some() {
        panic!("{test}: {reason}, and ERROR_CATALOG_REQUIRE_CORPUS is set");
    }
    let _ = writeln!(std::io::stderr(), "SKIPPED {test}: {reason}");
    None
}
