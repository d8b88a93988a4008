//! The Python extractor against the Django dataset in `datasets/django`.

mod common;

use std::path::Path;

use catalog_extract::lang::python::{skip_path, Python};
use common::{assert_fixtures_give_dataset, assert_tree_gives_dataset, expected, sources, Expected};

fn extract(root: &Path) -> Vec<Expected> {
    let sources = sources(root, ("py", "django/"), skip_path);
    let python = Python::for_sources(sources.iter().map(|(f, t)| (f.as_str(), t.as_str())));
    expected("django/django", sources.iter().flat_map(|(f, t)| python.messages(f, t)).collect())
}

/// Whole Django files (BSD-3-Clause, see `fixtures/python/LICENSE`) give
/// exactly the dataset's records of those files.
#[test]
fn django_files_give_their_dataset_records() {
    assert_fixtures_give_dataset("python", "django", extract, "py");
}

/// The Django 5.2.19 sdist (`DJANGO_SRC`, see `datasets/django/README.md`)
/// gives the dataset.
#[test]
fn django_sdist_gives_the_dataset() {
    assert_tree_gives_dataset("DJANGO_SRC", "an extracted Django 5.2.19 sdist", "django", extract);
}
