//! The API generated for the default catalog (`data/`), through the public
//! re-exports of `error-catalog` only.

use std::str::FromStr;

use error_catalog::nats_server::{NatsServerError, NatsServerErrorKind};
use error_catalog::{CatalogEnum, HandlingStrategy, Severity, Value};

const PERSIST: &str = r#"unable to persist session "sess-1" (seq=42): nats: timeout"#;
const LOG_PREFIX: &str = "[1] 2026/11/29 17:20:00.123456 [ERR] ";

fn persist() -> NatsServerError {
    NatsServerError::UnableToPersistSession { ps_id: "sess-1".into(), seq: "42".into(), err: "nats: timeout".into() }
}

#[test]
fn one_variant_per_seed_record_with_names_from_the_message() {
    assert_eq!(NatsServerError::COUNT, 3);
    assert_eq!(NatsServerErrorKind::COUNT, 3);
    let names: Vec<&str> = NatsServerErrorKind::ALL.iter().map(|k| k.name()).collect();
    assert_eq!(
        names,
        ["CreateQos2IncomingMessagesStreamForAccount", "UnableToPersistSession", "Qos1InFlightWindowIsFull"]
    );
    let ids: Vec<&str> = NatsServerErrorKind::ALL.iter().map(|k| k.id()).collect();
    assert_eq!(ids, ["443048c6cb7c33f3", "503f49fe39cf5793", "59aa3418e32dd765"], "sorted path order");
}

#[test]
fn field_names_and_types_come_from_the_source_call() {
    let window = NatsServerError::Qos1InFlightWindowIsFull { mqtt_max_acks_in_flight: 512, jsa_timeout: "5s".into() };
    assert_eq!(window.values(), vec![Value::Int(512), Value::Str("5s".into())]);
    let create = NatsServerError::CreateQos2IncomingMessagesStreamForAccount { acc_name: "A".into(), err: "e".into() };
    assert_eq!(create.metadata().field_names().collect::<Vec<_>>(), ["acc_name", "err"]);
}

#[test]
fn parse_matches_a_whole_message() {
    assert_eq!(NatsServerError::parse(PERSIST), Some(persist()));
    assert_eq!(
        NatsServerError::parse(&format!("{PERSIST} and more")).map(|e| e.kind()),
        Some(NatsServerErrorKind::UnableToPersistSession)
    );
    assert_eq!(NatsServerError::parse(&format!("x {PERSIST}")), None, "parse does not search");
    assert_eq!(NatsServerError::parse("something else entirely"), None);
    let window = "QoS1 in-flight window is full (-3 messages) and JetStream has not acknowledged the oldest message within 2.5s; failing the connection, the client will re-send unacknowledged PUBLISH packets on reconnect";
    assert_eq!(
        NatsServerError::parse(window),
        Some(NatsServerError::Qos1InFlightWindowIsFull { mqtt_max_acks_in_flight: -3, jsa_timeout: "2.5s".into() })
    );
}

#[test]
fn quoted_placeholders_are_unquoted_and_requoted() {
    let message = r#"create QoS2 incoming messages stream for account "a \"quoted\"\tname": insufficient resources"#;
    let error = NatsServerError::parse(message).expect("matches the QoS2 record");
    assert_eq!(
        error,
        NatsServerError::CreateQos2IncomingMessagesStreamForAccount {
            acc_name: "a \"quoted\"\tname".into(),
            err: "insufficient resources".into()
        }
    );
    assert_eq!(error.to_string(), message);
    // Without quotes it is not that record's message.
    assert_eq!(NatsServerError::parse("create QoS2 incoming messages stream for account A: e"), None);
}

#[test]
fn integer_fields_hold_every_64_bit_value_and_beyond_up_to_i128() {
    let window = |n: &str| {
        format!("QoS1 in-flight window is full ({n} messages) and JetStream has not acknowledged the oldest message within 2.5s; failing the connection, the client will re-send unacknowledged PUBLISH packets on reconnect")
    };
    let acks = |message: &str| match NatsServerError::parse(message) {
        Some(NatsServerError::Qos1InFlightWindowIsFull { mqtt_max_acks_in_flight, .. }) => {
            Some(mqtt_max_acks_in_flight)
        }
        _ => None,
    };
    for n in [i128::from(u64::MAX), i128::from(i64::MIN), i128::MAX, i128::MIN] {
        let message = window(&n.to_string());
        assert_eq!(acks(&message), Some(n));
        assert_eq!(NatsServerError::parse(&message).unwrap().to_string(), message);
    }
    // Beyond `i128` (a Python integer): no integer field holds it, so the
    // enum does not match this record; the run-time catalog keeps the value.
    let beyond = window("170141183460469231731687303715884105728");
    assert_eq!(NatsServerError::parse(&beyond), None);
    let catalog = error_catalog::Catalog::load("data/nats-io/nats-server").unwrap();
    let found = catalog.parse(&beyond).expect("the loaded catalog matches");
    assert_eq!(found.values[0], Value::BigInt("170141183460469231731687303715884105728".into()));
}

