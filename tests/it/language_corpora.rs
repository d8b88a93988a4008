//! Round trips over every record of the JavaScript, Python, Rust and Java
//! corpora, loaded at run time as `errcat --data` loads them: each message,
//! rendered with random values (empty, multi-word, delimiters, non-ASCII:
//! `support/values.rs`), parses back to a record at least as specific (most
//! literal characters, then record order) that renders the same message,
//! with the same values when it is this record (unless two placeholders
//! touch), and is found the same way inside a log line, with text before it
//! and after it.

use crate::{corpus, values};
use error_catalog::{Catalog, Piece, ValueKind};
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
        let ends_with_text = match entry.template.pieces.last() {
            Some(Piece::Value { field, .. }) => entry.template.fields[usize::from(*field)].kind == ValueKind::Text,
            _ => false,
        };
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
            // In a line, with context after it unless the message ends with
            // text (which runs to the end of the line).
            // A message of several lines is searched as it is: no log line
            // holds it. One whose last line is an empty value ends with the
            // line's own break, which the search drops with that line.
            let multi_line =
                entry.template.pieces.iter().any(|p| matches!(p, Piece::Literal(t) if t.contains(['\n', '\r'])))
                    || message.contains(['\n', '\r']);
            let ends_with_value = matches!(entry.template.pieces.last(), Some(Piece::Value { .. }));
            if multi_line && ends_with_value && message.ends_with(['\n', '\r']) {
                return Ok(());
            }
            let after =
                if ends_with_text || multi_line || message.ends_with(['\n', '\r']) { "" } else { " (at worker.rs:10)" };
            let line = format!("[4242] 2026/11/29 17:20:00.123456 [ERR] {message}{after}");
            let found = catalog.find(&line);
            // A record whose message is a prefix of this one's may be found
            // instead, when it ranks higher.
            prop_assert!(found.as_ref().is_some_and(|m| rank(m.index) <= rank(index)), "not found in {:?}", line);
            let found = found.unwrap();
            if found.index == index && !multi_line {
                prop_assert_eq!(&line[found.span.clone()], message.as_str(), "the span in {:?}", line);
                if !touching {
                    prop_assert_eq!(&found.values, &values, "the values in {:?}", line);
                }
            }
            Ok(())
        });
        if let Err(failure) = result {
            failures.push(format!("{} ({}): {failure}", entry.name, entry.record().id));
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
