//! The datasets (`datasets/<name>` in the repository), for the tests that
//! need them. Included with `#[path]` by every
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

/// `datasets/<name>` from the workspace root, when it is there (a packaged
/// crate's tests have no datasets).
/// When it is not, `test` is reported as skipped, with the reason (or fails
/// when `ERROR_CATALOG_REQUIRE_CORPUS` is set).
pub fn corpus(name: &str, test: &str) -> Option<PathBuf> {
    let dir = workspace_root().join("datasets").join(name);
    if dir.is_dir() {
        return Some(dir);
    }
    absent(dir, "the repository's `datasets/` folder is missing", test)
}

/// `../shared/<path>` from the workspace root (Loghub-2k...), or its
/// absence reported as [`corpus`] reports it.
pub fn shared(path: &str, test: &str) -> Option<PathBuf> {
    let dir = workspace_root().join("../shared").join(path);
    if dir.is_dir() {
        return Some(dir);
    }
    absent(dir, "clone `shared` beside the repository", test)
}

fn absent(dir: PathBuf, fix: &str, test: &str) -> Option<PathBuf> {
    let reason = format!("{} is absent ({fix})", dir.display());
    if std::env::var_os("ERROR_CATALOG_REQUIRE_CORPUS").is_some() {
        panic!("{test}: {reason}, and ERROR_CATALOG_REQUIRE_CORPUS is set");
    }
    let _ = writeln!(std::io::stderr(), "SKIPPED {test}: {reason}");
    None
}
