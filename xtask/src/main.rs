//! Development tasks for benchmarks and scale tests:
//!
//! ```text
//! cargo run -p xtask -- synth N DIR                      N synthetic records in DIR
//! cargo run -p xtask -- log DATA LINES MATCHING OUT      a nats-server style log
//! cargo run -p xtask -- naive DATA FILE                  the naive baseline scanner
//! cargo run -p xtask -- patterns DATA OUT                every record's pattern, one per line
//! cargo run -p xtask -- public-api                       rewrite public-api/*.txt (see `public_api`)
//! ```
//!
//! `log` renders records of the dataset DATA with random values into a fraction
//! MATCHING (0 to 1) of LINES lines; the other lines are ordinary log lines that
//! match no record (checked). `naive` is what a user would write by hand: a
//! `RegexSet` of every record's pattern per line, then the first matching
//! regex's captures.

mod log;
mod naive;
mod public_api;
mod rng;
mod synth;

use std::path::PathBuf;
use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.iter().map(String::as_str).collect::<Vec<_>>()[..] {
        ["synth", n, dir] => number(n).and_then(|n| synth::run(n, &PathBuf::from(dir))),
        ["log", data, lines, matching, out] => number(lines).and_then(|lines| {
            let matching: f64 = matching.parse().map_err(|_| format!("not a fraction: {matching}"))?;
            log::run(&PathBuf::from(data), lines, matching, &PathBuf::from(out))
        }),
        ["naive", data, file] => naive::run(&PathBuf::from(data), &PathBuf::from(file)),
        ["patterns", data, out] => naive::patterns(&PathBuf::from(data), &PathBuf::from(out)),
        ["public-api"] => write_public_api(),
        _ => Err(
            "usage: xtask synth N DIR | log DATA LINES MATCHING OUT | naive DATA FILE | patterns DATA OUT | public-api"
                .to_owned(),
        ),
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
