//! Dataset updates through the real `errcat` binary: `errcat names` pins
//! names that `--data` then keeps, and `errcat diff` reports each kind of
//! change with its semver level and exit status; on the nats-server corpus
//! (when present), pinning 90% of the records and adding the rest renames
//! nothing.

use std::fs;
use std::path::{Path, PathBuf};

use assert_cmd::Command;
use serde_json::{json, Value};

use crate::support;

/// The repository's root: errcat runs there, on its files (the examples,
/// the seed dataset, the test data).
const ROOT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/..");

/// The seed dataset.
const SEEDS: &str = "data/nats-io/nats-server";
/// The issue's example: `gateway %q has no port specified ...` and `gateway %q has no URL`.
const GATEWAY: &str = "tests/data/gateway";
const PORT_ID: &str = "0c531f01b5a0fef2";
const URL_ID: &str = "3ac9e3bf93c9dce4";
const NAMES_FILE: &str = "error-catalog.names";

/// Where a run that is not given `--no-cache` caches compiled catalogs:
/// never the user's own cache.
const CACHE: &str = concat!(env!("CARGO_TARGET_TMPDIR"), "/errcat-cache");

/// `errcat ARGS`, in the repository's root, with its cache in [`CACHE`];
/// checks the exit status and returns standard output and error.
fn errcat(args: &[&str], code: i32) -> (String, String) {
    let assert = Command::cargo_bin("errcat")
        .expect("the errcat binary")
        .current_dir(ROOT)
        .env("NO_COLOR", "1")
        .env("ERRCAT_CACHE_DIR", CACHE)
        .args(args)
        .assert();
    let output = assert.get_output().clone();
    let text = |bytes: Vec<u8>| String::from_utf8(bytes).expect("UTF-8 output");
    let (stdout, stderr) = (text(output.stdout), text(output.stderr));
    assert_eq!(output.status.code(), Some(code), "errcat {args:?}\nstdout:\n{stdout}\nstderr:\n{stderr}");
    (stdout, stderr)
}

fn path(path: &Path) -> &str {
    path.to_str().expect("a UTF-8 path")
}

/// A dataset directory in a temporary directory, from the record files of `sources`.
fn dataset(root: &Path, name: &str, sources: &[&str]) -> PathBuf {
    let dir = root.join(name);
    fs::create_dir_all(&dir).unwrap();
    for source in sources {
        for entry in fs::read_dir(Path::new(ROOT).join(source)).unwrap() {
            let file = entry.unwrap().path();
            if file.extension().is_some_and(|e| e == "json") {
                fs::copy(&file, dir.join(file.file_name().unwrap())).unwrap();
            }
        }
    }
    dir
}

/// Copies `dir` (its files) to a new directory `name` beside it.
fn copy_of(dir: &Path, name: &str) -> PathBuf {
    let copy = dir.parent().unwrap().join(name);
    fs::create_dir_all(&copy).unwrap();
    for entry in fs::read_dir(dir).unwrap() {
        let file = entry.unwrap().path();
        fs::copy(&file, copy.join(file.file_name().unwrap())).unwrap();
    }
    copy
}

/// `(id, variant name)` of every record, as `errcat --data DIR list` names them.
fn listed(dir: &Path) -> Vec<(String, String)> {
    let (stdout, _) = errcat(&["--no-cache", "--data", path(dir), "list", "--json"], 0);
    let mut rows: Vec<(String, String)> = stdout
        .lines()
        .map(|line| {
            let object: Value = serde_json::from_str(line).unwrap();
            (object["id"].as_str().unwrap().to_owned(), object["name"].as_str().unwrap().to_owned())
        })
        .collect();
    rows.sort();
    rows
}

fn name_of(rows: &[(String, String)], id: &str) -> String {
    rows.iter().find(|(i, _)| i == id).map(|(_, name)| name.clone()).unwrap_or_else(|| panic!("no record {id}"))
}

