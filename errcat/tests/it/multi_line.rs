//! `errcat scan` on messages written over several lines (cargo's error
//! chains, Django's SQL debug log, Kafka's assignment reports): the line
//! that starts one is one event with the lines its record takes, plain and
//! in an envelope, in `--json` (with the lines where it starts and ends) and
//! `--count`; lines that only look like a start stay lines of their own.

use std::fs;
use std::path::{Path, PathBuf};

use assert_cmd::Command;
use serde_json::Value as Json;

fn dataset(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../datasets").join(name)
}

/// `errcat --data DATASET scan ARGS LOG` of `log`'s text: standard output.
fn scan(dataset_name: &str, args: &[&str], log: &str) -> String {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("app.log");
    fs::write(&path, log).unwrap();
    let out = Command::cargo_bin("errcat")
        .unwrap()
        .env("ERRCAT_CACHE_DIR", dir.path().join("cache"))
        .arg("--data")
        .arg(dataset(dataset_name))
        .arg("scan")
        .args(args)
        .arg(&path)
        .output()
        .unwrap();
    assert!(out.status.code().is_some_and(|code| code <= 1), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap()
}

/// The (line, record id) of each match of `scan --json`, and the matches.
fn found(dataset_name: &str, log: &str) -> (Vec<(u64, String)>, Vec<Json>) {
    let matches: Vec<Json> =
        scan(dataset_name, &["--json"], log).lines().map(|line| serde_json::from_str(line).unwrap()).collect();
    let ids = matches.iter().map(|m| (m["line"].as_u64().unwrap(), m["id"].as_str().unwrap().to_owned())).collect();
    (ids, matches)
}

const WORKSPACE_MEMBER: &str = "98038c8f9cfe9bfa";
const READ_MANIFEST: &str = "0fe0a2c1d82364e0";

const CARGO_STDERR: &str = "error: failed to load manifest for workspace member `ws/nope`\n\
    referenced by workspace at `ws/Cargo.toml`\n\
    \n\
    Caused by:\n  failed to read `ws/nope/Cargo.toml`\n";

#[test]
fn a_message_of_two_lines_is_one_event_plain_and_in_an_envelope() {
    let (ids, matches) = found("cargo", CARGO_STDERR);
    assert_eq!(ids, [(1, WORKSPACE_MEMBER.to_owned()), (5, READ_MANIFEST.to_owned())]);
    assert_eq!(matches[0]["fields"]["root_manifest_path_display"], "ws/Cargo.toml", "the value on the second line");
    let lines = |m: &Json| (m["start_line"].as_u64(), m["end_line"].as_u64());
    assert_eq!(lines(&matches[0]), (Some(1), Some(2)), "where the event ends");
    assert_eq!(lines(&matches[1]), (None, None), "a line of its own");
    let cri: String =
        CARGO_STDERR.lines().map(|line| format!("2026-11-29T17:20:35.000001234Z stderr F {line}\n")).collect();
    let (wrapped, matches) = found("cargo", &cri);
    assert_eq!(wrapped, ids);
    assert_eq!(matches[0]["envelope"], "cri");
    assert_eq!(matches[0]["end_line"], 2);
    let count = scan("cargo", &["--count"], CARGO_STDERR);
    assert!(count.contains("2 matching line(s), 2 distinct error(s)"), "{count}");
}

#[test]
fn a_value_holding_line_breaks_takes_the_indented_lines_after_it() {
    let log = "2026-12-01 10:00:00,000 DEBUG [django.db.backends] (0.001) \n\
        \x20           SELECT name FROM sqlite_master\n\
        \x20           ORDER BY name; args=None; alias=default\n\
        2026-12-01 10:00:01,000 DEBUG [django.db.backends] (0.002) SELECT 1; args=None; alias=other\n";
    let (ids, matches) = found("django", log);
    assert_eq!(ids.iter().map(|(line, _)| *line).collect::<Vec<_>>(), [1, 4], "{ids:?}");
    assert_eq!((&matches[0]["start_line"], &matches[0]["end_line"]), (&Json::from(1), &Json::from(3)));
    let sql = matches[0]["args"][1].as_str().unwrap();
    assert_eq!(sql, "\n            SELECT name FROM sqlite_master\n            ORDER BY name");
    assert_eq!(matches[0]["args"][3], "default");
    assert_eq!(matches[1]["args"][3], "other");
}

#[test]
fn a_template_of_several_lines_takes_as_many() {
    let log = "Unexpected error during topic creation for orders.\n\
        Error message was: org.apache.kafka.common.errors.TimeoutException: Timed out\n\
        Creating topic orders timed out.\n\
        Error message was: timeout\n";
    let (ids, matches) = found("kafka", log);
    assert_eq!(ids.iter().map(|(line, _)| *line).collect::<Vec<_>>(), [1, 3], "{ids:?}");
    assert_eq!(matches[0]["args"][1], "org.apache.kafka.common.errors.TimeoutException: Timed out");
    assert_eq!(matches[1]["args"][1], "timeout");
}

#[test]
fn a_line_that_only_looks_like_a_start_stays_a_line() {
    // The first line of the workspace message, then a line its second line is not.
    let log = "error: failed to load manifest for workspace member `ws/nope`\n\
        error: failed to read `ws/nope/Cargo.toml`\n";
    let (ids, _) = found("cargo", log);
    assert_eq!(ids, [(2, READ_MANIFEST.to_owned())]);
}
