//! The Python extractor against the Django dataset in `datasets/django`.

mod common;

use std::path::{Path, PathBuf};

use catalog_extract::lang::python::{messages, skip_path};
use common::{compare, dataset, describe, record_id, source_files, Expected};

const REPO: &str = "django/django";

fn extract_tree(root: &Path) -> Vec<Expected> {
    let mut out = Vec::new();
    for file in source_files(root, "py") {
        if !file.starts_with("django/") || skip_path(&file) {
            continue;
        }
        let text = std::fs::read_to_string(root.join(&file)).unwrap();
        for m in messages(&file, &text) {
            let f = m.found;
            out.push(Expected {
                id: record_id(REPO, &f.file, f.line, &f.message),
                file: f.file,
                line: f.line,
                call_lines: f.call_lines,
                message: f.message,
                pattern: m.pattern,
                error_type: f.error_type,
                error_class: f.error_class,
                error_code: f.error_code,
                severity: f.severity,
                source: f.source,
                documentation: m.documentation,
            });
        }
    }
    out
}

/// Whole Django files (BSD-3-Clause, see `fixtures/python/LICENSE`) give
/// exactly the dataset's records of those files.
#[test]
fn django_files_give_their_dataset_records() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/python");
    let extracted = extract_tree(&root);
    let files: Vec<String> = source_files(&root, "py");
    assert!(files.len() >= 3, "fixtures missing under {}", root.display());
    let mut want = dataset("django");
    want.retain(|_, r| files.contains(&r.file));
    assert!(want.len() >= 40, "the fixtures hold {} dataset records", want.len());
    let comparison = compare(&extracted, &want);
    assert!(
        comparison.removed.is_empty() && comparison.changed.is_empty() && comparison.added.is_empty(),
        "{}",
        describe(&comparison)
    );
}

/// The Django 5.2.19 sdist (`DJANGO_SRC`, see `datasets/django/README.md`)
/// gives every record of the dataset, unchanged.
#[test]
fn django_sdist_gives_the_dataset() {
    let Some(root) = std::env::var_os("DJANGO_SRC") else {
        eprintln!("SKIPPED: set DJANGO_SRC to an extracted Django 5.2.19 sdist to compare the whole dataset");
        return;
    };
    let extracted = extract_tree(Path::new(&root));
    let comparison = compare(&extracted, &dataset("django"));
    assert!(
        comparison.removed.is_empty() && comparison.changed.is_empty() && comparison.added.is_empty(),
        "{}",
        describe(&comparison)
    );
}
