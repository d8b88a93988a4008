//! The optional `serde` and `miette` impls of generated enums. Run with
//! `cargo test --all-features` (`.ci/run` does); without the features this
//! file only checks that the generated code compiles without them.

use error_catalog::nats_server::{NatsServerError, NatsServerErrorKind};

fn persist() -> NatsServerError {
    NatsServerError::UnableToPersistSession { ps_id: "s1".into(), seq: "3".into(), err: "nats: timeout".into() }
}

#[cfg_attr(not(feature = "serde"), allow(dead_code))]
fn window() -> NatsServerError {
    NatsServerError::Qos1InFlightWindowIsFull { mqtt_max_acks_in_flight: 512, jsa_timeout: "5s".into() }
}

#[test]
fn generated_enums_compile_with_or_without_the_features() {
    assert_eq!(persist().kind(), NatsServerErrorKind::UnableToPersistSession);
}

#[cfg(feature = "serde")]
mod serde_impls {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_variant_is_its_id_slug_and_fields() {
        let value = serde_json::to_value(persist()).unwrap();
        assert_eq!(
            value,
            json!({
                "id": "503f49fe39cf5793",
                "slug": "unable-to-persist-session-q-seq-v-v",
                "fields": {"ps_id": "s1", "seq": "3", "err": "nats: timeout"}
            })
        );
        // Integer placeholders are JSON numbers.
        assert_eq!(serde_json::to_value(window()).unwrap()["fields"]["mqtt_max_acks_in_flight"], json!(512));
    }

    #[test]
    fn variants_read_back_by_id_or_slug() {
        for error in [persist(), window()] {
            let text = serde_json::to_string(&error).unwrap();
            assert_eq!(serde_json::from_str::<NatsServerError>(&text).unwrap(), error);
        }
        let by_slug = json!({"slug": "unable-to-persist-session-q-seq-v-v",
                             "fields": {"ps_id": "s1", "seq": "3", "err": "nats: timeout"}});
        assert_eq!(serde_json::from_value::<NatsServerError>(by_slug).unwrap(), persist());
    }

    #[test]
    fn bad_variants_are_refused_with_the_reason() {
        let error =
            |value: serde_json::Value| serde_json::from_value::<NatsServerError>(value).unwrap_err().to_string();
        assert_eq!(error(json!({"id": "nope", "fields": {}})), "no record has the id or slug `nope`");
        let missing = json!({"id": "503f49fe39cf5793", "fields": {"ps_id": "s1", "seq": "3"}});
        assert_eq!(error(missing), "missing field `err` of `UnableToPersistSession`");
        let mistyped =
            json!({"id": "59aa3418e32dd765", "fields": {"mqtt_max_acks_in_flight": "many", "jsa_timeout": "5s"}});
        assert_eq!(
            error(mistyped),
            "field `mqtt_max_acks_in_flight` of `Qos1InFlightWindowIsFull`: expected an integer"
        );
        let extra = json!({"id": "503f49fe39cf5793",
                           "fields": {"ps_id": "s1", "seq": "3", "err": "e", "other": "x"}});
        assert_eq!(error(extra), "`UnableToPersistSession` has no field `other`");
        assert!(error(json!({"fields": {}})).contains("missing field `id`"));
    }

    #[test]
    fn a_kind_is_its_id_and_reads_from_id_slug_or_name() {
        let kind = NatsServerErrorKind::UnableToPersistSession;
        assert_eq!(serde_json::to_value(kind).unwrap(), json!("503f49fe39cf5793"));
        for text in ["503f49fe39cf5793", "unable-to-persist-session-q-seq-v-v", "UnableToPersistSession"] {
            assert_eq!(serde_json::from_value::<NatsServerErrorKind>(json!(text)).unwrap(), kind);
        }
        assert!(serde_json::from_value::<NatsServerErrorKind>(json!("nope")).is_err());
    }

    #[test]
    fn metadata_serializes_its_record_in_the_dataset_schema() {
        let value = serde_json::to_value(persist().metadata()).unwrap();
        assert_eq!(value["record"]["errorMessage"], "unable to persist session %q (seq=%v): %v");
        assert_eq!(value["record"]["severity"], "error");
        assert_eq!(value["name"], "UnableToPersistSession");
    }
}

#[cfg(feature = "miette")]
mod miette_impls {
    use super::*;
    use miette::Diagnostic;

    #[test]
    fn code_is_the_slug_help_the_solutions_url_the_source_link() {
        let error = persist();
        assert_eq!(error.code().unwrap().to_string(), "unable-to-persist-session-q-seq-v-v");
        let help = error.help().unwrap().to_string();
        assert_eq!(help.lines().count(), error.metadata().record().solutions.len());
        assert!(help.starts_with("Check JetStream/stream health for $MQTT.sess and cluster quorum\n"), "{help}");
        let url = error.url().unwrap().to_string();
        assert!(url.starts_with("https://github.com/nats-io/nats-server/blob/") && url.ends_with("#L3417-L3453"));
        assert_eq!(error.severity(), Some(miette::Severity::Error));
    }

    #[test]
    fn a_report_shows_the_message_code_help_and_link() {
        let mut text = String::new();
        miette::NarratableReportHandler::new().render_report(&mut text, &persist()).unwrap();
        for expected in [
            "unable to persist session \"s1\" (seq=3): nats: timeout",
            "diagnostic code: unable-to-persist-session-q-seq-v-v",
            "diagnostic help: Check JetStream/stream health for $MQTT.sess and cluster quorum",
            "For more details, see:\nhttps://github.com/nats-io/nats-server/blob/",
        ] {
            assert!(text.contains(expected), "{expected:?} in\n{text}");
        }
    }
}
