//! `#[derive(Catalog)]`: a user-written enum importing records of the seed
//! data in `data/nats-io/nats-server`.

use std::str::FromStr;

use error_catalog::Catalog;

#[derive(Debug, PartialEq, Catalog)]
#[catalog(path = "data/nats-io/nats-server")]
enum MqttFailure {
    #[catalog(slug = "unable-to-persist-session-q-seq-v-v")]
    PersistSession { ps_id: String, seq: u64, err: String },
    #[catalog(id = "59aa3418e32dd765")]
    InFlightWindowFull,
    #[catalog(other)]
    Unknown(String),
}

/// No catch-all: `parse` and `find` may fail, `metadata` always succeeds.
#[derive(Debug, PartialEq, Catalog)]
#[catalog(path = "data/nats-io/nats-server")]
enum Strict {
    // Fields in another order than the message's, and one omitted.
    #[catalog(id = "503f49fe39cf5793")]
    Persist { err: String, seq: u32 },
    #[catalog(id = "59aa3418e32dd765")]
    Window { mqtt_max_acks_in_flight: u16 },
}

/// Every seed record imported: compiles only while the data has no other.
#[derive(Debug, PartialEq, Catalog)]
#[catalog(path = "data/nats-io/nats-server", exhaustive)]
enum All {
    #[catalog(id = "443048c6cb7c33f3")]
    CreateStream { acc_name: String, err: String },
    #[catalog(id = "503f49fe39cf5793")]
    Persist { ps_id: String, seq: String, err: String },
    #[catalog(slug = "qos1-in-flight-window-is-full-d-messages-and-je")]
    Window { mqtt_max_acks_in_flight: i64, jsa_timeout: String },
}

/// `exhaustive` after filters: only the records tagged `persistence`.
#[derive(Debug, PartialEq, Catalog)]
#[catalog(path = "data/nats-io/nats-server", tags = ["persistence"], exhaustive)]
enum Persistence {
    #[catalog(id = "503f49fe39cf5793")]
    Persist,
}

/// A newtype field, through `FromStr` and `Display`.
#[derive(Debug, PartialEq)]
struct Acks(u16);

impl FromStr for Acks {
    type Err = std::num::ParseIntError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        s.parse().map(Acks)
    }
}

impl std::fmt::Display for Acks {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.fmt(f)
    }
}

#[derive(Debug, PartialEq, Catalog)]
#[catalog(path = "data/nats-io/nats-server", crate = "::error_catalog")]
enum Newtype {
    #[catalog(id = "59aa3418e32dd765")]
    Window { mqtt_max_acks_in_flight: Acks, jsa_timeout: String },
}

const PERSIST: &str = r#"unable to persist session "sess-1" (seq=42): nats: timeout"#;
const WINDOW: &str = "QoS1 in-flight window is full (512 messages) and JetStream has not acknowledged the oldest message within 5s; failing the connection, the client will re-send unacknowledged PUBLISH packets on reconnect";
const PREFIX: &str = "[1] 2026/11/29 17:20:00.123456 [ERR] ";

fn persist() -> MqttFailure {
    MqttFailure::PersistSession { ps_id: "sess-1".into(), seq: 42, err: "nats: timeout".into() }
}

#[test]
fn parse_fills_the_declared_fields_and_display_round_trips() {
    assert_eq!(MqttFailure::parse(PERSIST), Some(persist()));
    assert_eq!(persist().to_string(), PERSIST);
    assert_eq!(MqttFailure::parse(&persist().to_string()), Some(persist()));
    assert_eq!(MqttFailure::from_str(PERSIST), Ok(persist()));
    assert_eq!(MqttFailure::parse(WINDOW), Some(MqttFailure::InFlightWindowFull));
}

#[test]
fn find_skips_the_log_prefix() {
    let line = format!("{PREFIX}{PERSIST}\n");
    assert_eq!(MqttFailure::find(&line), Some(persist()));
    let (error, span) = MqttFailure::find_span(&line).unwrap();
    assert_eq!((error, &line[span]), (persist(), PERSIST));
    assert_eq!(MqttFailure::find_all(&line), vec![(persist(), PREFIX.len()..PREFIX.len() + PERSIST.len())]);
}

