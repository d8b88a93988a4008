//! The corpus lives outside the repository (`../shared`, beside the clone).
//! When it is there, `has_corpus` is set and the catalog is generated from it;
//! when not, the crate builds empty and its tests say they were skipped.

use std::path::Path;

/// The corpus directory relative to this crate's Cargo.toml.
const CORPUS: &str = "../../../shared/corpus/nats-server";

fn main() {
    println!("cargo::rustc-check-cfg=cfg(has_corpus)");
    println!("cargo:rerun-if-changed={CORPUS}");
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join(CORPUS);
    if dir.is_dir() {
        println!("cargo:rustc-cfg=has_corpus");
    } else {
        println!("cargo:warning=corpus not found at {}: corpus tests will be skipped", dir.display());
    }
}
