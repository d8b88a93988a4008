//! Fingerprints the sources that compile records: a compiled-catalog cache
//! is keyed by the crate's version and this fingerprint, so a build from
//! other sources of the same version (a git dependency, a checkout between
//! releases) rebuilds the caches an older build wrote instead of reusing
//! records compiled by other rules.

use std::hash::{DefaultHasher, Hasher};
use std::path::{Path, PathBuf};
use std::{env, fs};

fn main() {
    let src = Path::new(&env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    collect(&src, &mut files);
    files.sort();
    let mut hasher = DefaultHasher::new();
    for file in &files {
        let relative = file.strip_prefix(&src).unwrap_or(file);
        hasher.write(relative.to_string_lossy().as_bytes());
        hasher.write(&fs::read(file).unwrap_or_else(|err| panic!("{}: {err}", file.display())));
    }
    println!("cargo:rustc-env=CATALOG_RUNTIME_SOURCES={:016x}", hasher.finish());
    println!("cargo:rerun-if-changed=src");
}

/// Every file under `dir`, depth first.
fn collect(dir: &Path, files: &mut Vec<PathBuf>) {
    let entries = fs::read_dir(dir).unwrap_or_else(|err| panic!("{}: {err}", dir.display()));
    for entry in entries {
        let path = entry.unwrap_or_else(|err| panic!("{}: {err}", dir.display())).path();
        if path.is_dir() {
            collect(&path, files);
        } else {
            files.push(path);
        }
    }
}
