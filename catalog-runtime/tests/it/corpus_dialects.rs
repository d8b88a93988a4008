//! Every record of the JavaScript, Python, Rust and Java corpora compiles in
//! its own language's dialect, as the corpus's README counts them: the
//! `messagePattern` fallback is taken for no record (the counts are also in
//! docs/guide.md).

use crate::corpus;

use std::collections::BTreeMap;

use catalog_runtime::build::build;
use catalog_runtime::{load_dir, Dialect, Filter};

/// Records per dialect in corpus `name`, after checking it builds without errors.
fn dialects(name: &str, test: &str) -> Option<BTreeMap<&'static str, usize>> {
    let dir = corpus::corpus(name, test)?;
    let loaded = load_dir(&dir);
    assert!(loaded.diagnostics.is_empty(), "{name}: {:?}", loaded.diagnostics);
    let count = loaded.records.len();
    let built = build(loaded.records, &Filter::default());
    let errors: Vec<String> = built.diagnostics.iter().map(ToString::to_string).collect();
    assert!(errors.is_empty(), "{name}: {}", errors.join("\n"));
    assert_eq!(built.entries.len(), count);
    let mut counts = BTreeMap::new();
    for entry in &built.entries {
        *counts.entry(entry.entry.template.dialect.name()).or_default() += 1;
    }
    eprintln!("{name}: {counts:?}");
    Some(counts)
}

fn expect(counts: &BTreeMap<&str, usize>, expected: &[(Dialect, usize)]) {
    let expected: BTreeMap<&str, usize> = expected.iter().map(|(d, n)| (d.name(), *n)).collect();
    assert_eq!(counts, &expected);
}

#[test]
fn nodejs_records_are_util_format_template_literals_or_plain() {
    let Some(counts) = dialects("nodejs-node", "nodejs_records_are_util_format_template_literals_or_plain") else {
        return;
    };
    expect(&counts, &[(Dialect::JsFormat, 317), (Dialect::JsTemplate, 1243), (Dialect::Plain, 15)]);
}

#[test]
fn django_records_are_percent_brace_or_plain() {
    let Some(counts) = dialects("django", "django_records_are_percent_brace_or_plain") else {
        return;
    };
    expect(&counts, &[(Dialect::Python, 950), (Dialect::PythonBrace, 195), (Dialect::Plain, 903)]);
}

#[test]
fn cargo_records_are_rust_format_or_plain() {
    let Some(counts) = dialects("cargo", "cargo_records_are_rust_format_or_plain") else {
        return;
    };
    expect(&counts, &[(Dialect::Rust, 896), (Dialect::Plain, 101)]);
}

#[test]
fn kafka_records_are_slf4j_string_format_or_plain() {
    let Some(counts) = dialects("kafka", "kafka_records_are_slf4j_string_format_or_plain") else {
        return;
    };
    expect(&counts, &[(Dialect::Slf4j, 3455), (Dialect::JavaFormat, 353), (Dialect::Plain, 1302)]);
}
