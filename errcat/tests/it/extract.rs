//! `errcat extract` through the real binary: on source files of the
//! commits the datasets name (checked in under
//! `catalog-extract/tests/fixtures/<lang>/`), it writes the very record
//! files `datasets/<name>` has for those files, ids included, and `errcat
//! check` finds no error in them; bad options are clear errors.

use std::fs;
use std::path::Path;

use assert_cmd::Command;

/// The repository's root: errcat runs there, on its files.
const ROOT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/..");
const NATS_SHA: &str = "1787eee035cf0253c201fa0f05afad92b6f296dc";

fn errcat(args: &[&str]) -> std::process::Output {
    Command::cargo_bin("errcat")
        .expect("the errcat binary")
        .current_dir(ROOT)
        .env("NO_COLOR", "1")
        .args(args)
        .output()
        .expect("errcat runs")
}

/// A fixture of real source and the dataset made from the whole project.
struct Fixture {
    lang: &'static str,
    repo: &'static str,
    sha: &'static str,
    stamp: &'static str,
    dataset: &'static str,
    files: usize,
    records: usize,
    /// Messages the fixture must give (the shapes each extractor reads).
    messages: &'static [&'static str],
}

const FIXTURES: [Fixture; 3] = [
    Fixture {
        lang: "go",
        repo: "nats-io/nats-server",
        sha: NATS_SHA,
        stamp: "2026-11-29T00:00:00.000Z",
        dataset: "nats-server",
        files: 1,
        records: 16,
        messages: &[
            "pinned account key %q is not a valid public account nkey",
            "operators do not allow users to be configured directly",
        ],
    },
    Fixture {
        lang: "rust",
        repo: "rust-lang/cargo",
        sha: "af373f761aa4e42b093c2e453078fd73c8ce54dd",
        stamp: "2026-11-30T00:00:00.000Z",
        dataset: "cargo",
        files: 2,
        records: 19,
        // Built into `msg` first, then raised: what cargo prints for a missing dependency.
        messages: &["no matching package named `{}` found", "failed to select a version for `{}`."],
    },
    Fixture {
        lang: "java",
        repo: "apache/kafka",
        sha: "1eb7644349cb07139d6a3c1ad1986979647cac99",
        stamp: "2026-11-30T00:00:00.000Z",
        dataset: "kafka",
        files: 2,
        records: 15,
        messages: &["Successfully authenticated as {}", "Authentication exchange has not completed"],
    },
];

/// Each language's fixture gives the very record files its dataset has for
/// those source files, and `errcat check` finds no error in them.
#[test]
fn sources_give_the_datasets_records_and_check_clean() {
    for fixture in &FIXTURES {
        let out = tempfile::tempdir().expect("a temporary directory");
        let out_dir = out.path().to_str().expect("a UTF-8 path");
        let src = format!("catalog-extract/tests/fixtures/{}", fixture.lang);
        let run = errcat(&[
            "extract",
            "--lang",
            fixture.lang,
            "--src",
            &src,
            "--repo",
            fixture.repo,
            "--sha",
            fixture.sha,
            "--stamp",
            fixture.stamp,
            "--out",
            out_dir,
            "--name",
            "made",
        ]);
        assert!(run.status.success(), "{}: {}", fixture.lang, String::from_utf8_lossy(&run.stderr));
        let said = format!(
            "{} records from {} {} files written to {out_dir}/made\n",
            fixture.records, fixture.files, fixture.lang
        );
        assert_eq!(String::from_utf8_lossy(&run.stdout), said);

        let dataset = Path::new(ROOT).join("datasets").join(fixture.dataset);
        let mut records: Vec<_> = fs::read_dir(out.path().join("made"))
            .expect("the dataset folder")
            .map(|e| e.expect("an entry").path())
            .filter(|p| p.extension().is_some_and(|e| e == "json"))
            .collect();
        records.sort();
        assert_eq!(records.len(), fixture.records, "{}", fixture.lang);
        let mut messages = Vec::new();
        for path in &records {
            let name = path.file_name().expect("a file name");
            let ours = fs::read_to_string(path).expect("a record file");
            let theirs = fs::read_to_string(dataset.join(name))
                .unwrap_or_else(|err| panic!("{name:?} is not in datasets/{}: {err}", fixture.dataset));
            assert_eq!(ours, theirs, "{name:?}");
            let record: serde_json::Value = serde_json::from_str(&ours).expect("JSON");
            messages.push(record["record"]["errorMessage"].as_str().expect("a message").to_string());
        }
        for message in fixture.messages {
            assert!(
                messages.iter().any(|m| m == message),
                "{}: no record of {message:?} in {messages:?}",
                fixture.lang
            );
        }
        let readme = fs::read_to_string(out.path().join("made/README.md")).expect("the README");
        let command = format!(
            "errcat extract --lang {} --src SOURCE --repo {} --sha {}",
            fixture.lang, fixture.repo, fixture.sha
        );
        assert!(readme.contains(&command), "{readme}");

        let check = errcat(&["check", &format!("{out_dir}/made")]);
        let report = String::from_utf8_lossy(&check.stdout);
        assert!(check.status.success(), "{report}{}", String::from_utf8_lossy(&check.stderr));
        let summary = format!("{0} record(s) in {0} file(s), 0 error(s)", fixture.records);
        assert!(report.contains(&summary), "{report}");
    }
}

#[test]
fn unknown_language_and_missing_source_are_clear_errors() {
    let out = tempfile::tempdir().expect("a temporary directory");
    let out_dir = out.path().to_str().expect("a UTF-8 path");
    let base = ["extract", "--repo", "o/n", "--sha", "v1", "--out", out_dir];
    let run = errcat(&[&base[..], &["--lang", "cobol", "--src", "catalog-extract"]].concat());
    assert_eq!(run.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&run.stderr).contains("--lang cobol: not a known language (known: go"), "{run:?}");

    let run = errcat(&[&base[..], &["--lang", "go", "--src", "no/such/dir"]].concat());
    assert_eq!(run.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&run.stderr).contains("no/such/dir"), "{run:?}");
    assert!(fs::read_dir(out.path()).expect("the folder").next().is_none(), "nothing is written on an error");
}
