//! The catalog the commands work on: the embedded one, or the records of
//! the `--data` directories, through the compiled-catalog cache.

use std::path::{Path, PathBuf};

use error_catalog::nats_server::NatsServerError;
use error_catalog::{Catalog, Filter};

use crate::args::Cli;

/// The catalog `cli` asks for (see [`load_catalogs`]); `None` when a
/// dataset is bad (each problem is told on stderr).
pub fn load(cli: &Cli) -> Option<Catalog> {
    let cache = if cli.no_cache { None } else { error_catalog::default_cache_dir() };
    let filter = Filter::new().dialect(cli.dialect);
    load_catalogs(&cli.data, &filter, cache.as_deref())
}

/// The embedded catalog, or the records under the `--data` directories as
/// one catalog (see [`load_catalog`]); two datasets with a record id in
/// common are an error.
fn load_catalogs(data: &[PathBuf], filter: &Filter, cache: Option<&Path>) -> Option<Catalog> {
    let dirs: Vec<&Path> = data.iter().map(PathBuf::as_path).filter(|dir| !dir.as_os_str().is_empty()).collect();
    match dirs[..] {
        [] => return Some(Catalog::from_entries(NatsServerError::entries().to_vec())),
        [dir] => return load_catalog(dir, filter, cache),
        _ => {}
    }
    let mut catalogs = Vec::new();
    let mut seen: std::collections::HashMap<String, &Path> = std::collections::HashMap::new();
    let mut clashes = 0;
    for dir in &dirs {
        let catalog = load_catalog(dir, filter, cache)?;
        for entry in catalog.entries() {
            if let Some(first) = seen.insert(entry.record().id.to_string(), dir) {
                eprintln!(
                    "errcat: the record id {} is in both {} and {}: ids must differ across --data datasets",
                    entry.record().id,
                    first.display(),
                    dir.display()
                );
                clashes += 1;
            }
        }
        catalogs.push(catalog);
    }
    (clashes == 0).then(|| Catalog::concat(catalogs))
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
