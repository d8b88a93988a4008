//! Round trips over every record of the JavaScript, Python, Rust and Java
//! corpora, loaded at run time as `errcat --data` loads them: each message,
//! rendered with random values, parses back to a record at least as specific
//! (most literal characters, then record order) that renders the same
//! message, with the same values when it is this record (unless two
//! placeholders touch), and a record at least as specific is found inside a
//! log line.

#[path = "support/corpus.rs"]
mod corpus;
#[path = "support/values.rs"]
mod values;

use error_catalog::{Catalog, Piece};
use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};

fn round_trips(name: &str, test: &str) {
    let Some(dir) = corpus::corpus(name, test) else {
        return;
    };
    let catalog = Catalog::load(&dir).expect("the corpus loads without errors");
    let entries = catalog.entries();
    let rank = |index: usize| (std::cmp::Reverse(entries[index].template.literal_len), index);
    let mut failures = Vec::new();
    for (index, entry) in entries.iter().enumerate() {
        let touching = entry
            .template
            .pieces
            .windows(2)
            .any(|w| matches!((&w[0], &w[1]), (Piece::Value { .. }, Piece::Value { .. })));
        let mut runner = TestRunner::new(Config { cases: 8, failure_persistence: None, ..Config::default() });
        let result = runner.run(&values::values(entry), |values| {
            let message = entry.template.render(&values).expect("one value per field");
            let parsed = catalog.parse(&message);
            prop_assert!(parsed.is_some(), "does not parse: {:?}", message);
            let parsed = parsed.unwrap();
            prop_assert!(rank(parsed.index) <= rank(index), "beaten by {}: {:?}", entries[parsed.index].name, message);
            let again = entries[parsed.index].template.render(&parsed.values).expect("one value per field");
            prop_assert_eq!(&again, &message);
            if parsed.index == index && !touching {
                prop_assert_eq!(&parsed.values, &values);
            }
            let line = format!("[4242] 2026/11/29 17:20:00.123456 [ERR] {message}");
            let found = catalog.find(&line);
            // In a line, a record whose message is a prefix of this one's may
            // be found instead, when it ranks higher.
            prop_assert!(found.is_some_and(|m| rank(m.index) <= rank(index)), "not found in {:?}", line);
            Ok(())
        });
        if let Err(failure) = result {
            failures.push(format!("{} ({}): {failure}", entry.name, entry.record.id));
        }
    }
    assert!(failures.is_empty(), "{name}: {} records failed:\n{}", failures.len(), failures.join("\n"));
}

#[test]
fn nodejs_records_round_trip() {
    round_trips("nodejs-node", "nodejs_records_round_trip");
}

#[test]
fn django_records_round_trip() {
    round_trips("django", "django_records_round_trip");
}

#[test]
fn cargo_records_round_trip() {
    round_trips("cargo", "cargo_records_round_trip");
}

#[test]
fn kafka_records_round_trip() {
    round_trips("kafka", "kafka_records_round_trip");
}
