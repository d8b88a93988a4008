//! Compiles the datasets errcat uses when no `--data` is given into the
//! program (`catalog_runtime::embed`: the records of each are loaded and
//! compiled by the code `--data` uses, and written as one blob that
//! `src/embedded.rs` includes with `include_bytes!`), so that a start-up
//! reads and compiles no record. `datasets/` and `data/` are links to the
//! repository's folders (a packaged crate holds their files).

use std::path::{Path, PathBuf};

/// The library's seed records (its own enum is generated from them):
/// the first dataset, so that their messages, which nats-server's records
/// have too, give the records `error_catalog::nats_server` names.
const SEEDS: (&str, &str) = ("seeds", "data/nats-io/nats-server");

/// Every folder of the repository's datasets is embedded, under its name.
const DATASETS_DIR: &str = "datasets";

fn main() {
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    println!("cargo:rerun-if-changed={DATASETS_DIR}");
    println!("cargo:rerun-if-changed={}", SEEDS.1);
    let datasets = catalog_runtime::embed::dataset_folders(Path::new(DATASETS_DIR), (SEEDS.0, Path::new(SEEDS.1)));
    if let Err(err) = datasets.and_then(|datasets| catalog_runtime::embed::write(&datasets, &out)) {
        panic!("{err}");
    }
}
