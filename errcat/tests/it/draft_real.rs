//! `errcat draft` on lines real programs wrote, through the real binary:
//! a Loghub-2k system (`../shared/loghub-2k`) drafted with an empty catalog,
//! its groups scored against the system's true templates and the user's loop
//! checked (`errcat check` of the drafts, a scan of the same lines with
//! them); and drafts next to a real catalog (Django's records with the
//! Django log lines of the real-program harness).

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::Path;

use assert_cmd::Command;
use serde_json::Value as Json;

use crate::support;

fn errcat() -> Command {
    let mut command = Command::cargo_bin("errcat").expect("the errcat binary");
    command.arg("--no-cache").env("NO_COLOR", "1");
    command
}

/// `errcat [--data DATA]... draft --json --out OUT LOG`: the groups by id.
fn draft(data: &[&Path], out: &Path, log: &Path) -> BTreeMap<String, Json> {
    let mut command = errcat();
    for dir in data {
        command.arg("--data").arg(dir);
    }
    let output = command.args(["draft", "--json", "--out"]).arg(out).arg(log).output().unwrap();
    assert_eq!(output.status.code(), Some(0), "{}", String::from_utf8_lossy(&output.stderr));
    let stdout = String::from_utf8(output.stdout).unwrap();
    stdout.lines().map(|line| serde_json::from_str::<Json>(line).unwrap()).map(|g| (g["id"].to_string(), g)).collect()
}

/// `errcat --data DATA... scan --json LOG`: each matched line's record id.
fn scan(data: &[&Path], log: &Path) -> BTreeMap<u64, String> {
    let mut command = errcat();
    for dir in data {
        command.arg("--data").arg(dir);
    }
    let output = command.args(["scan", "--json"]).arg(log).output().unwrap();
    assert!(output.status.code().is_some_and(|code| code < 2), "{}", String::from_utf8_lossy(&output.stderr));
    let stdout = String::from_utf8(output.stdout).unwrap();
    stdout
        .lines()
        .map(|line| serde_json::from_str::<Json>(line).unwrap())
        .filter(|object| object["unmatched"].is_null())
        .map(|object| (object["line"].as_u64().unwrap(), object["id"].to_string()))
        .collect()
}

/// `errcat check DIR` passes with no "can never win" warning.
fn check_clean(dir: &Path) {
    let output = errcat().arg("check").arg(dir).output().unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(0), "{stdout}");
    let never: Vec<&str> = stdout.lines().filter(|line| line.contains("can never win")).collect();
    assert!(never.is_empty(), "drafts of one run that can never win:\n{}", never.join("\n"));
}

/// Each draft's count is the number of lines the re-scan gives it.
fn rescan_keeps_the_groups(groups: &BTreeMap<String, Json>, rescanned: &BTreeMap<u64, String>) {
    let mut counts: HashMap<&str, u64> = HashMap::new();
    for id in rescanned.values() {
        *counts.entry(id).or_default() += 1;
    }
    let off: Vec<(&String, u64, u64)> = groups
        .iter()
        .map(|(id, g)| (id, g["count"].as_u64().unwrap(), counts.get(id.as_str()).copied().unwrap_or(0)))
        .filter(|(_, count, found)| count != found)
        .collect();
    assert!(off.is_empty(), "drafts whose re-scan count is not their group's (id, count, re-scan): {off:?}");
}

/// Grouping accuracy: the lines of each true template count when they are
/// all in one group that holds no other line (a line in no group is a group
/// of its own).
fn grouping_accuracy(truth: &[String], groups: &[Option<String>]) -> f64 {
    let mut of_truth: HashMap<&str, BTreeSet<usize>> = HashMap::new();
    let mut of_group: HashMap<String, BTreeSet<usize>> = HashMap::new();
    for (line, (t, g)) in truth.iter().zip(groups).enumerate() {
        of_truth.entry(t).or_default().insert(line);
        of_group.entry(g.clone().unwrap_or_else(|| format!("line {line}"))).or_default().insert(line);
    }
    let correct: usize = of_truth
        .values()
        .filter(|lines| {
            let first = *lines.iter().next().unwrap();
            let group = groups[first].clone().unwrap_or_else(|| format!("line {first}"));
            of_group[&group] == **lines
        })
        .map(BTreeSet::len)
        .sum();
    correct as f64 / truth.len() as f64
}

/// The `Content` and `EventId` columns of a Loghub structured CSV (read by
/// Python's csv module, which the CSV was written with).
fn contents_and_truth(structured: &Path) -> (String, Vec<String>) {
    let script = "import csv, json, sys\n\
                  rows = list(csv.DictReader(open(sys.argv[1], encoding='utf-8', errors='replace', newline='')))\n\
                  print(json.dumps([[r['Content'] for r in rows], [r['EventId'] for r in rows]]))";
    let output = std::process::Command::new("python3").args(["-c", script]).arg(structured).output().unwrap();
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let (contents, truth): (Vec<String>, Vec<String>) = serde_json::from_slice(&output.stdout).unwrap();
    (contents.iter().map(|line| format!("{line}\n")).collect(), truth)
}

