//! The datasets compiled into errcat (`errcat/build.rs`): `errcat datasets`,
//! `--dataset`, `$ERRCAT_DATASET`, how `--data` replaces or joins them, the
//! `dataset` each record is said to be of, and what real programs' logs
//! classify as with no option, against `--data` of the program's own
//! dataset (`tools/real/golden/`, laid out in log lines as
//! `bench/real_rates.py` lays them out).

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::Path;

use assert_cmd::Command;
use serde_json::Value;

use crate::support;

/// Where the runs cache compiled catalogs: never the user's own cache.
const CACHE: &str = concat!(env!("CARGO_TARGET_TMPDIR"), "/embedded-cache");

/// The embedded datasets' names, in catalog order: the seeds, then every
/// folder of `datasets/` by name.
const NAMES: [&str; 6] = ["seeds", "cargo", "django", "kafka", "nats-server", "nodejs-node"];

/// The folder of the embedded dataset `name`.
fn folder_of(name: &str) -> String {
    if name == "seeds" {
        "data/nats-io/nats-server".to_owned()
    } else {
        format!("datasets/{name}")
    }
}

/// Runs errcat in the workspace's root with `args` and no
/// `$ERRCAT_DATASET` or `$ERRCAT_DATA`, expecting exit status `code`;
/// returns stdout and stderr.
fn errcat(args: &[&str], code: i32) -> (String, String) {
    errcat_with(args, &[], code)
}

fn errcat_with(args: &[&str], env: &[(&str, &str)], code: i32) -> (String, String) {
    let mut command = Command::cargo_bin("errcat").expect("the errcat binary");
    command.current_dir(support::workspace_root()).env("ERRCAT_CACHE_DIR", CACHE);
    command.env_remove("ERRCAT_DATASET").env_remove("ERRCAT_DATA").envs(env.iter().copied());
    let out = command.args(args).output().expect("errcat runs");
    let (stdout, stderr) =
        (String::from_utf8_lossy(&out.stdout).into_owned(), String::from_utf8_lossy(&out.stderr).into_owned());
    assert_eq!(out.status.code(), Some(code), "errcat {args:?}\nstdout: {stdout}\nstderr: {stderr}");
    (stdout, stderr)
}

fn json_lines(text: &str) -> Vec<Value> {
    text.lines().map(|line| serde_json::from_str(line).expect("a JSON line")).collect()
}

/// Every dataset folder is there, or the test is skipped loudly.
fn datasets_or_skip(test: &str) -> bool {
    NAMES[1..].iter().all(|name| support::corpus(name, test).is_some())
}

/// The records of `dir`, as their files hold them.
fn records_of(dir: &Path) -> Vec<Value> {
    let mut records = Vec::new();
    for entry in fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|extension| extension == "json") {
            let document: Value = serde_json::from_str(&fs::read_to_string(&path).unwrap()).unwrap();
            records.push(document["record"].clone());
        }
    }
    records
}

/// The value most records have under `key` (the first in text order of
/// those as frequent).
fn most_common(records: &[Value], key: &str) -> String {
    let mut counts: BTreeMap<&str, usize> = BTreeMap::new();
    for value in records.iter().filter_map(|record| record[key].as_str()).filter(|value| !value.is_empty()) {
        *counts.entry(value).or_default() += 1;
    }
    let most = counts.values().copied().max().unwrap_or(0);
    counts.into_iter().find(|&(_, count)| count == most).map(|(value, _)| value.to_owned()).unwrap_or_default()
}

#[test]
fn datasets_lists_each_embedded_dataset_with_its_records_source_and_version() {
    let test = "datasets_lists_each_embedded_dataset_with_its_records_source_and_version";
    if !datasets_or_skip(test) {
        return;
    }
    let listed = json_lines(&errcat(&["datasets", "--json"], 0).0);
    let root = support::workspace_root();
    let mut folders: Vec<String> = fs::read_dir(root.join("datasets"))
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.is_dir())
        .map(|path| path.file_name().unwrap().to_string_lossy().into_owned())
        .collect();
    folders.sort();
    assert_eq!(NAMES[1..], folders, "every folder of datasets/ is embedded");
    assert_eq!(listed.len(), NAMES.len());
    for (name, listed) in NAMES.iter().zip(&listed) {
        let records = records_of(&root.join(folder_of(name)));
        assert_eq!(listed["name"], *name);
        assert_eq!(listed["records"], records.len(), "{name}");
        assert_eq!(listed["project"], most_common(&records, "repo"), "{name}");
        assert_eq!(listed["version"], most_common(&records, "analyzedSha"), "{name}");
    }
    let text = errcat(&["datasets"], 0).0;
    assert!(text.contains("kafka           5110  apache/kafka"), "{text}");
    assert!(text.ends_with("6 dataset(s), 11741 record(s)\n"), "{text}");
}

