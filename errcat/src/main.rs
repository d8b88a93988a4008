//! `errcat`: explain error messages and scan logs against a catalog of
//! documented errors. The work is in the modules; this only dispatches.

mod args;
mod check;
mod diff;
mod draft;
mod explain;
mod input;
mod metrics;
mod names;
mod pipeline;
mod records;
mod report;
mod rules;
mod scan;
mod severity;
mod style;

use std::io;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::Parser;
use error_catalog::nats_server::NatsServerError;
use error_catalog::{Catalog, Filter, Value};

use args::{Cli, Command};

/// Exit statuses, as grep's.
pub const FOUND: u8 = 0;
pub const NOT_FOUND: u8 = 1;
pub const TROUBLE: u8 = 2;

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli) {
        Ok(status) => ExitCode::from(status),
        // Output piped into `head` and closed: stop quietly.
        Err(err) if err.kind() == io::ErrorKind::BrokenPipe => ExitCode::from(FOUND),
        Err(err) => {
            eprintln!("errcat: {err}");
            ExitCode::from(TROUBLE)
        }
    }
}

fn run(cli: Cli) -> io::Result<u8> {
    let mut out = style::Out::new(cli.color);
    // The commands about datasets themselves read the files, never the cache.
    match &cli.command {
        Command::Check { dir } => return check::run(dataset_dir(dir, &cli), cli.dialect, &mut out),
        Command::Names { dir } => return names::run(dataset_dir(dir, &cli), &mut out),
        Command::Diff { old, new, json, non_exhaustive } => {
            let options = diff::Options { json: *json, non_exhaustive: *non_exhaustive };
            let status = diff::run(old, new, &options, &mut out)?;
            out.flush()?;
            return Ok(status);
        }
        _ => {}
    }
    let cache = if cli.no_cache { None } else { cache_dir() };
    let filter = Filter::new().dialect(cli.dialect);
    let Some(catalog) = load_catalogs(&cli.data, &filter, cache.as_deref()) else {
        return Ok(TROUBLE);
    };
    let cores = || std::thread::available_parallelism().map_or(1, |n| n.get());
    let status = match cli.command {
        Command::Explain { messages } => explain::run(&catalog, messages, &mut out)?,
        Command::Scan {
            files,
            json,
            count,
            unmatched,
            html,
            threads,
            follow,
            from_start,
            metrics,
            envelope,
            min_severity,
        } => {
            let threads = threads.map_or_else(cores, usize::from);
            let options = scan::Options {
                json,
                count,
                unmatched_levels: unmatched,
                html,
                threads,
                follow,
                from_start,
                metrics,
                envelope: envelope.0,
                min_severity,
            };
            scan::run(&catalog, &files, &options, &mut out)?
        }
        Command::List { repo, tag, severity, json } => {
            let filters = records::Filters { repo, tag, severity };
            records::list(&catalog, &filters, json, &mut out)?
        }
        Command::Show { key, json } => records::show(&catalog, &key, json, &mut out)?,
        Command::Rules { severity, repo, tag, tests } => {
            let filters = records::Filters { repo, tag, severity: Some(severity) };
            rules::run(&catalog, &filters, tests.as_deref(), &mut out)?
        }
        Command::Draft { files, out: dir, level, min_count, json, threads } => {
            let threads = threads.map_or_else(cores, usize::from);
            // `--dialect` names the drafts' syntax too (Go when not given).
            let dialect = cli.dialect.unwrap_or(error_catalog::Dialect::Go);
            let options = draft::Options { out: dir, levels: level, min_count, dialect, json, threads };
            draft::run(&catalog, &files, &options, &mut out)?
        }
        Command::Check { .. } | Command::Names { .. } | Command::Diff { .. } => {
            unreachable!("handled above")
        }
    };
    out.flush()?;
    // The process ends next: freeing thousands of entries one by one would
    // only delay it (a measurable part of a cached `--data` run).
    std::mem::forget(catalog);
    Ok(status)
}

/// The directory a dataset command works on: its own argument, else
/// `--data`, else `data`.
fn dataset_dir<'a>(dir: &'a Option<PathBuf>, cli: &'a Cli) -> &'a Path {
    dir.as_deref().or(cli.data.first().map(PathBuf::as_path)).unwrap_or(Path::new("data"))
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
        Ok((catalog, _warnings)) => Some(catalog),
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

/// Where compiled catalogs are cached: `$ERRCAT_CACHE_DIR`, else
/// `$XDG_CACHE_HOME/error-catalog`, else `~/.cache/error-catalog`; none when
/// none of these is set.
fn cache_dir() -> Option<PathBuf> {
    let var = |name| std::env::var_os(name).filter(|value| !value.is_empty()).map(PathBuf::from);
    var("ERRCAT_CACHE_DIR")
        .or_else(|| var("XDG_CACHE_HOME").filter(|dir| dir.is_absolute()).map(|dir| dir.join("error-catalog")))
        .or_else(|| var("HOME").map(|home| home.join(".cache").join("error-catalog")))
}

/// A value as shown to people: text quoted as in Rust, numbers bare.
pub fn show_value(value: &Value<'_>) -> String {
    match value {
        Value::Str(text) => format!("{text:?}"),
        other => other.to_string(),
    }
}