/// Rewrites record `id`'s file in `dir` with `edit` applied to its record.
fn edit_record(dir: &Path, id: &str, edit: impl FnOnce(&mut Value)) {
    let file = dir.join(format!("{id}.json"));
    let mut document: Value = serde_json::from_str(&fs::read_to_string(&file).unwrap()).unwrap();
    edit(&mut document["record"]);
    fs::write(&file, document.to_string()).unwrap();
}

fn diff_json(old: &Path, new: &Path, extra: &[&str], code: i32) -> Value {
    let mut args = vec!["diff", "--json"];
    args.extend(extra);
    args.extend([path(old), path(new)]);
    serde_json::from_str(&errcat(&args, code).0).unwrap()
}

/// The ids of one list of a `diff --json` report.
fn ids(report: &Value, list: &str) -> Vec<String> {
    report[list].as_array().unwrap().iter().map(|item| item["id"].as_str().unwrap().to_owned()).collect()
}

#[test]
fn names_writes_one_sorted_line_per_record_and_is_idempotent() {
    let root = tempfile::tempdir().unwrap();
    let dir = dataset(root.path(), "seeds", &[SEEDS]);
    let (stdout, _) = errcat(&["names", path(&dir)], 0);
    assert!(stdout.ends_with("error-catalog.names: 3 record(s) pinned: 3 added, 0 dropped, 0 with new field names\n"));
    let text = fs::read_to_string(dir.join(NAMES_FILE)).unwrap();
    let pins: Vec<&str> = text.lines().filter(|line| !line.starts_with('#')).collect();
    assert_eq!(
        pins,
        [
            "443048c6cb7c33f3 CreateQos2IncomingMessagesStreamForAccount acc_name:ByteString err:String",
            "503f49fe39cf5793 UnableToPersistSession ps_id:ByteString seq:String err:String",
            "59aa3418e32dd765 Qos1InFlightWindowIsFull mqtt_max_acks_in_flight:i128 jsa_timeout:String",
        ]
    );
    let (stdout, _) = errcat(&["--data", path(&dir), "names"], 0);
    assert!(stdout.ends_with("3 record(s) pinned, unchanged\n"), "{stdout}");
    assert_eq!(fs::read_to_string(dir.join(NAMES_FILE)).unwrap(), text);
}

#[test]
fn a_pinned_name_survives_a_record_whose_message_starts_alike() {
    let root = tempfile::tempdir().unwrap();
    let dir = dataset(root.path(), "data", &[SEEDS]);
    fs::copy(Path::new(ROOT).join(GATEWAY).join(format!("{PORT_ID}.json")), dir.join(format!("{PORT_ID}.json")))
        .unwrap();
    assert_eq!(name_of(&listed(&dir), PORT_ID), "Gateway");
    // Without a names file, the new record renames it (the issue's report).
    let unpinned = copy_of(&dir, "unpinned");
    fs::copy(Path::new(ROOT).join(GATEWAY).join(format!("{URL_ID}.json")), unpinned.join(format!("{URL_ID}.json")))
        .unwrap();
    assert_ne!(name_of(&listed(&unpinned), PORT_ID), "Gateway");
    // With one, it stays; the newcomer is named around it, then pinned.
    errcat(&["names", path(&dir)], 0);
    fs::copy(Path::new(ROOT).join(GATEWAY).join(format!("{URL_ID}.json")), dir.join(format!("{URL_ID}.json"))).unwrap();
    let rows = listed(&dir);
    assert_eq!(name_of(&rows, PORT_ID), "Gateway");
    assert_eq!(name_of(&rows, URL_ID), "GatewayHasNoUrl");
    let (stdout, _) = errcat(&["names", path(&dir)], 0);
    assert!(stdout.ends_with(": 5 record(s) pinned: 1 added, 0 dropped, 0 with new field names\n"), "{stdout}");
    assert!(fs::read_to_string(dir.join(NAMES_FILE))
        .unwrap()
        .contains(&format!("\n{URL_ID} GatewayHasNoUrl g_name:ByteString\n")));
}