#[test]
fn a_loghub_system_drafts_into_its_true_templates_and_the_loop_keeps_the_groups() {
    let test = "a_loghub_system_drafts_into_its_true_templates_and_the_loop_keeps_the_groups";
    let Some(loghub) = support::shared("loghub-2k", test) else { return };
    let dir = tempfile::tempdir().unwrap();
    let empty = dir.path().join("empty");
    std::fs::create_dir(&empty).unwrap();
    let never = r#"{"record": {"id": "0000000000000000", "repo": "t/none", "slug": "never", "errorMessage": "never logged zq9x",
        "messagePattern": "never logged zq9x", "filePath": "", "documentation": "", "solutions": [], "tags": [], "schemaVersion": 2}}"#;
    std::fs::write(empty.join("never.json"), never).unwrap();
    // Android: the shared system with the most templates (166).
    let (contents, truth) = contents_and_truth(&loghub.join("Android/Android_2k.log_structured.csv"));
    let log = dir.path().join("android.log");
    std::fs::write(&log, contents).unwrap();
    let drafts = dir.path().join("drafts");
    let groups = draft(&[&empty], &drafts, &log);
    check_clean(&drafts);
    let rescanned = scan(&[&drafts], &log);
    rescan_keeps_the_groups(&groups, &rescanned);
    let lines: Vec<Option<String>> = (1..=truth.len() as u64).map(|line| rescanned.get(&line).cloned()).collect();
    let grouped = lines.iter().filter(|g| g.is_some()).count();
    assert!(grouped >= truth.len() - 5, "{grouped} of {} lines in a draft", truth.len());
    let ga = grouping_accuracy(&truth, &lines);
    // bench/mining_loghub.py measures 0.962 on this system.
    assert!(ga >= 0.95, "grouping accuracy {ga:.3} on Android's Content");

    // The raw lines: the log prefix is stripped by errcat itself.
    let raw = loghub.join("Mac/Mac_2k.log");
    let raw_drafts = dir.path().join("raw-drafts");
    let groups = draft(&[&empty], &raw_drafts, &raw);
    check_clean(&raw_drafts);
    rescan_keeps_the_groups(&groups, &scan(&[&raw_drafts], &raw));
}

#[test]
fn drafts_next_to_a_real_catalog_leave_out_its_lines_and_explain_the_rest() {
    let test = "drafts_next_to_a_real_catalog_leave_out_its_lines_and_explain_the_rest";
    let Some(django) = support::corpus("django", test) else { return };
    let golden = support::workspace_root().join("tools/real/golden/django.jsonl");
    let text = std::fs::read_to_string(&golden).unwrap();
    // The lines of one physical line each (a message with a line break is
    // read as several lines by both scan and draft).
    let lines: Vec<String> = text
        .lines()
        .map(|line| serde_json::from_str::<Json>(line).unwrap()["line"].as_str().unwrap().to_owned())
        .filter(|line| !line.contains(['\n', '\r']))
        .collect();
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("django.log");
    std::fs::write(&log, lines.iter().map(|line| format!("{line}\n")).collect::<String>()).unwrap();
    let explained = scan(&[&django], &log);
    assert!(
        explained.len() > lines.len() / 2,
        "{} of {} lines explained by Django's records",
        explained.len(),
        lines.len()
    );
    let drafts = dir.path().join("drafts");
    let groups = draft(&[&django], &drafts, &log);
    // Every line the catalog does not explain is in a draft, and no other.
    let drafted: u64 = groups.values().map(|g| g["count"].as_u64().unwrap()).sum();
    assert_eq!(drafted as usize, lines.len() - explained.len());
    for group in groups.values() {
        for example in group["examples"].as_array().unwrap() {
            let example = example.as_str().unwrap();
            let at = lines.iter().position(|line| line.ends_with(example)).expect("an example is a line's message");
            assert!(!explained.contains_key(&(at as u64 + 1)), "a line the catalog explains was drafted: {example}");
        }
    }
    check_clean(&drafts);
    // The catalog and the drafts together explain every line, and the lines
    // the catalog did not explain each by its group's draft.
    let together = scan(&[&django, &drafts], &log);
    assert_eq!(together.len(), lines.len(), "lines explained by the catalog and the drafts");
    let mut rest = together.clone();
    rest.retain(|line, _| !explained.contains_key(line));
    rescan_keeps_the_groups(&groups, &rest);
}
