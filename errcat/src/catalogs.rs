//! The catalog the commands work on: the embedded datasets, or the records
//! of the `--data` directories, through the compiled-catalog cache; and
//! `errcat datasets`, which lists the embedded ones.

use std::collections::HashMap;
use std::io;
use std::path::{Path, PathBuf};

use error_catalog::{Catalog, Filter};
use serde_json::json;

use crate::args::{self, Cli};
use crate::embedded;
use crate::exit::FOUND;
use crate::style::Out;

/// The catalog `cli` asks for (see [`load_catalogs`]); `None` when a
/// dataset is bad (each problem is told on stderr).
pub fn load(cli: &Cli) -> Option<Catalog> {
    let cache = if cli.no_cache { None } else { error_catalog::default_cache_dir() };
    let filter = Filter::new().dialect(cli.dialect);
    let datasets = if cli.datasets.is_empty() && cli.data.is_empty() {
        match args::default_datasets() {
            Ok(names) => names,
            Err(err) => {
                eprintln!("errcat: {err}");
                return None;
            }
        }
    } else {
        cli.datasets.clone()
    };
    load_catalogs(&cli.data, &datasets, &filter, cache.as_deref())
}

/// The embedded datasets named in `datasets` (all of them when neither
/// `datasets` nor `data` names any), then the records under the `data`
/// directories (see [`load_catalog`]), as one catalog; two datasets with a
/// record id in common are an error.
fn load_catalogs(data: &[PathBuf], datasets: &[String], filter: &Filter, cache: Option<&Path>) -> Option<Catalog> {
    let dirs: Vec<&Path> = data.iter().map(PathBuf::as_path).filter(|dir| !dir.as_os_str().is_empty()).collect();
    let mut sources: Vec<(String, Catalog)> = Vec::new();
    if dirs.is_empty() || !datasets.is_empty() {
        let all = datasets.is_empty();
        let catalog = embedded::catalog(|name| all || datasets.iter().any(|chosen| chosen == name));
        if dirs.is_empty() {
            // The embedded datasets' ids differ (build.rs checks them).
            return Some(catalog);
        }
        sources.push(("the embedded datasets".to_owned(), catalog));
    }
    for dir in &dirs {
        let name = dir.file_name().map_or_else(|| dir.display().to_string(), |name| name.to_string_lossy().into());
        sources.push((dir.display().to_string(), load_catalog(dir, filter, cache)?.named(name)));
    }
    if let [(_, _)] = &sources[..] {
        return sources.pop().map(|(_, catalog)| catalog);
    }
    let mut seen: HashMap<String, &str> = HashMap::new();
    let mut clashes = 0;
    for (source, catalog) in &sources {
        for entry in catalog.entries() {
            if let Some(first) = seen.insert(entry.record().id.to_string(), source) {
                eprintln!(
                    "errcat: the record id {} is in both {first} and {source}: ids must differ across datasets",
                    entry.record().id,
                );
                clashes += 1;
            }
        }
    }
    (clashes == 0).then(|| Catalog::concat(sources.into_iter().map(|(_, catalog)| catalog).collect()))
}

/// `errcat datasets`: the embedded datasets, one a line (or a JSON object).
pub fn list(json: bool, out: &mut Out) -> io::Result<u8> {
    if json {
        for dataset in embedded::DATASETS {
            let object = json!({
                "name": dataset.name,
                "records": dataset.records,
                "project": dataset.project,
                "version": dataset.version,
            });
            out.line(&object.to_string())?;
        }
        return Ok(FOUND);
    }
    let width = embedded::names().map(str::len).max().unwrap_or(4).max(4);
    out.line(&out.bold(&format!("{:<width$}  {:>7}  {:<20}  version", "name", "records", "project")))?;
    for dataset in embedded::DATASETS {
        out.line(&format!(
            "{:<width$}  {:>7}  {:<20}  {}",
            dataset.name, dataset.records, dataset.project, dataset.version
        ))?;
    }
    let total: usize = embedded::DATASETS.iter().map(|dataset| dataset.records).sum();
    out.line(&out.dim(&format!("{} dataset(s), {total} record(s)", embedded::DATASETS.len())))?;
    Ok(FOUND)
}

/// The records under `dir` (through the compiled-catalog cache in `cache`,
/// if any); a bad dataset is reported record by record, as `check` does.
fn load_catalog(dir: &Path, filter: &Filter, cache: Option<&Path>) -> Option<Catalog> {
    let loaded = match cache {
        Some(cache) => Catalog::load_cached(dir, filter, cache),
        None => Catalog::load_filtered(dir, filter),
    };
    match loaded {
        Ok((catalog, warnings)) => {
            // The record files' warnings are `errcat check`'s to list; a
            // warning at the cache file tells why the cache was rebuilt.
            for note in warnings.iter().filter(|warning| cache.is_some_and(|cache| warning.path.starts_with(cache))) {
                eprintln!("{note}");
            }
            Some(catalog)
        }
        Err(err) => {
            for diagnostic in err.diagnostics.iter().filter(|d| d.is_error()) {
                eprintln!("{diagnostic}");
            }
            let count = err.diagnostics.iter().filter(|d| d.is_error()).count();
            eprintln!("errcat: the dataset {} has {count} error(s); `errcat check {0}` lists them too", dir.display());
            None
        }
    }
}
