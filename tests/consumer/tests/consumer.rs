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

#[test]
fn a_dataset_extracted_from_source() {
    // A Go project's source, as `errcat extract --lang go` reads it.
    let root = std::env::temp_dir().join(format!("consumer-extract-{}", std::process::id()));
    let server = root.join("src/server");
    std::fs::create_dir_all(&server).unwrap();
    let go = "package server\n\nimport \"fmt\"\n\nfunc open(path string) error {\n\treturn fmt.Errorf(\"unable to open store %q: %v\", path, \"denied\")\n}\n";
    std::fs::write(server.join("store.go"), go).unwrap();
    let go = catalog_extract::lang::language("go").expect("a known language");
    let provenance = catalog_extract::Provenance {
        repo: "me/store".into(),
        sha: "v1.0.0".into(),
        stamp: "2026-11-29T00:00:00.000Z".into(),
    };
    let dataset = catalog_extract::extract(go, &root.join("src"), &provenance).unwrap();
    dataset.write(&root.join("dataset")).unwrap();
    let catalog = catalog_runtime::Catalog::load(root.join("dataset")).unwrap();
    assert_eq!(catalog.entries().len(), 1);
    let found = catalog.find(r#"[1] 2026/11/29 17:20:00.123456 [ERR] unable to open store "/var/x": denied"#);
    let found = found.expect("the extracted record explains its message");
    assert_eq!(found.values[0].to_string(), "/var/x");
    std::fs::remove_dir_all(&root).unwrap();
}