/// The `dataset` of every record `list --json` lists with `args`, and how
/// many records are of each.
fn datasets_listed(args: &[&str], env: &[(&str, &str)]) -> BTreeMap<String, usize> {
    let mut counts = BTreeMap::new();
    for record in json_lines(&errcat_with(&[args, &["list", "--json"]].concat(), env, 0).0) {
        *counts.entry(record["dataset"].as_str().expect("a dataset name").to_owned()).or_default() += 1;
    }
    counts
}

#[test]
fn dataset_chooses_embedded_datasets_and_data_replaces_them() {
    let test = "dataset_chooses_embedded_datasets_and_data_replaces_them";
    if !datasets_or_skip(test) {
        return;
    }
    let counts = |pairs: &[(&str, usize)]| pairs.iter().map(|&(name, count)| (name.to_owned(), count)).collect();
    let all =
        [("cargo", 997), ("django", 2048), ("kafka", 5110), ("nats-server", 2008), ("nodejs-node", 1575), ("seeds", 3)];
    assert_eq!(datasets_listed(&[], &[]), counts(&all));
    assert_eq!(datasets_listed(&["--dataset", "django"], &[]), counts(&[("django", 2048)]));
    assert_eq!(
        datasets_listed(&["--dataset", "seeds", "--dataset", "cargo"], &[]),
        counts(&[("cargo", 997), ("seeds", 3)])
    );
    assert_eq!(datasets_listed(&[], &[("ERRCAT_DATASET", "kafka, seeds")]), counts(&[("kafka", 5110), ("seeds", 3)]));
    // --data replaces the embedded datasets ($ERRCAT_DATASET included);
    // with --dataset, both are used. A directory's dataset is its name.
    assert_eq!(
        datasets_listed(&["--data", "datasets/cargo"], &[("ERRCAT_DATASET", "kafka")]),
        counts(&[("cargo", 997)])
    );
    let both = datasets_listed(&["--dataset", "seeds", "--data", "datasets/cargo"], &[]);
    assert_eq!(both, counts(&[("cargo", 997), ("seeds", 3)]));

    let (_, stderr) = errcat(&["--dataset", "nats", "list"], 2);
    assert!(
        stderr.contains(r#"no dataset is called "nats"; one of seeds, cargo, django, kafka, nats-server, nodejs-node"#),
        "{stderr}"
    );
    let (_, stderr) = errcat_with(&["list"], &[("ERRCAT_DATASET", "seeds,nope")], 2);
    assert!(stderr.contains(r#"$ERRCAT_DATASET: no dataset is called "nope""#), "{stderr}");
    // Two datasets with a record id in common stay an error.
    let (_, stderr) = errcat(&["--dataset", "nats-server", "--data", "datasets/nats-server", "list"], 2);
    assert!(stderr.contains("is in both the embedded datasets and datasets/nats-server"), "{stderr}");
}

#[test]
fn show_and_list_name_the_dataset_of_a_record() {
    let (text, _) = errcat(&["--dataset", "seeds", "show", "503f49fe39cf5793"], 0);
    assert!(text.lines().any(|line| line == "dataset:         seeds"), "{text}");
    let (json, _) = errcat(&["show", "--json", "503f49fe39cf5793"], 0);
    assert_eq!(json_lines(&json)[0]["dataset"], "seeds");
    let (json, _) = errcat(&["--data", "data/nats-io/nats-server", "list", "--json"], 0);
    assert!(json_lines(&json).iter().all(|record| record["dataset"] == "nats-server"), "{json}");
}

/// The log lines of a program's golden messages, as `bench/real_rates.py`
/// scans them: each message inside the log line the program wrote (cargo's:
/// its whole stderr).
fn golden_log(program: &str) -> String {
    let path = support::workspace_root().join("tools/real/golden").join(format!("{program}.jsonl"));
    let text = fs::read_to_string(&path).unwrap_or_else(|err| panic!("{}: {err}", path.display()));
    let mut log = String::new();
    for line in text.lines().filter(|line| !line.trim().is_empty()) {
        let golden: Value = serde_json::from_str(line).unwrap();
        let written = golden["line"].as_str().or(golden["text"].as_str()).expect("a line or a text");
        log.push_str(written.trim_end_matches('\n'));
        log.push('\n');
    }
    log
}

/// `scan --json`'s matches of `log` by line number.
fn matches_by_line(args: &[&str], log: &Path) -> BTreeMap<u64, Vec<Value>> {
    let (stdout, _) = errcat(&[args, &["scan", "--json", log.to_str().unwrap()]].concat(), 0);
    let mut by_line: BTreeMap<u64, Vec<Value>> = BTreeMap::new();
    for found in json_lines(&stdout).into_iter().filter(|found| found.get("unmatched").is_none()) {
        by_line.entry(found["line"].as_u64().unwrap()).or_default().push(found);
    }
    by_line
}

#[test]
fn with_no_option_real_programs_logs_classify_as_their_own_dataset_does() {
    let test = "with_no_option_real_programs_logs_classify_as_their_own_dataset_does";
    if !datasets_or_skip(test) {
        return;
    }
    // Lines that no record of the program's dataset matches, but a record
    // of another dataset does, as measured when the datasets were embedded:
    // messages with no record of their own (Django's "This field is
    // required.", Node's "... Received undefined") or of several lines
    // (Kafka's), matched by short records elsewhere (`%s is required`,
    // `Received %s`, `%s timed out`). On every other line the choice is
    // the program's dataset's: the most literal record wins, whatever its
    // dataset, so another dataset's record can take a line only where it
    // is more literal than every record of the program's.
    let extra_at_most = [("django", 9), ("nodejs-node", 5), ("cargo", 0), ("kafka", 2)];
    let dir = tempfile::tempdir().unwrap();
    for (program, extra_at_most) in extra_at_most {
        let log = dir.path().join(format!("{program}.log"));
        fs::write(&log, golden_log(program)).unwrap();
        let own = matches_by_line(&["--data", &format!("datasets/{program}")], &log);
        let embedded = matches_by_line(&[], &log);
        assert!(own.len() > 10, "{program}: {} lines matched by its own dataset", own.len());
        for (line, found) in &own {
            assert_eq!(embedded.get(line), Some(found), "{program}: line {line}: the embedded datasets' matches");
            assert!(found.iter().all(|found| found["dataset"] == program), "{program}: line {line}: {found:?}");
        }
        let extra: BTreeSet<&u64> = embedded.keys().filter(|line| !own.contains_key(line)).collect();
        assert!(
            extra.len() <= extra_at_most,
            "{program}: {} lines matched only by another dataset's records (at most {extra_at_most}): {:?}",
            extra.len(),
            extra.iter().map(|line| &embedded[line][0]).collect::<Vec<_>>()
        );
    }
}

#[test]
fn a_one_word_record_does_not_match_inside_a_longer_word() {
    let test = "a_one_word_record_does_not_match_inside_a_longer_word";
    if !datasets_or_skip(test) {
        return;
    }
    // Kafka's extraction errors whose whole message is `consumer` or
    // `producer` took every nats-server line that counts consumers.
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("words.log");
    let lines = [
        "[1] 2026/11/29 17:20:00.123456 [INF] Restored 3 consumers for stream \"ORDERS\"",
        "[1] 2026/11/29 17:20:00.123457 [INF] producers paused",
        "producer",
    ];
    fs::write(&log, lines.join("\n") + "\n").unwrap();
    let by_line = matches_by_line(&[], &log);
    assert!(by_line.keys().all(|&line| line == 3), "{by_line:?}");
    let last = by_line.get(&3).map(|found| found[0]["slug"].as_str().unwrap_or_default().to_owned());
    assert_eq!(last.as_deref(), Some("producer"), "{by_line:?}");
}

#[test]
fn check_warns_of_a_record_whose_message_is_one_word() {
    let test = "check_warns_of_a_record_whose_message_is_one_word";
    let Some(kafka) = support::corpus("kafka", test) else { return };
    let dir = tempfile::tempdir().unwrap();
    // `consumer` (an extraction error) and a message of several words.
    for id in ["3ba057817d29aa55", "0066f96162fa3949"] {
        fs::copy(kafka.join(format!("{id}.json")), dir.path().join(format!("{id}.json"))).unwrap();
    }
    let (stdout, _) = errcat(&["check", dir.path().to_str().unwrap()], 0);
    let warned: Vec<&str> = stdout.lines().filter(|line| line.contains("one word with no placeholder")).collect();
    assert_eq!(warned.len(), 1, "{stdout}");
    assert!(warned[0].contains("3ba057817d29aa55.json:") && warned[0].contains("`errorMessage`"), "{stdout}");
}

/// `--data` of every embedded dataset's folder, in catalog order.
fn data_of_every_folder() -> Vec<String> {
    NAMES.iter().flat_map(|name| ["--data".to_owned(), folder_of(name)]).collect()
}

/// `output`'s JSON lines, the `dataset` of each record of `seeds` (ids)
/// called `seeds`, as the embedded catalog calls it: `--data` calls them
/// after their folder (`nats-server`).
fn seeds_named(output: &str, seeds: &BTreeSet<String>) -> Vec<Value> {
    let mut lines = json_lines(output);
    for line in &mut lines {
        if line["id"].as_str().is_some_and(|id| seeds.contains(id)) {
            line["dataset"] = "seeds".into();
        }
    }
    lines
}

#[test]
fn the_embedded_catalog_lists_shows_and_scans_as_data_of_its_folders_does() {
    let test = "the_embedded_catalog_lists_shows_and_scans_as_data_of_its_folders_does";
    if !datasets_or_skip(test) {
        return;
    }
    // Every record as `list --json` gives it (its fields, dataset and file),
    // compiled into the program or loaded from the files.
    let data = data_of_every_folder();
    let data: Vec<&str> = data.iter().map(String::as_str).collect();
    let listed = |args: &[&str]| errcat(&[args, &["list", "--json"]].concat(), 0).0;
    let embedded = json_lines(&listed(&[]));
    assert_eq!(embedded.len(), 11741);
    let seeds = embedded.iter().filter(|record| record["dataset"] == "seeds");
    let seeds: BTreeSet<String> = seeds.map(|record| record["id"].as_str().unwrap().to_owned()).collect();
    assert_eq!(seeds.len(), 3);
    assert_eq!(embedded, seeds_named(&listed(&data), &seeds));
    // A record of each dataset shown whole, with its file and line.
    for name in NAMES {
        let first = embedded.iter().find(|record| record["dataset"] == name).expect("a record of each dataset");
        let id = first["id"].as_str().unwrap();
        let shown = |args: &[&str]| errcat(&[args, &["show", "--json", id]].concat(), 0).0;
        assert_eq!(json_lines(&shown(&[])), seeds_named(&shown(&data), &seeds), "show {id}");
        let text = |args: &[&str]| errcat(&[args, &["show", id]].concat(), 0).0;
        let (from_files, compiled_in) = (text(&data), text(&[]));
        let seeds = |text: &str| text.replace("dataset:         nats-server", "dataset:         seeds");
        let from_files = if name == "seeds" { seeds(&from_files) } else { from_files };
        assert_eq!(compiled_in, from_files, "show {id}");
    }
    // Real programs' logs, every match with its values and record.
    let dir = tempfile::tempdir().unwrap();
    for program in ["cargo", "django", "kafka", "nodejs-node"] {
        let log = dir.path().join(format!("{program}.log"));
        fs::write(&log, golden_log(program)).unwrap();
        let scanned = |args: &[&str]| errcat(&[args, &["scan", "--json", log.to_str().unwrap()]].concat(), 0).0;
        let embedded = scanned(&[]);
        assert!(embedded.lines().count() > 10, "{program}: {embedded}");
        assert_eq!(json_lines(&embedded), seeds_named(&scanned(&data), &seeds), "{program}");
    }
}
