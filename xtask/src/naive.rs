//! `naive DATA FILE`: the baseline a user would write by hand, for the
//! benchmark: a `RegexSet` of every record's pattern run on each line, then
//! the first matching regex for the captures. Prints the matching line count.

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::time::Instant;

use catalog_runtime::Catalog;
use regex::{Regex, RegexSet};

pub fn run(data: &Path, file: &Path) -> Result<(), String> {
    let started = Instant::now();
    let catalog = Catalog::load(data).map_err(|e| e.to_string())?;
    let patterns: Vec<&str> = catalog.entries().iter().map(|e| e.template.regex.as_ref()).collect();
    let set = RegexSet::new(&patterns).map_err(|e| e.to_string())?;
    let regexes: Vec<Regex> =
        patterns.iter().map(|p| Regex::new(p)).collect::<Result<_, _>>().map_err(|e| e.to_string())?;
    let input = std::fs::File::open(file).map_err(|e| format!("{}: {e}", file.display()))?;
    let mut matched = 0u64;
    let mut captured = 0usize;
    for line in BufReader::new(input).lines() {
        let line = line.map_err(|e| e.to_string())?;
        if let Some(first) = set.matches(&line).iter().next() {
            matched += 1;
            captured += regexes[first].captures(&line).map_or(0, |c| c.len());
        }
    }
    println!("{matched} matching lines ({captured} groups) in {:.2?}", started.elapsed());
    Ok(())
}

/// Writes every record's compiled pattern, one per line, leaving out patterns
/// that contain a line break (for `rg -f` and Hyperscan).
pub fn patterns(data: &Path, out: &Path) -> Result<(), String> {
    let catalog = Catalog::load(data).map_err(|e| e.to_string())?;
    let patterns: Vec<&str> =
        catalog.entries().iter().map(|e| e.template.regex.as_ref()).filter(|p| !p.contains(['\n', '\r'])).collect();
    std::fs::write(out, patterns.join("\n") + "\n").map_err(|e| format!("{}: {e}", out.display()))
}