#[test]
fn unmatched_messages_fall_through_to_other() {
    assert_eq!(MqttFailure::parse("disk full"), Some(MqttFailure::Unknown("disk full".into())));
    let line = "[1] nothing known here\r\n";
    assert_eq!(MqttFailure::find_span(line), Some((MqttFailure::Unknown("[1] nothing known here".into()), 0..22)));
    assert_eq!(MqttFailure::Unknown("as is".into()).to_string(), "as is");
    assert!(MqttFailure::find_all(line).is_empty());
    // A record the enum does not import is not matched.
    let create = r#"create QoS2 incoming messages stream for account "A": boom"#;
    assert_eq!(MqttFailure::parse(create), Some(MqttFailure::Unknown(create.into())));
    assert_eq!(Strict::parse(create), None);
}

#[test]
fn a_capture_that_does_not_parse_means_the_variant_does_not_match() {
    let message = r#"unable to persist session "s" (seq=soon): x"#;
    assert_eq!(MqttFailure::parse(message), Some(MqttFailure::Unknown(message.into())));
    assert_eq!(Strict::parse(message), None);
    // `u32` rejects a negative sequence; `String` takes it.
    let negative = r#"unable to persist session "s" (seq=-1): x"#;
    assert_eq!(Strict::parse(negative), None);
    assert!(matches!(All::parse(negative), Some(All::Persist { seq, .. }) if seq == "-1"));
    // `u16` holds 512 but not 70000.
    assert_eq!(Strict::parse(WINDOW), Some(Strict::Window { mqtt_max_acks_in_flight: 512 }));
    assert_eq!(Strict::parse(&WINDOW.replace("512", "70000")), None);
    assert_eq!(Strict::from_str("nope").unwrap_err().to_string(), r#"no Strict matches "nope""#);
}

#[test]
fn omitted_fields_are_shown_as_their_placeholders() {
    assert_eq!(
        MqttFailure::InFlightWindowFull.to_string(),
        "QoS1 in-flight window is full (%d messages) and JetStream has not acknowledged the oldest message within %v; failing the connection, the client will re-send unacknowledged PUBLISH packets on reconnect"
    );
    let persist = Strict::Persist { err: "e".into(), seq: 3 };
    assert_eq!(persist.to_string(), r#"unable to persist session %q (seq=3): e"#);
}

#[test]
fn metadata_is_the_imported_record_named_after_its_variant() {
    let metadata = persist().metadata().expect("an imported variant");
    assert_eq!((metadata.record().id.as_ref(), metadata.name.as_ref()), ("503f49fe39cf5793", "PersistSession"));
    assert!(metadata.record().documentation.contains("persisted session"));
    assert_eq!(MqttFailure::Unknown("x".into()).metadata(), None);
    // Without `other`, `metadata` is not optional.
    let window: &error_catalog::Entry = Strict::Window { mqtt_max_acks_in_flight: 1 }.metadata();
    assert_eq!(window.record().id, "59aa3418e32dd765");
    let ids: Vec<&str> = MqttFailure::entries().iter().map(|m| m.record().id.as_ref()).collect();
    assert_eq!(ids, ["503f49fe39cf5793", "59aa3418e32dd765"], "the imported records, in variant order");
    assert_eq!(All::entries().len(), 3);
    assert_eq!(Persistence::entries().len(), 1);
}

#[test]
fn it_is_a_std_error() {
    let error: Box<dyn std::error::Error> = Box::new(persist());
    assert_eq!(error.to_string(), PERSIST);
}

#[test]
fn typed_placeholders_render_from_any_display_type() {
    let window = Newtype::Window { mqtt_max_acks_in_flight: Acks(7), jsa_timeout: "5s".into() };
    let text = window.to_string();
    assert!(text.starts_with("QoS1 in-flight window is full (7 messages)"), "{text}");
    assert_eq!(Newtype::parse(&text), Some(window));
    assert_eq!(All::parse(&text), Some(All::Window { mqtt_max_acks_in_flight: 7, jsa_timeout: "5s".into() }));
}
