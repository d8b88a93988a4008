//! Property: a message wrapped in any envelope (Docker json-file, CRI,
//! journald, RFC 5424 and RFC 3164 syslog, logfmt, JSON logs, JSON inside
//! CRI) unwraps to the same record and identical values as the bare line,
//! for every record of the seed dataset and of the shared corpora, with
//! hostile values (quotes, backslashes, the formats' delimiters, non-ASCII;
//! see `support/values.rs`).

use crate::{corpus, values, wrap};

use error_catalog::nats_server::NatsServerError;
use error_catalog::{Catalog, Entry, Envelope};
use proptest::test_runner::{Config, TestCaseError, TestRunner};
use serde_json::json;
use wrap::{docker_string, go_quote};

const PREFIX: &str = "[7] 2026/11/29 17:20:00.123456 [ERR] ";

/// Every envelope's rendering of the bare `line` (prefix and `message`).
fn wrapped(line: &str, message: &str) -> Vec<(Envelope, String)> {
    let escaped = docker_string(&format!("{line}\n"));
    vec![
        (Envelope::Docker, format!(r#"{{"log":{escaped},"stream":"stderr","time":"2026-11-29T17:20:00.123456Z"}}"#)),
        (Envelope::Cri, format!("2026-11-29T17:20:00.123456789Z stderr F {line}")),
        (
            Envelope::Journald,
            json!({"__CURSOR": "s=1", "__REALTIME_TIMESTAMP": "1", "PRIORITY": "3", "MESSAGE": line}).to_string(),
        ),
        (Envelope::Syslog, format!("<11>1 2026-11-29T17:20:00.123456Z host-a app 7 - [a@1 k=\"v\\]\"] {line}")),
        (Envelope::Syslog, format!("<11>Nov  9 17:20:00 host-a app[7]: {line}")),
        (Envelope::Logfmt, format!("time=2026-11-29T17:20:00Z level=error msg={}", go_quote(message))),
        (Envelope::Json(None), json!({"level": "error", "msg": message}).to_string()),
        (
            Envelope::Cri,
            format!("2026-11-29T17:20:00.1Z stdout F {}", json!({"message": message, "log.level": "error"})),
        ),
    ]
}

/// Runs the property for every entry of `catalog` with `cases` cases each.
fn check(catalog: &Catalog, cases: u32) {
    for (index, entry) in catalog.entries().iter().enumerate() {
        let mut runner = TestRunner::new(Config { cases, failure_persistence: None, ..Config::default() });
        runner
            .run(&values::values(entry), |values| same_in_every_envelope(catalog, index, entry, values))
            .unwrap_or_else(|failure| panic!("{}: {failure}", entry.name));
    }
}

fn same_in_every_envelope(
    catalog: &Catalog,
    index: usize,
    entry: &Entry,
    values: Vec<error_catalog::Value<'static>>,
) -> Result<(), TestCaseError> {
    let Ok(message) = catalog.render(index, &values) else { return Ok(()) };
    // One log line: a message of several lines is a multi-line event.
    if message.contains(['\n', '\r']) {
        return Ok(());
    }
    let line = format!("{PREFIX}{message}");
    let Some(bare) = catalog.find(&line) else { return Ok(()) };
    for (envelope, wrapped) in wrapped(&line, &message) {
        assert_eq!(Envelope::detect([wrapped.as_str()]), envelope, "{}: {wrapped}", entry.name);
        let unwrapped = envelope.unwrap(&wrapped);
        let found = catalog.find(unwrapped.text());
        let found = found.as_ref().map(|found| (found.index, &found.values));
        proptest::prop_assert_eq!(found, Some((bare.index, &bare.values)), "{}: {}", envelope, wrapped);
    }
    Ok(())
}

#[test]
fn seed_records_classify_alike_in_every_envelope() {
    check(&Catalog::from_entries(NatsServerError::entries().to_vec()), 256);
}

#[test]
fn corpus_records_classify_alike_in_every_envelope() {
    for name in ["nats-server", "nodejs-node", "django", "cargo", "kafka"] {
        let Some(dir) = corpus::corpus(name, "corpus_records_classify_alike_in_every_envelope") else { continue };
        let catalog = Catalog::load(&dir).expect("the corpus loads");
        check(&catalog, 4);
    }
}
