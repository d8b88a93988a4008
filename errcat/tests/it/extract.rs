//! `errcat extract` through the real binary: on a source file of the
//! nats-server snapshot the dataset names (checked in under
//! `catalog-extract/tests/fixtures/go/`), it writes the very record files
//! `datasets/nats-server` has for that file, ids included, and `errcat
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

#[test]
fn go_source_gives_the_datasets_records_and_checks_clean() {
    let out = tempfile::tempdir().expect("a temporary directory");
    let out_dir = out.path().to_str().expect("a UTF-8 path");
    let run = errcat(&[
        "extract",
        "--lang",
        "go",
        "--src",
        "catalog-extract/tests/fixtures/go",
        "--repo",
        "nats-io/nats-server",
        "--sha",
        NATS_SHA,
        "--out",
        out_dir,
        "--name",
        "nats",
    ]);
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    assert_eq!(String::from_utf8_lossy(&run.stdout), format!("16 records from 1 go files written to {out_dir}/nats\n"));

    let dataset = Path::new(ROOT).join("datasets/nats-server");
    let mut written: Vec<_> = fs::read_dir(out.path().join("nats"))
        .expect("the dataset folder")
        .map(|e| e.expect("an entry").path())
        .collect();
    written.sort();
    let records: Vec<_> = written.iter().filter(|p| p.extension().is_some_and(|e| e == "json")).collect();
    assert_eq!(records.len(), 16);
    for path in &records {
        let name = path.file_name().expect("a file name");
        let ours = fs::read_to_string(path).expect("a record file");
        let theirs = fs::read_to_string(dataset.join(name))
            .unwrap_or_else(|err| panic!("{name:?} is not in datasets/nats-server: {err}"));
        assert_eq!(ours, theirs, "{name:?}");
    }
    let readme = fs::read_to_string(out.path().join("nats/README.md")).expect("the README");
    assert!(
        readme.contains(&format!("errcat extract --lang go --src SOURCE --repo nats-io/nats-server --sha {NATS_SHA}")),
        "{readme}"
    );

    let check = errcat(&["check", &format!("{out_dir}/nats")]);
    let report = String::from_utf8_lossy(&check.stdout);
    assert!(check.status.success(), "{report}{}", String::from_utf8_lossy(&check.stderr));
    assert!(report.contains("16 record(s) in 16 file(s), 0 error(s)"), "{report}");
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