#[test]
fn a_pinned_record_gone_fails_the_load_until_names_drops_it() {
    let root = tempfile::tempdir().unwrap();
    let dir = dataset(root.path(), "data", &[SEEDS]);
    fs::copy(Path::new(ROOT).join(GATEWAY).join(format!("{PORT_ID}.json")), dir.join(format!("{PORT_ID}.json")))
        .unwrap();
    errcat(&["names", path(&dir)], 0);
    fs::copy(Path::new(ROOT).join(GATEWAY).join(format!("{URL_ID}.json")), dir.join(format!("{URL_ID}.json"))).unwrap();
    errcat(&["names", path(&dir)], 0);
    fs::remove_file(dir.join(format!("{PORT_ID}.json"))).unwrap();
    let (_, stderr) = errcat(&["--no-cache", "--data", path(&dir), "list"], 2);
    let names_file = dir.join(NAMES_FILE);
    assert!(
        stderr.contains(&format!(
            "{}:6:1: record `{PORT_ID}` (variant `Gateway`) is pinned here but is no longer in the dataset, so the \
             variant is gone: remove the uses of `Gateway`, then run `errcat names {}` to drop this line",
            names_file.display(),
            dir.display()
        )),
        "{stderr}"
    );
    let (stdout, _) = errcat(&["check", path(&dir)], 1);
    assert!(stdout.contains("is pinned here but is no longer in the dataset"), "{stdout}");
    let (stdout, _) = errcat(&["names", path(&dir)], 0);
    assert!(stdout.contains(": 4 record(s) pinned: 0 added, 1 dropped, 0 with new field names\n"), "{stdout}");
    assert!(stdout.contains(&format!("  - Gateway ({PORT_ID}): the record is gone\n")), "{stdout}");
    assert!(!fs::read_to_string(&names_file).unwrap().contains(PORT_ID));
    assert_eq!(name_of(&listed(&dir), URL_ID), "GatewayHasNoUrl");
}

