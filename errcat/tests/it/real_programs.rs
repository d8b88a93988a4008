//! What real programs wrote, classified by the errcat built here: the golden
//! files of `tools/real/golden/` (Django 5.2.19 raising and logging its own
//! errors, Node's `ERR_*` errors, cargo's errors for broken manifests and
//! workspaces, Kafka's messages as SLF4J and `String.format` write them;
//! regenerated from the programs by `tools/real/generate.sh`, checked in so
//! that this test needs none of them), scanned by `bench/real_rates.py` with
//! this binary. Each message's truth is where its program raised it; the
//! rates are to stay at those of `tools/real/thresholds.json`, measured when
//! they were set, so that a regression fails, with the failures listed.
//!
//! The script needs python3 (as `.ci/run`'s other checks do): without it the
//! test says loudly that it is skipped, and fails in CI (`CI` or
//! `ERROR_CATALOG_REQUIRE_TOOLS` set); without the corpora it skips as the
//! other corpus tests do.

use std::io::Write;
use std::path::PathBuf;
use std::process::Command;

use crate::support;

/// Where the runs cache compiled catalogs: never the user's own cache.
const CACHE: &str = concat!(env!("CARGO_TARGET_TMPDIR"), "/real-programs-cache");

fn python_or_skip(test: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH").unwrap_or_default();
    if let Some(found) = std::env::split_paths(&path).map(|dir| dir.join("python3")).find(|path| path.is_file()) {
        return Some(found);
    }
    let required = std::env::var_os("CI").is_some() || std::env::var_os("ERROR_CATALOG_REQUIRE_TOOLS").is_some();
    assert!(!required, "{test}: `python3` is not on the PATH");
    let _ = writeln!(std::io::stderr(), "\n*** SKIPPED {test}: `python3` is not on the PATH. ***\n");
    None
}

#[test]
fn real_programs_messages_classify_at_their_measured_rates() {
    let test = "real_programs_messages_classify_at_their_measured_rates";
    for corpus in ["django", "nodejs-node", "cargo", "kafka"] {
        if support::corpus(corpus, test).is_none() {
            return;
        }
    }
    check_with_bench(test, "bench/real_rates.py", "tools/real/thresholds.json", CACHE);
}

/// Runs a benchmark script of `bench/` with the errcat under test and
/// `--check THRESHOLDS` (its catalogs cached in `cache`), and fails with
/// its report where a count misses them; skips loudly without python3.
pub(crate) fn check_with_bench(test: &str, script: &str, thresholds: &str, cache: &str) {
    let Some(python) = python_or_skip(test) else {
        return;
    };
    let out = Command::new(python)
        .current_dir(support::workspace_root())
        .arg(script)
        .arg("--errcat")
        .arg(assert_cmd::cargo::cargo_bin("errcat"))
        .args(["--failures", "20", "--check", thresholds])
        .env("ERRCAT_CACHE_DIR", cache)
        .output()
        .expect("python3 runs");
    let report = String::from_utf8_lossy(&out.stdout);
    let _ = writeln!(std::io::stderr(), "{report}");
    assert!(out.status.success(), "{report}\n{}", String::from_utf8_lossy(&out.stderr));
}
