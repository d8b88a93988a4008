//! The run-time loader reads `data/` with the same code as the macro, so it
//! names, matches and reports exactly as the compiled catalog does.

use std::path::Path;

use error_catalog::nats_server::NatsServerError;
use error_catalog::{Catalog, CatalogEnum, Filter, Level, Severity};

fn data_dir() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/data/nats-io/nats-server"))
}

const LINES: &[&str] = &[
    r#"[7] 2026/11/29 17:20:00.123456 [ERR] unable to persist session "s" (seq=1): nats: no responders"#,
    r#"[7] 2026/11/29 17:20:01.000001 [ERR] create QoS2 incoming messages stream for account "$G": limit"#,
    "[7] 2026/11/29 17:20:02.000001 [WRN] QoS1 in-flight window is full (1024 messages) and JetStream has not acknowledged the oldest message within 4s; failing the connection, the client will re-send unacknowledged PUBLISH packets on reconnect",
    "[7] 2026/11/29 17:20:03.000001 [INF] Listening for client connections on 0.0.0.0:4222",
    "unable to persist session (seq=1): missing quotes",
];

#[test]
fn loaded_and_compiled_catalogs_agree() {
    let catalog = Catalog::load(data_dir()).expect("the default dataset loads");
    assert_eq!(catalog.len(), NatsServerError::COUNT);
    for (loaded, compiled) in catalog.entries().iter().zip(NatsServerError::entries()) {
        assert_eq!(loaded.name, compiled.name);
        assert_eq!(loaded.template, compiled.template);
        assert_eq!(loaded.record(), compiled.record());
    }
    for line in LINES {
        let dynamic = catalog.find(line);
        let compiled = NatsServerError::find_span(line);
        assert_eq!(dynamic.as_ref().map(|m| m.index), compiled.as_ref().map(|(e, _)| e.index()), "{line}");
        if let (Some(m), Some((e, span))) = (dynamic, compiled) {
            assert_eq!(m.span, span);
            assert_eq!(m.values, e.values());
            assert_eq!(catalog.render(m.index, &m.values).unwrap(), e.to_string());
        }
    }
}

#[test]
fn the_defective_seed_pattern_is_reported_and_the_compiled_one_used() {
    let loaded = error_catalog::load_dir(data_dir());
    assert!(loaded.diagnostics.is_empty(), "{:?}", loaded.diagnostics);
    let mut built = error_catalog::build::build(loaded.records, &Filter::default());
    assert!(built.diagnostics.is_empty(), "building does not run the slower pattern check");
    error_catalog::build::check_patterns(&mut built);
    let warnings: Vec<_> = built.diagnostics.iter().filter(|d| d.level == Level::Warning).collect();
    // Both seeds with a `%q` verb keep it raw in their pattern (an upstream defect).
    assert_eq!(warnings.len(), 2, "{warnings:?}");
    for (warning, id) in warnings.iter().zip(["443048c6cb7c33f3", "503f49fe39cf5793"]) {
        let shown = warning.to_string();
        assert!(shown.contains(&format!("{id}.json:1:")), "{shown}");
        assert!(shown.contains("field `messagePattern`: messagePattern does not match"), "{shown}");
        let entry = built.entries.iter().find(|e| e.entry.record().id == id).expect("kept");
        assert_eq!(entry.warnings.len(), 1);
        assert!(!entry.entry.template.regex.contains("%q"));
        assert!(entry.entry.record().message_pattern.as_deref().unwrap().contains("%q"));
    }
}

#[test]
fn filters_select_records() {
    let filter = Filter::new().tags(["persistence"]);
    let (catalog, _) = Catalog::load_filtered(data_dir(), &filter).expect("loads");
    assert_eq!(catalog.len(), 1);
    assert_eq!(catalog.entries()[0].name, "UnableToPersistSession");
    let filter = Filter::new().severities([Severity::Warning]);
    assert!(Catalog::load_filtered(data_dir(), &filter).expect("loads").0.is_empty());
    let filter = Filter::new().repo("nats-io/nats-server");
    assert_eq!(Catalog::load_filtered(data_dir(), &filter).expect("loads").0.len(), 3);
}

#[test]
fn a_bad_dataset_lists_every_problem() {
    let dir = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/ui/data/bad"));
    let error = Catalog::load(dir).expect_err("the fixture is bad");
    let errors: Vec<String> = error.diagnostics.iter().filter(|d| d.is_error()).map(ToString::to_string).collect();
    assert_eq!(errors.len(), 7, "{errors:#?}");
    for (file, field) in [
        ("a_malformed.json:1:", "malformed JSON"),
        ("b_mistyped.json:4:", "field `lineNumber`"),
        ("b_mistyped.json:5:", "field `solutions`"),
        ("c_missing.json:1:", "field `id`"),
        ("d_regex.json:1:", "field `messagePattern`"),
        ("e_format.json:1:", "field `errorMessage`"),
        ("f_duplicate.json:1:", "duplicate id"),
    ] {
        assert!(errors.iter().any(|e| e.contains(file) && e.contains(field)), "{file} {field}: {errors:#?}");
    }
    assert!(Catalog::load(Path::new("no/such/dir")).is_err());
}
