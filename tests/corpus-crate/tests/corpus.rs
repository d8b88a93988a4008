//! The macro applied to the whole nats-server corpus (2,008 records).

#[path = "../../support/values.rs"]
mod values;

use corpus_crate::{CorpusError, CorpusErrorKind, CORPUS_DIR, CORPUS_PRESENT};
use error_catalog::{Catalog, CatalogEnum, Value};
use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};

fn skip() -> bool {
    if !CORPUS_PRESENT {
        eprintln!("note: skipped: the corpus is absent ({CORPUS_DIR}); CI has it");
    }
    !CORPUS_PRESENT
}

#[test]
fn one_variant_per_record() {
    if skip() {
        return;
    }
    assert_eq!(CorpusError::COUNT, 2008);
    assert_eq!(CorpusErrorKind::ALL.len(), 2008);
    let mut names: Vec<&str> = CorpusErrorKind::ALL.iter().map(|k| k.name()).collect();
    names.sort();
    names.dedup();
    assert_eq!(names.len(), 2008, "variant names are unique");
}

#[test]
fn variant_and_field_names() {
    if skip() {
        return;
    }
    // `fmt.Errorf("no_auth_user: %q not present as user or nkey ...", noAuthUser)`
    let kind = CorpusErrorKind::from_id("adc04ac3c129d9a5").expect("in the corpus");
    // Its leading words `no_auth_user` are shared with another record, so all its words are used.
    assert_eq!(kind.name(), "NoAuthUserNotPresentAsUserOrNkeyInAuthorizationBlock");
    assert_eq!(kind.metadata().field_names().collect::<Vec<_>>(), ["no_auth_user"]);
    // `c.Debugf("Authenticated JWT: %s %q (claim-name: %q, ...", c.kindString(), juc.Subject, juc.Name, ...)`
    let jwt = CorpusErrorKind::from_id("5ec1cd5596f7a42d").expect("in the corpus").metadata();
    assert_eq!(jwt.field_names().take(3).collect::<Vec<_>>(), ["c_kind_string", "juc_subject", "juc_name"]);
    assert_eq!(jwt.template.fields.len(), 11);
    // errors.New text keeps its `%` signs literal.
    let home = CorpusErrorKind::from_id("3fe5f440f0671509").expect("in the corpus").metadata();
    assert!(home.template.fields.is_empty());
    let message = "nats: failed to get home dir, require %HOMEDRIVE% and %HOMEPATH% or %USERPROFILE%";
    assert_eq!(CorpusError::parse(message).map(|e| e.kind()), Some(home_kind()));
    let with_percent = CorpusErrorKind::from_id("a3a758f4978cf141").expect("in the corpus");
    let error = CorpusError::parse("Stream 'A > B' enabling direct gets at 75% synchronized").expect("matches");
    assert_eq!(error.kind(), with_percent);
    assert_eq!(error.values()[2], Value::Float(75.0));
}

fn home_kind() -> CorpusErrorKind {
    CorpusErrorKind::from_id("3fe5f440f0671509").expect("in the corpus")
}

#[test]
fn compiled_and_loaded_corpus_agree() {
    if skip() {
        return;
    }
    let catalog = Catalog::load(CORPUS_DIR).expect("the corpus loads without errors");
    assert_eq!(catalog.len(), CorpusError::COUNT);
    for (loaded, compiled) in catalog.entries().iter().zip(CorpusError::entries()) {
        assert_eq!(loaded.name, compiled.name);
        assert_eq!(loaded.template, compiled.template);
    }
}

/// For every record: random values render, and parsing the message gives a
/// record at least as specific (most literal characters, then record order)
/// that renders the same message; when that record is this one, the values
/// are the same too, unless two placeholders touch (`%s%s` cannot be split
/// unambiguously). The message is found inside a nats-server log line alike.
#[test]
fn every_record_round_trips() {
    if skip() {
        return;
    }
    let entries = CorpusError::entries();
    let rank = |index: usize| (std::cmp::Reverse(entries[index].template.literal_len), index);
    let mut failures = Vec::new();
    for (index, metadata) in entries.iter().enumerate() {
        let touching = metadata.template.pieces.windows(2).any(|w| {
            matches!((&w[0], &w[1]), (error_catalog::Piece::Value { .. }, error_catalog::Piece::Value { .. }))
        });
        let mut runner = TestRunner::new(Config { cases: 16, failure_persistence: None, ..Config::default() });
        let result = runner.run(&(values::values(metadata), 1u32..100_000), |(values, pid)| {
            let error = CorpusError::from_values(index, values).expect("values fit the variant");
            let message = error.to_string();
            let prefix = format!("[{pid}] 2026/11/29 17:20:00.123456 [ERR] ");
            let line = format!("{prefix}{message}");
            let found = CorpusError::find_span(&line);
            prop_assert!(found.is_some(), "not found: {:?}", line);
            let (found, span) = found.unwrap();
            let parsed = CorpusError::parse(&message);
            prop_assert!(parsed.is_some(), "does not parse: {:?}", message);
            let parsed = parsed.unwrap();
            for winner in [&parsed, &found] {
                prop_assert!(
                    rank(winner.index()) <= rank(index),
                    "{} beat by {}: {:?}",
                    metadata.name,
                    winner.metadata().name,
                    message
                );
                prop_assert_eq!(winner.to_string(), message.clone());
                if winner.index() == index && !touching {
                    prop_assert_eq!(winner.values(), error.values());
                }
            }
            prop_assert_eq!(span, prefix.len()..prefix.len() + message.trim_end_matches(['\n', '\r']).len());
            Ok(())
        });
        if let Err(failure) = result {
            failures.push(format!("{} ({}): {failure}", metadata.name, metadata.id));
        }
    }
    assert!(failures.is_empty(), "{} records failed:\n{}", failures.len(), failures.join("\n"));
}
