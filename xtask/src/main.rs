//! Development tasks for benchmarks and scale tests:
//!
//! ```text
//! cargo run -p xtask -- synth N DIR                      N synthetic records in DIR
//! cargo run -p xtask -- log DATA LINES MATCHING OUT [--noise real]
//!                                                        a nats-server style log
//! cargo run -p xtask -- multisystem DIR LOG LINES        a multi-system pattern catalog and its log
//! cargo run -p xtask -- mining OUT RENDERINGS CORPUS...  the lines of bench/mining.py (see `mining`)
//! cargo run -p xtask -- naive DATA FILE                  the naive baseline scanner
//! cargo run -p xtask -- patterns DATA OUT [--hyperscan]  every record's pattern, one per line
//! cargo run -p xtask -- public-api                       rewrite public-api/*.txt (see `public_api`)
//! cargo run -p xtask -- thiserror DATA OUT               DATA's records as a hand-written thiserror enum
//! ```
//!
//! `log` renders records of the dataset DATA with random values into a fraction
//! MATCHING (0 to 1) of LINES lines; the other lines are ordinary log lines that
//! match no record (checked): a few synthetic kinds by default, real
//! nats-server INF/DBG/TRC output with `--noise real` (see `log`).
//! `multisystem` writes about 1,400 pattern-dialect records of 16 systems
//! (Loghub-like, see `multisystem`) under DIR and LINES lines of those
//! systems' logs to LOG, every line matching some record; it checks every
//! line with errcat's engine and the naive baseline and prints the catalog's
//! statistics. `naive` is what a user would write by hand: a `RegexSet` of
//! every record's pattern per line, then the most literal matching regex's
//! captures. `patterns --hyperscan` writes each pattern in the form given to
//! Hyperscan (captures and lazy modifiers dropped, wildcards at the ends
//! trimmed: see `naive::for_hyperscan`).

mod log;
mod mining;
mod multisystem;
mod naive;
mod public_api;
mod rng;
mod synth;
mod thiserror_enum;

use std::path::PathBuf;
use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.iter().map(String::as_str).collect::<Vec<_>>()[..] {
        ["synth", n, dir] => number(n).and_then(|n| synth::run(n, &PathBuf::from(dir))),
        ["log", data, lines, matching, out, ref noise @ ..] => number(lines).and_then(|lines| {
            let matching: f64 = matching.parse().map_err(|_| format!("not a fraction: {matching}"))?;
            let noise = match noise {
                [] => log::Noise::Synthetic,
                ["--noise", kind] => log::Noise::parse(kind)?,
                _ => return Err(format!("unexpected arguments: {}", noise.join(" "))),
            };
            log::run(&PathBuf::from(data), lines, matching, &PathBuf::from(out), noise)
        }),
        ["multisystem", dir, log, lines] => {
            number(lines).and_then(|lines| multisystem::run(&PathBuf::from(dir), &PathBuf::from(log), lines))
        }
        ["mining", out, renderings, ref corpora @ ..] if !corpora.is_empty() => number(renderings).and_then(|n| {
            let corpora: Vec<PathBuf> = corpora.iter().map(PathBuf::from).collect();
            mining::run(&PathBuf::from(out), n, &corpora)
        }),
        ["naive", data, file] => naive::run(&PathBuf::from(data), &PathBuf::from(file)),
        ["patterns", data, out] => naive::patterns(&PathBuf::from(data), &PathBuf::from(out), false),
        ["patterns", data, out, "--hyperscan"] => naive::patterns(&PathBuf::from(data), &PathBuf::from(out), true),
        ["public-api"] => write_public_api(),
        ["thiserror", data, out] => thiserror_enum::run(&PathBuf::from(data), &PathBuf::from(out)),
        _ => Err("usage: xtask synth N DIR | mining OUT RENDERINGS CORPUS... | log DATA LINES MATCHING OUT [--noise real] | multisystem DIR LOG LINES \
             | naive DATA FILE | patterns DATA OUT [--hyperscan] | public-api | thiserror DATA OUT"
            .to_owned()),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("xtask: {message}");
            ExitCode::FAILURE
        }
    }
}

fn number(text: &str) -> Result<usize, String> {
    text.replace('_', "").parse().map_err(|_| format!("not a number: {text}"))
}

/// Rewrites the checked-in listing of every library's public API.
fn write_public_api() -> Result<(), String> {
    for (package, krate) in public_api::CRATES {
        let listing = public_api::listing(package, krate)?;
        let path = public_api::listing_path(krate);
        std::fs::create_dir_all(path.parent().expect("a file in a folder")).map_err(|err| err.to_string())?;
        std::fs::write(&path, listing).map_err(|err| format!("{}: {err}", path.display()))?;
        eprintln!("wrote {}", path.display());
    }
    Ok(())
}
