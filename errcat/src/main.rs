//! `errcat`: explain error messages and scan logs against a catalog of
//! documented errors. The work is in the modules; this only dispatches.

mod args;
mod catalogs;
mod check;
mod diff;
mod draft;
mod embedded;
mod exit;
mod explain;
mod extract;
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
use std::process::ExitCode;

use clap::Parser;

use args::{Cli, Command};

fn main() -> ExitCode {
    match run(Cli::parse()) {
        Ok(status) => ExitCode::from(status),
        // Output piped into `head` and closed: stop quietly.
        Err(err) if err.kind() == io::ErrorKind::BrokenPipe => ExitCode::from(exit::FOUND),
        Err(err) => {
            eprintln!("errcat: {err}");
            ExitCode::from(exit::TROUBLE)
        }
    }
}

fn run(cli: Cli) -> io::Result<u8> {
    let mut out = style::Out::new(cli.color);
    // The commands about datasets themselves read the files, never the cache.
    match &cli.command {
        Command::Check { dir } => return check::run(cli.dataset_dir(dir), cli.dialect, &mut out),
        Command::Names { dir } => return names::run(cli.dataset_dir(dir), &mut out),
        Command::Datasets { json } => {
            let status = catalogs::list(*json, &mut out)?;
            out.flush()?;
            return Ok(status);
        }
        Command::Diff { old, new, json, non_exhaustive } => {
            let options = diff::Options { json: *json, non_exhaustive: *non_exhaustive };
            let status = diff::run(old, new, &options, &mut out)?;
            out.flush()?;
            return Ok(status);
        }
        Command::Extract(options) => return extract::run(options, &mut out),
        _ => {}
    }
    let Some(catalog) = catalogs::load(&cli) else {
        return Ok(exit::TROUBLE);
    };
    let status = match cli.command {
        Command::Explain { messages } => explain::run(&catalog, messages, &mut out)?,
        Command::Scan(options) => scan::run(&catalog, &options, &mut out)?,
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
            let threads = args::worker_threads(threads);
            // `--dialect` names the drafts' syntax too (Go when not given).
            let dialect = cli.dialect.unwrap_or(error_catalog::Dialect::Go);
            let options = draft::Options { out: dir, levels: level, min_count, dialect, json, threads };
            draft::run(&catalog, &files, &options, &mut out)?
        }
        Command::Check { .. }
        | Command::Names { .. }
        | Command::Diff { .. }
        | Command::Datasets { .. }
        | Command::Extract(_) => {
            unreachable!("handled above")
        }
    };
    out.flush()?;
    // The process ends next: freeing thousands of entries one by one would
    // only delay it (a measurable part of a cached `--data` run).
    std::mem::forget(catalog);
    Ok(status)
}
