use error_catalog::nats_server::NatsServerError;
use error_catalog_consumer::{data_dir, OwnError, Persist};

const LINE: &str = r#"[1] 2026/11/29 17:20:00.123456 [ERR] unable to persist session "sess-1" (seq=7): nats: timeout"#;
const MESSAGE: &str = r#"unable to persist session "sess-1" (seq=7): nats: timeout"#;

#[test]
fn the_attribute_on_own_records() {
    match OwnError::find(LINE) {
        Some(OwnError::UnableToPersistSession { ps_id, seq, err }) => {
            assert_eq!(ps_id, "sess-1");
            assert_eq!(seq.to_string(), "7");
            assert_eq!(err, "nats: timeout");
        }
        other => panic!("{other:?}"),
    }
    let error = OwnError::parse(MESSAGE).expect("the record's message");
    assert_eq!(error.to_string(), MESSAGE);
    assert_eq!(error.metadata().record().id, "503f49fe39cf5793");
    assert!(OwnError::parse("something else").is_none());
}

#[test]
fn the_derive() {
    let error = Persist::parse(MESSAGE).unwrap();
    assert_eq!(error, Persist::Session { ps_id: "sess-1".into(), seq: 7, err: "nats: timeout".into() });
    assert_eq!(error.to_string(), MESSAGE);
    let odd = r#"unable to persist session "s" (seq=soon): x"#;
    assert_eq!(Persist::parse(odd), Some(Persist::Unknown(odd.into())));
}

#[test]
fn the_embedded_catalog() {
    let error = NatsServerError::parse(MESSAGE).expect("a seed record");
    assert!(matches!(error, NatsServerError::UnableToPersistSession { .. }), "{error:?}");
    assert!(!error.metadata().record().solutions.is_empty());
}

#[test]
fn the_run_time_loader() {
    // The library re-exports the runtime's catalog: one type, by either name.
    let catalog: catalog_runtime::Catalog = error_catalog::Catalog::load(data_dir()).unwrap();
    assert_eq!(catalog.entries().len(), 1);
    let found = catalog.find(LINE).expect("a match");
    let entry = &catalog.entries()[found.index];
    assert_eq!(entry.name, "UnableToPersistSession");
    assert_eq!(found.values[0].to_string(), "sess-1");
    assert!(catalog.find("no record says this").is_none());
}