#[test]
fn names_leaves_the_file_alone_when_the_dataset_has_errors() {
    let root = tempfile::tempdir().unwrap();
    let dir = dataset(root.path(), "data", &[SEEDS]);
    errcat(&["names", path(&dir)], 0);
    let before = fs::read_to_string(dir.join(NAMES_FILE)).unwrap();
    fs::write(dir.join("bad.json"), r#"{"record": {"id": 5}}"#).unwrap();
    fs::write(
        dir.join(format!("{PORT_ID}.json")),
        fs::read(Path::new(ROOT).join(GATEWAY).join(format!("{PORT_ID}.json"))).unwrap(),
    )
    .unwrap();
    let (_, stderr) = errcat(&["names", path(&dir)], 1);
    assert!(stderr.contains("bad.json:1:19: field `id`: expected a string, found a number"), "{stderr}");
    assert!(stderr.contains("its names file is left as it is"), "{stderr}");
    assert_eq!(fs::read_to_string(dir.join(NAMES_FILE)).unwrap(), before);
    // A broken names file is an error with its line, for names as for loads.
    fs::remove_file(dir.join("bad.json")).unwrap();
    fs::write(dir.join(NAMES_FILE), format!("{before}503f49fe39cf5793 Again\n")).unwrap();
    let (_, stderr) = errcat(&["names", path(&dir)], 1);
    assert!(
        stderr.contains("error-catalog.names:9:1: record `503f49fe39cf5793` is pinned twice (first on line 7)"),
        "{stderr}"
    );
}

#[test]
fn diff_of_a_dataset_with_itself_is_empty_and_exits_0() {
    let root = tempfile::tempdir().unwrap();
    let old = dataset(root.path(), "old", &[SEEDS, GATEWAY]);
    let new = copy_of(&old, "new");
    let (stdout, _) = errcat(&["diff", path(&old), path(&new)], 0);
    assert_eq!(stdout, "no changes: every record, name, field and message is the same\n");
    let report = diff_json(&old, &new, &[], 0);
    assert_eq!(report["semver"], "none");
    assert_eq!(report["reasons"], json!([]));
}

#[test]
fn diff_reports_added_records_as_breaking_or_minor_when_non_exhaustive() {
    let root = tempfile::tempdir().unwrap();
    let old = dataset(root.path(), "old", &[SEEDS]);
    errcat(&["names", path(&old)], 0);
    let new = copy_of(&old, "new");
    for id in [PORT_ID, URL_ID] {
        fs::copy(Path::new(ROOT).join(GATEWAY).join(format!("{id}.json")), new.join(format!("{id}.json"))).unwrap();
    }
    let (stdout, _) = errcat(&["diff", path(&old), path(&new)], 1);
    assert_eq!(
        stdout,
        format!(
            "added (2):\n\
             \x20 + GatewayHasNoPortSpecifiedSelect1ForRandomPort  {PORT_ID}  gateway %q has no port specified (select -1 for random port)\n\
             \x20 + GatewayHasNoUrl  {URL_ID}  gateway %q has no URL\n\
             semver: breaking: 2 variant(s) added to an exhaustive enum\n\
             \x20 a crate whose public API contains the enum needs a new major version (a new minor one before 1.0)\n\
             \x20 with #[non_exhaustive] on the enum, minor (errcat diff --non-exhaustive)\n"
        )
    );
    let (stdout, _) = errcat(&["diff", "--non-exhaustive", path(&old), path(&new)], 1);
    assert!(stdout.ends_with("semver: minor: 2 variant(s) added to a #[non_exhaustive] enum\n  a crate whose public API contains the enum needs a new minor version\n"), "{stdout}");
    let report = diff_json(&old, &new, &[], 1);
    assert_eq!(ids(&report, "added"), [PORT_ID, URL_ID]);
    assert_eq!(report["added"][1]["fields"], json!([{"name": "g_name", "type": "ByteString"}]));
    assert_eq!(
        (report["semver"].as_str(), report["semverIfNonExhaustive"].as_str()),
        (Some("breaking"), Some("minor"))
    );
    for list in ["removed", "renamed", "fields", "messages", "documentation"] {
        assert_eq!(report[list], json!([]), "{list}");
    }
    assert_eq!(diff_json(&old, &new, &["--non-exhaustive"], 1)["semver"], "minor");
}

#[test]
fn diff_reports_removed_and_renamed_records_as_breaking() {
    let root = tempfile::tempdir().unwrap();
    let old = dataset(root.path(), "old", &[SEEDS, GATEWAY]);
    // Without names files, removing one record renames the other.
    let new = copy_of(&old, "new");
    fs::remove_file(new.join(format!("{URL_ID}.json"))).unwrap();
    let report = diff_json(&old, &new, &["--non-exhaustive"], 1);
    assert_eq!(ids(&report, "removed"), [URL_ID]);
    assert_eq!(
        report["renamed"],
        json!([{"id": PORT_ID, "old": "GatewayHasNoPortSpecifiedSelect1ForRandomPort", "new": "Gateway"}])
    );
    assert_eq!(report["semver"], "breaking");
    // With the names file, no rename; the removal stays breaking.
    errcat(&["names", path(&old)], 0);
    fs::copy(old.join(NAMES_FILE), new.join(NAMES_FILE)).unwrap();
    let report = diff_json(&old, &new, &["--non-exhaustive"], 1);
    assert_eq!((ids(&report, "removed"), ids(&report, "renamed")), (vec![URL_ID.to_owned()], vec![]));
    let (stdout, _) = errcat(&["diff", path(&old), path(&new)], 1);
    assert!(stdout.contains("semver: breaking: 1 variant(s) removed\n"), "{stdout}");
    // A rename the names file makes is reported.
    let text = fs::read_to_string(new.join(NAMES_FILE)).unwrap();
    fs::write(new.join(NAMES_FILE), text.replace(" UnableToPersistSession ", " PersistSessionFailed ")).unwrap();
    let (stdout, _) = errcat(&["diff", path(&old), path(&new)], 1);
    assert!(
        stdout.contains("renamed (1):\n  ~ UnableToPersistSession → PersistSessionFailed  503f49fe39cf5793\n"),
        "{stdout}"
    );
    assert!(stdout.contains("semver: breaking: 1 variant(s) removed; 1 variant(s) renamed\n"), "{stdout}");
}

#[test]
fn diff_reports_changed_fields_messages_and_documentation() {
    let root = tempfile::tempdir().unwrap();
    let old = dataset(root.path(), "old", &[SEEDS]);
    errcat(&["names", path(&old)], 0);
    // Reworded, same fields: a patch.
    let reworded = copy_of(&old, "reworded");
    edit_record(&reworded, "443048c6cb7c33f3", |record| {
        record["errorMessage"] = json!("create QoS2 incoming-messages stream for account %q: %v");
        record["messagePattern"] = json!(null);
    });
    let report = diff_json(&old, &reworded, &[], 1);
    assert_eq!((ids(&report, "messages"), ids(&report, "fields")), (vec!["443048c6cb7c33f3".to_owned()], vec![]));
    assert_eq!(report["messages"][0]["new"]["errorMessage"], "create QoS2 incoming-messages stream for account %q: %v");
    assert_eq!(report["semver"], "patch");
    // The pinned name holds although the leading words changed.
    assert_eq!(ids(&report, "renamed"), Vec::<String>::new());
    // Documentation only: a patch.
    let documented = copy_of(&old, "documented");
    edit_record(&documented, "59aa3418e32dd765", |record| record["solutions"] = json!(["Raise the window"]));
    let (stdout, _) = errcat(&["diff", path(&old), path(&documented)], 1);
    assert_eq!(
        stdout,
        "documentation changed (1):\n  ~ Qos1InFlightWindowIsFull  59aa3418e32dd765\n\
         semver: patch: 1 record(s) with changed documentation\n\
         \x20 a crate whose public API contains the enum needs a new patch version\n"
    );
    // A placeholder more, and a type changed: breaking, with each field named.
    let retyped = copy_of(&old, "retyped");
    let reword = |record: &mut Value, from: &str, to: &str| {
        for key in ["errorMessage", "sourceCode"] {
            let text = record[key].as_str().unwrap().replace(from, to);
            record[key] = json!(text);
        }
        record["messagePattern"] = json!(null);
    };
    // The verb (and so the type) of `seq`, with the source unchanged
    // otherwise: the pin keeps every name.
    edit_record(&retyped, "503f49fe39cf5793", |record| reword(record, "(seq=%v)", "(seq=%d)"));
    // A placeholder more, and its argument in the source.
    edit_record(&retyped, "59aa3418e32dd765", |record| {
        reword(record, "within %v;", "within %v (%s);");
        reword(record, "mqttMaxAcksInFlight, jsa.timeout)", "mqttMaxAcksInFlight, jsa.timeout, reason)");
    });
    let (stdout, _) = errcat(&["diff", "--non-exhaustive", path(&old), path(&retyped)], 1);
    assert!(
        stdout.contains(
            "fields changed (2):\n\
             \x20 ~ UnableToPersistSession  503f49fe39cf5793: `seq`: String → i128\n\
             \x20 ~ Qos1InFlightWindowIsFull  59aa3418e32dd765: `reason: String` added\n"
        ),
        "{stdout}"
    );
    assert!(stdout.contains("messages changed (2):\n"), "{stdout}");
    assert!(
        stdout.contains("semver: breaking: 2 variant(s) with fields removed, renamed, added or retyped\n"),
        "{stdout}"
    );
}

#[test]
fn diff_of_a_missing_or_broken_dataset_exits_2() {
    let root = tempfile::tempdir().unwrap();
    let old = dataset(root.path(), "old", &[SEEDS]);
    let missing = root.path().join("missing");
    let (stdout, stderr) = errcat(&["diff", path(&old), path(&missing)], 2);
    assert_eq!(stdout, "");
    assert!(stderr.contains("cannot open the record directory"), "{stderr}");
    let broken = copy_of(&old, "broken");
    fs::write(broken.join("bad.json"), "{").unwrap();
    let (_, stderr) = errcat(&["diff", "--json", path(&broken), path(&old)], 2);
    assert!(stderr.contains("bad.json:1:1: malformed JSON: EOF while parsing an object"), "{stderr}");
    assert!(stderr.contains(&format!("errcat: {} has 1 error(s)", broken.display())), "{stderr}");
}

/// The issue's acceptance test: on the corpus, pin 90% of the records, add
/// the other 10%: no pinned name changes, and `diff` lists exactly the added
/// records, as breaking (minor with `#[non_exhaustive]`).
#[test]
fn on_the_corpus_pinning_90_percent_then_adding_the_rest_renames_nothing() {
    let Some(corpus) =
        support::corpus("nats-server", "on_the_corpus_pinning_90_percent_then_adding_the_rest_renames_nothing")
    else {
        return;
    };
    let root = tempfile::tempdir().unwrap();
    let (before, after) = (root.path().join("before"), root.path().join("after"));
    fs::create_dir_all(&before).unwrap();
    fs::create_dir_all(&after).unwrap();
    let mut files: Vec<PathBuf> = fs::read_dir(&corpus)
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|file| file.extension().is_some_and(|e| e == "json"))
        .collect();
    files.sort();
    let mut held_out = Vec::new();
    for (index, file) in files.iter().enumerate() {
        let name = file.file_name().unwrap();
        fs::copy(file, after.join(name)).unwrap();
        // Every tenth record is the update.
        if index % 10 == 9 {
            held_out.push(file.file_stem().unwrap().to_str().unwrap().to_owned());
        } else {
            fs::copy(file, before.join(name)).unwrap();
        }
    }
    // Without a names file, the update renames shared variants.
    let (unpinned_before, unpinned_after) = (listed(&before), listed(&after));
    let renamed_by_the_rule = unpinned_before.iter().filter(|(id, name)| name_of(&unpinned_after, id) != *name).count();
    assert!(renamed_by_the_rule > 0, "the corpus no longer shows the problem");
    errcat(&["names", path(&before)], 0);
    fs::copy(before.join(NAMES_FILE), after.join(NAMES_FILE)).unwrap();
    let (pinned_before, pinned_after) = (listed(&before), listed(&after));
    assert_eq!(pinned_before, unpinned_before, "pinning renames nothing");
    let changed: Vec<&(String, String)> =
        pinned_before.iter().filter(|(id, name)| name_of(&pinned_after, id) != *name).collect();
    assert!(changed.is_empty(), "{} pinned names changed: {changed:?}", changed.len());
    let mut names: Vec<&str> = pinned_after.iter().map(|(_, name)| name.as_str()).collect();
    names.sort();
    names.dedup();
    assert_eq!(names.len(), pinned_after.len(), "every name is unique");
    let report = diff_json(&before, &after, &[], 1);
    held_out.sort();
    assert_eq!(ids(&report, "added"), held_out);
    for list in ["removed", "renamed", "fields", "messages", "documentation"] {
        assert_eq!(report[list], json!([]), "{list}");
    }
    assert_eq!(report["semver"], "breaking");
    assert_eq!(diff_json(&before, &after, &["--non-exhaustive"], 1)["semver"], "minor");
    eprintln!(
        "corpus: {} records pinned, {} added; renamed without a names file: {renamed_by_the_rule}, with one: 0",
        pinned_before.len(),
        held_out.len()
    );
}
