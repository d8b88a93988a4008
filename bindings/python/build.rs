//! Compiles the repository's datasets into the package, as `errcat/build.rs`
//! compiles them into errcat (`catalog_runtime::embed`, the same order,
//! names and record paths): `Catalog.embedded()` opens the blob, no record
//! is read or compiled at run time.

use std::path::{Path, PathBuf};

/// The repository, from this package's folder.
const REPOSITORY: &str = "../..";

/// The library's seed records, first (as errcat has them).
const SEEDS: (&str, &str) = ("seeds", "data/nats-io/nats-server");

/// Every folder of the repository's datasets, under its name.
const DATASETS_DIR: &str = "datasets";

fn main() {
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    println!("cargo:rerun-if-changed={REPOSITORY}/{DATASETS_DIR}");
    println!("cargo:rerun-if-changed={REPOSITORY}/{}", SEEDS.1);
    // From the repository, so that the records' origins are named as errcat's are.
    if let Err(err) = std::env::set_current_dir(REPOSITORY) {
        panic!("cannot enter the repository ({REPOSITORY}): {err}");
    }
    let datasets = catalog_runtime::embed::dataset_folders(Path::new(DATASETS_DIR), (SEEDS.0, Path::new(SEEDS.1)));
    if let Err(err) = datasets.and_then(|datasets| catalog_runtime::embed::write(&datasets, &out)) {
        panic!("{err}");
    }
}
