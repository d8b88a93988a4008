//! The datasets of the repository (`datasets/`).
//! For each one that is there, `has_<name>` is set and its catalog is
//! generated from it; the others are left out, and their tests say they were
//! skipped (`tests/support/corpus.rs`).

use std::path::Path;

/// The corpora, relative to this crate's Cargo.toml, with their cfg names.
const CORPORA: [(&str, &str); 5] = [
    ("nats-server", "has_corpus"),
    ("nodejs-node", "has_nodejs_node"),
    ("django", "has_django"),
    ("cargo", "has_cargo"),
    ("kafka", "has_kafka"),
];

fn main() {
    for (name, cfg) in CORPORA {
        println!("cargo::rustc-check-cfg=cfg({cfg})");
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../datasets").join(name);
        println!("cargo:rerun-if-changed={}", dir.display());
        if dir.is_dir() {
            println!("cargo:rustc-cfg={cfg}");
        } else {
            println!("cargo:warning=corpus not found at {}: its tests will be skipped", dir.display());
        }
    }
}
