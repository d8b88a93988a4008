//! The macro applied to the whole nats-server corpus (2,008 records).

#[path = "../../support/corpus.rs"]
mod corpus;
#[path = "../../support/values.rs"]
mod values;

use corpus_crate::{CorpusError, CorpusErrorKind, CORPUS_DIR, CORPUS_PRESENT};
use error_catalog::{Catalog, CatalogEnum, Match, Value, ValueKind};
use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};

/// Whether `test` must be skipped: the corpus was absent when this crate
/// was built (said on the terminal, see `support/corpus.rs`).
fn skip(test: &str) -> bool {
    corpus::corpus("nats-server", test).is_none() || !CORPUS_PRESENT
}

#[test]
fn one_variant_per_record() {
    if skip("one_variant_per_record") {
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
    if skip("variant_and_field_names") {
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
    if skip("compiled_and_loaded_corpus_agree") {
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
    if skip("every_record_round_trips") {
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
            failures.push(format!("{} ({}): {failure}", metadata.name, metadata.record().id));
        }
    }
    assert!(failures.is_empty(), "{} records failed:\n{}", failures.len(), failures.join("\n"));
}

/// A log line made from a random corpus message: rendered with random values,
/// sometimes cut short or with a character changed, between random prefix and
/// suffix noise (which includes pieces of other messages).
fn corpus_line() -> impl Strategy<Value = String> {
    let entries = CorpusError::entries();
    let message = (0..entries.len())
        .prop_flat_map(move |index| (Just(index), values::values(&entries[index])))
        .prop_map(|(index, values)| CorpusError::from_values(index, values).expect("values fit").to_string());
    let fragment = (0..entries.len(), any::<prop::sample::Index>()).prop_map(move |(index, at)| {
        let literals: Vec<&str> = entries[index]
            .template
            .pieces
            .iter()
            .filter_map(|piece| match piece {
                error_catalog::Piece::Literal(text) => Some(text.as_ref()),
                _ => None,
            })
            .collect();
        if literals.is_empty() {
            String::new()
        } else {
            literals[at.index(literals.len())].to_owned()
        }
    });
    let noise = prop::collection::vec(prop_oneof!["[ -~]{0,6}", "[\t é\"\\\\0-9]{0,4}", fragment], 0..3)
        .prop_map(|parts| parts.concat());
    let damage = prop_oneof![3 => Just(None), 1 => any::<(prop::sample::Index, char)>().prop_map(Some)];
    (noise.clone(), message, damage, noise).prop_map(|(before, message, damage, after)| {
        let mut message = message;
        if let Some((at, c)) = damage {
            let boundaries: Vec<usize> = message.char_indices().map(|(i, _)| i).collect();
            if !boundaries.is_empty() {
                let at = boundaries[at.index(boundaries.len())];
                let next = message[at..].chars().next().map_or(at, |old| at + old.len_utf8());
                // A newline would split the line; a change is then a cut.
                let replacement = if c == '\n' || c == '\r' { String::new() } else { c.to_string() };
                message.replace_range(at..next, &replacement);
            }
        }
        // One line: line breaks (in fragments, too) become spaces.
        format!("{before}{message}{after}").replace(['\n', '\r'], " ")
    })
}

/// The catalog the macro compiled and the catalog `errcat --data` loads at
/// run time find the same record, values and span in random lines, one line
/// at a time and in a buffer scan.
#[test]
fn compiled_and_loaded_find_the_same() {
    if skip("compiled_and_loaded_find_the_same") {
        return;
    }
    let catalog = Catalog::load(CORPUS_DIR).expect("the corpus loads without errors");
    let mut runner = TestRunner::new(Config { cases: 3000, failure_persistence: None, ..Config::default() });
    let lines = prop::collection::vec(corpus_line(), 1..6);
    let (found, total) = (std::cell::Cell::new(0), std::cell::Cell::new(0));
    runner
        .run(&lines, |lines| {
            let mut expected = Vec::new();
            let mut unfit = Vec::new();
            for (number, line) in lines.iter().enumerate() {
                let compiled = CorpusError::find_span(line)
                    .map(|(e, span)| (e.index(), own(&catalog, e.index(), e.values()), span));
                // The generated fields are `i128`, `f64`, `bool`,
                // `ByteString` and `String`: a value beyond them (an integer
                // beyond `i128`, which the run-time catalog keeps as a
                // `BigInt`) makes the enum take the next record. The same
                // accept step on the loaded catalog must agree.
                let fits = |m: &Match<'_>| {
                    let fields = &catalog.entries()[m.index].template.fields;
                    fields.iter().zip(&m.values).all(|(field, value)| fits_generated_field(field.kind, value))
                };
                let loaded = catalog
                    .matcher()
                    .find_map(line, |m| fits(&m).then_some(m))
                    .map(|m| (m.index, own(&catalog, m.index, m.values), m.span));
                if catalog.find(line).is_some_and(|m| !fits(&m)) {
                    unfit.push(number);
                }
                prop_assert_eq!(&compiled, &loaded, "line {:?}", line);
                total.set(total.get() + 1);
                found.set(found.get() + usize::from(compiled.is_some()));
                expected.extend(compiled.map(|found| (number, found)));
            }
            let text = lines.join("\n");
            let starts: Vec<usize> = std::iter::once(0).chain(text.match_indices('\n').map(|(i, _)| i + 1)).collect();
            let mut scanned = Vec::new();
            catalog.matcher().find_lines(&text, |range, m| {
                let number = starts.partition_point(|&start| start <= range.start) - 1;
                scanned.push((number, (m.index, own(&catalog, m.index, m.values), m.span)));
            });
            // The buffer scan has no accept step: lines whose best match
            // does not fit the generated fields are compared above only.
            scanned.retain(|(number, _)| !unfit.contains(number));
            expected.retain(|(number, _)| !unfit.contains(number));
            prop_assert_eq!(scanned, expected);
            Ok(())
        })
        .unwrap();
    // The lines must exercise matching, not only noise.
    assert!(found.get() * 2 > total.get(), "only {} of {} lines matched", found.get(), total.get());
}

/// Whether a generated field of `kind` holds the value: an integer within
/// `i128` for `i128`, text, bytes or a quoted rune for `ByteString`, any
/// value for `String` (as its text).
fn fits_generated_field(kind: ValueKind, value: &Value<'_>) -> bool {
    match (kind, value) {
        (ValueKind::Int, Value::Int(_) | Value::Uint(_)) => true,
        (ValueKind::Int, Value::BigInt(digits)) => digits.parse::<i128>().is_ok(),
        (ValueKind::Float, Value::Float(_) | Value::Float32(_)) => true,
        (ValueKind::Bool, Value::Bool(_)) => true,
        (ValueKind::Quoted, Value::Str(_) | Value::Bytes(_) | Value::Int(_)) => true,
        (ValueKind::Text, _) => true,
        _ => false,
    }
}

/// The values of entry `index`, owned, as the generated fields hold them: a
/// text field's value that is not text as its text, a quoted rune as its
/// character.
fn own(catalog: &Catalog, index: usize, values: Vec<Value<'_>>) -> Vec<Value<'static>> {
    let fields = &catalog.entries()[index].template.fields;
    let held = |(field, value): (&error_catalog::Field, Value<'_>)| match (field.kind, value) {
        (ValueKind::Text, Value::Str(text)) => Value::Str(text.into_owned().into()),
        (ValueKind::Text, other) => Value::Str(other.to_string().into()),
        (ValueKind::Quoted, Value::Int(code)) => {
            let c = u32::try_from(code).ok().and_then(char::from_u32).unwrap_or(char::REPLACEMENT_CHARACTER);
            Value::Str(c.to_string().into())
        }
        (_, other) => other.into_owned(),
    };
    fields.iter().zip(values).map(held).collect()
}
