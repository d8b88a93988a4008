//! Datasets compiled into a program by its build script: the records of
//! each folder loaded and compiled by the code `Catalog::load` runs, and
//! written as one blob ([`Catalog::to_bytes`]) that the program includes
//! with `include_bytes!` and opens with [`Catalog::from_static_bytes`], so
//! that a start-up reads and compiles no record. `errcat` and the Python
//! package embed the repository's datasets through it.
//!
//! ```no_run
//! // build.rs
//! use std::path::Path;
//! let datasets = catalog_runtime::embed::dataset_folders(Path::new("datasets"), ("seeds", Path::new("data/seeds")))
//!     .unwrap_or_else(|err| panic!("{err}"));
//! let out = std::env::var_os("OUT_DIR").unwrap();
//! catalog_runtime::embed::write(&datasets, Path::new(&out)).unwrap_or_else(|err| panic!("{err}"));
//! ```
//!
//! The program then includes the table: `include!(concat!(env!("OUT_DIR"),
//! "/embedded-datasets.rs"))` is a `&[EmbeddedDataset]` in catalog order.

use std::collections::{BTreeMap, HashMap};
use std::fmt::Write;
use std::path::{Path, PathBuf};

use crate::Catalog;

/// The blob's file name in the output folder.
pub const CATALOG_FILE: &str = "embedded-catalog.bin";
/// The table's file name in the output folder.
pub const TABLE_FILE: &str = "embedded-datasets.rs";

/// A dataset compiled into a program (a row of the table [`write()`]
/// writes): what `errcat datasets` lists.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EmbeddedDataset {
    /// Its name (its folder's): what `--dataset` and the `dataset` field of a match call it.
    pub name: &'static str,
    /// How many records it has.
    pub records: usize,
    /// The source project most of its records name (`repo`).
    pub project: &'static str,
    /// The commit or release most of its records were extracted from (`analyzedSha`).
    pub version: &'static str,
}

/// A dataset compiled, as the build script knows it.
struct DatasetSummary {
    name: String,
    records: usize,
    project: String,
    version: String,
}

/// The datasets to embed, by name, and their folders, in catalog order (of
/// two records that match a line equally well, the earlier one's is the
/// match): `first` (a name and folder), then every folder in `dir` by name.
pub fn dataset_folders(dir: &Path, first: (&str, &Path)) -> Result<Vec<(String, PathBuf)>, String> {
    let cannot = |err: std::io::Error| format!("cannot list {}: {err}", dir.display());
    let mut datasets = Vec::new();
    for entry in std::fs::read_dir(dir).map_err(cannot)? {
        let path = entry.map_err(cannot)?.path();
        if path.is_dir() {
            datasets.push((path.file_name().unwrap_or_default().to_string_lossy().into_owned(), path));
        }
    }
    datasets.sort();
    datasets.insert(0, (first.0.to_owned(), first.1.to_owned()));
    Ok(datasets)
}

/// Loads and compiles `datasets` (names and folders, in catalog order) into
/// one catalog, each entry named after its dataset, with their summaries.
/// A dataset that does not load, or a record id in two datasets, is an error.
fn compile(datasets: &[(String, PathBuf)]) -> Result<(Catalog, Vec<DatasetSummary>), String> {
    let mut catalogs = Vec::new();
    let mut summaries = Vec::new();
    let mut first_dataset: HashMap<String, &str> = HashMap::new();
    for (name, dir) in datasets {
        let catalog = Catalog::load(dir)
            .map_err(|err| format!("the embedded dataset {name} ({}) does not load: {err}", dir.display()))?;
        for entry in catalog.entries() {
            let id = entry.record().id.to_string();
            if let Some(other) = first_dataset.insert(id.clone(), name) {
                return Err(format!("the record id {id} is in both embedded datasets {other} and {name}"));
            }
        }
        let (project, version) = source_of(&catalog);
        summaries.push(DatasetSummary { name: name.clone(), records: catalog.len(), project, version });
        catalogs.push(catalog.named(name.clone()));
    }
    Ok((Catalog::concat(catalogs), summaries))
}

/// Loads and compiles `datasets` (names and folders, in catalog order:
/// [`dataset_folders`]) into one catalog, each entry named after its
/// dataset, and writes it ([`CATALOG_FILE`], for [`Catalog::from_static_bytes`])
/// and the table of the datasets ([`TABLE_FILE`], the Rust source of a
/// `&[EmbeddedDataset]`) into `out`. A dataset that does not load, or a
/// record id in two datasets, is an error.
pub fn write(datasets: &[(String, PathBuf)], out: &Path) -> Result<(), String> {
    let (catalog, summaries) = compile(datasets)?;
    write_if_changed(&out.join(CATALOG_FILE), &catalog.to_bytes())?;
    write_if_changed(&out.join(TABLE_FILE), table(&summaries).as_bytes())
}

/// The summaries as the Rust source of a `&[EmbeddedDataset]`.
fn table(summaries: &[DatasetSummary]) -> String {
    let mut table = String::from("&[\n");
    for DatasetSummary { name, records, project, version } in summaries {
        writeln!(
            table,
            "    catalog_runtime::embed::EmbeddedDataset {{ name: {name:?}, records: {records}, project: {project:?}, version: {version:?} }},"
        )
        .expect("writing to a string");
    }
    table.push(']');
    table
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
fn write_if_changed(path: &Path, bytes: &[u8]) -> Result<(), String> {
    if std::fs::read(path).is_ok_and(|old| old == bytes) {
        return Ok(());
    }
    std::fs::write(path, bytes).map_err(|err| format!("cannot write {}: {err}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_seeds_compiled_named_and_summed_up() {
        let seeds = Path::new(env!("CARGO_MANIFEST_DIR")).join("../data/nats-io/nats-server");
        let (catalog, summaries) = compile(&[("seeds".to_owned(), seeds.clone())]).unwrap();
        let catalog = Catalog::from_bytes(&catalog.to_bytes()).unwrap();
        assert_eq!(catalog.len(), 3);
        assert_eq!(catalog.dataset(2), Some("seeds"));
        let table = table(&summaries);
        assert!(table.contains(r#"name: "seeds", records: 3, project: "nats-io/nats-server""#), "{table}");
        // The same records twice: an error naming both datasets.
        let Err(err) = compile(&[("a".to_owned(), seeds.clone()), ("b".to_owned(), seeds)]) else {
            panic!("the same records in two datasets compiled");
        };
        assert!(err.contains("in both embedded datasets a and b"), "{err}");
    }
}
