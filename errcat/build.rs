//! Compiles the datasets errcat uses when no `--data` is given into the
//! program: the records of each are loaded and compiled here, by the code
//! `--data` uses, and written as one blob ([`Catalog::to_bytes`]) that
//! `src/catalogs.rs` includes with `include_bytes!`, so that a start-up
//! reads and compiles no record. `datasets/` and `data/` are links to the
//! repository's folders (a packaged crate holds their files).

use std::collections::{BTreeMap, HashMap};
use std::fmt::Write;
use std::path::{Path, PathBuf};

use catalog_runtime::Catalog;

/// The library's seed records (its own enum is generated from them):
/// the first dataset, so that their messages, which nats-server's records
/// have too, give the records `error_catalog::nats_server` names.
const SEEDS: (&str, &str) = ("seeds", "data/nats-io/nats-server");

/// Every folder of the repository's datasets is embedded, under its name.
const DATASETS_DIR: &str = "datasets";

/// The datasets embedded, by name, and their folders, in catalog order: of
/// two records that match a line equally well, the earlier one's is the
/// match. The seeds first, then the folders of [`DATASETS_DIR`] by name.
fn datasets() -> Vec<(String, PathBuf)> {
    let listed = std::fs::read_dir(DATASETS_DIR).unwrap_or_else(|err| panic!("cannot list {DATASETS_DIR}/: {err}"));
    let mut datasets: Vec<(String, PathBuf)> = listed
        .map(|entry| entry.unwrap_or_else(|err| panic!("cannot list {DATASETS_DIR}/: {err}")).path())
        .filter(|path| path.is_dir())
        .map(|path| (path.file_name().unwrap_or_default().to_string_lossy().into_owned(), path))
        .collect();
    datasets.sort();
    datasets.insert(0, (SEEDS.0.to_owned(), PathBuf::from(SEEDS.1)));
    datasets
}

fn main() {
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    let mut catalogs = Vec::new();
    let mut table = String::from("&[\n");
    let mut first_dataset: HashMap<String, String> = HashMap::new();
    println!("cargo:rerun-if-changed={DATASETS_DIR}");
    println!("cargo:rerun-if-changed={}", SEEDS.1);
    for (name, dir) in datasets() {
        let catalog = match Catalog::load(&dir) {
            Ok(catalog) => catalog,
            Err(err) => panic!("the embedded dataset {name} ({}) does not load: {err}", dir.display()),
        };
        for entry in catalog.entries() {
            let id = entry.record().id.to_string();
            if let Some(other) = first_dataset.insert(id.clone(), name.clone()) {
                panic!("the record id {id} is in both embedded datasets {other} and {name}");
            }
        }
        let (project, version) = source_of(&catalog);
        writeln!(
            table,
            "    EmbeddedDataset {{ name: {name:?}, records: {}, project: {project:?}, version: {version:?} }},",
            catalog.len()
        )
        .expect("writing to a string");
        catalogs.push(catalog.named(name));
    }
    table.push(']');
    let catalog = Catalog::concat(catalogs);
    write(&out.join("embedded-catalog.bin"), &catalog.to_bytes());
    write(&out.join("embedded-datasets.rs"), table.as_bytes());
}

/// The source project and version most of `catalog`'s records name (their
/// `repo`, and their `analyzedSha`: a commit, or a release tag).
fn source_of(catalog: &Catalog) -> (String, String) {
    let most = |values: Vec<String>| {
        let mut counts: BTreeMap<String, usize> = BTreeMap::new();
        for value in values.into_iter().filter(|value| !value.is_empty()) {
            *counts.entry(value).or_default() += 1;
        }
        // Ties go to the first in text order: the output is deterministic.
        let best = counts.iter().max_by(|a, b| a.1.cmp(b.1).then(b.0.cmp(a.0)));
        best.map(|(value, _)| value.clone()).unwrap_or_default()
    };
    let records = || catalog.entries().iter().map(|entry| entry.record());
    let project = most(records().map(|record| record.repo.to_string()).collect());
    let version = most(records().filter_map(|record| record.analyzed_sha.as_deref().map(str::to_owned)).collect());
    (project, version)
}

/// Writes `bytes` to `path` unless it holds them already (an unchanged
/// file keeps its modification time, and the crate is not rebuilt).
fn write(path: &Path, bytes: &[u8]) {
    if std::fs::read(path).is_ok_and(|old| old == bytes) {
        return;
    }
    if let Err(err) = std::fs::write(path, bytes) {
        panic!("cannot write {}: {err}", path.display());
    }
}