#[test]
fn quoted_fields_hold_bytes_that_are_not_utf8() {
    // Go's `%q` of a string that is not UTF-8 writes `\x` escapes.
    let message = r#"create QoS2 incoming messages stream for account "\xc3(ab": insufficient resources"#;
    let Some(NatsServerError::CreateQos2IncomingMessagesStreamForAccount { acc_name, err }) =
        NatsServerError::parse(message)
    else {
        panic!("the QoS2 record matches");
    };
    assert_eq!((&*acc_name, acc_name.as_str(), err.as_str()), (&b"\xc3(ab"[..], None, "insufficient resources"));
    assert_eq!(acc_name.to_string(), r"\xc3(ab");
    assert_ne!(acc_name, r"\xc3(ab", "not the text Go quotes as \"\\xc3(ab\"");
    let error = NatsServerError::CreateQos2IncomingMessagesStreamForAccount { acc_name, err };
    assert_eq!(error.to_string(), message, "rendered back as Go wrote it");
}

#[test]
fn find_locates_the_message_in_a_log_line() {
    let line = format!("{LOG_PREFIX}{PERSIST}\n");
    let (error, span) = NatsServerError::find_span(&line).expect("found");
    assert_eq!(error, persist());
    assert_eq!(span, LOG_PREFIX.len()..LOG_PREFIX.len() + PERSIST.len());
    assert_eq!(NatsServerError::find(&line), Some(persist()));
    assert_eq!(NatsServerError::find("[1] 2026/11/29 17:20:00.123456 [INF] Server is ready"), None);
    let all = NatsServerError::find_all(&line);
    assert_eq!(all.len(), 1);
    assert_eq!(all[0].0, persist());
}

#[test]
fn display_re_renders_the_message() {
    assert_eq!(persist().to_string(), PERSIST);
    let error = NatsServerError::UnableToPersistSession { ps_id: "x\ny".into(), seq: "1".into(), err: "e".into() };
    assert_eq!(error.to_string(), r#"unable to persist session "x\ny" (seq=1): e"#);
    assert_eq!(NatsServerError::parse(&error.to_string()), Some(error));
}

#[test]
fn metadata_comes_from_the_record() {
    let metadata = persist().metadata();
    assert_eq!(metadata.record().id, "503f49fe39cf5793");
    assert_eq!(metadata.record().slug, "unable-to-persist-session-q-seq-v-v");
    assert_eq!(metadata.record().severity, Some(Severity::Error));
    assert_eq!(metadata.record().handling_strategy, Some(HandlingStrategy::Retry));
    assert!(metadata.record().documentation.starts_with("Returned when storing the persisted session record fails"));
    assert_eq!(metadata.record().solutions.len(), 4);
    assert_eq!(*metadata.record().tags, ["mqtt", "jetstream", "persistence"]);
    assert_eq!(metadata.record().line_number, Some(3435));
    assert_eq!(metadata.name, "UnableToPersistSession");
    assert!(std::ptr::eq(metadata, NatsServerErrorKind::UnableToPersistSession.metadata()));
    assert_eq!(NatsServerError::entries().len(), 3);
}

#[test]
fn kinds_are_looked_up_by_id_slug_and_name() {
    let kind = NatsServerErrorKind::UnableToPersistSession;
    assert_eq!(NatsServerErrorKind::from_id("503f49fe39cf5793"), Some(kind));
    assert_eq!(NatsServerErrorKind::from_slug("unable-to-persist-session-q-seq-v-v"), Some(kind));
    assert_eq!(NatsServerErrorKind::from_name("UnableToPersistSession"), Some(kind));
    assert_eq!(NatsServerErrorKind::from_id("0000000000000000"), None);
    assert_eq!(NatsServerErrorKind::from_str("503f49fe39cf5793"), Ok(kind));
    assert!(NatsServerErrorKind::from_str("nope").is_err());
    assert_eq!(NatsServerErrorKind::from_index(1), Some(kind));
    assert_eq!(kind.index(), 1);
    assert_eq!(persist().kind(), kind);
    assert_eq!(format!("{kind:?} {kind}"), "UnableToPersistSession UnableToPersistSession");
    let mut sorted = NatsServerErrorKind::ALL.to_vec();
    sorted.sort();
    assert_eq!(sorted, NatsServerErrorKind::ALL);
}

#[test]
fn std_traits() {
    let error = persist();
    assert_eq!(error.clone(), error);
    assert_ne!(
        error,
        NatsServerError::UnableToPersistSession {
            ps_id: "other".into(),
            seq: "42".into(),
            err: "nats: timeout".into()
        }
    );
    assert_eq!(format!("{error:?}"), r#"UnableToPersistSession { ps_id: "sess-1", seq: "42", err: "nats: timeout" }"#);
    assert_eq!(NatsServerError::from_str(PERSIST), Ok(persist()));
    let failure = NatsServerError::from_str("not a known message").unwrap_err();
    assert_eq!(failure.to_string(), r#"no NatsServerError matches "not a known message""#);
    let boxed: Box<dyn std::error::Error + Send + Sync> = Box::new(error);
    assert_eq!(boxed.to_string(), PERSIST);
}

#[test]
fn generic_code_uses_the_catalog_enum_trait() {
    fn count_known<E: CatalogEnum>(lines: &[&str]) -> usize {
        lines.iter().filter(|line| E::find(line).is_some()).count()
    }
    assert_eq!(count_known::<NatsServerError>(&[PERSIST, "nothing", PERSIST]), 2);
    assert_eq!(<NatsServerError as CatalogEnum>::COUNT, 3);
}
