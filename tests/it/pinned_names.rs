//! A names file in compiled enums: `tests/data/gateway` pins
//! `0c531f01b5a0fef2` (`gateway %q has no port specified ...`) as `Gateway`,
//! as `errcat names` did before `3ac9e3bf93c9dce4` (`gateway %q has no URL`)
//! came, which the rule alone would have renamed it for. Also
//! `#[non_exhaustive]` on both forms.

use error_catalog::{Catalog, CatalogEnum};

const PORT: &str = "0c531f01b5a0fef2";
const URL: &str = "3ac9e3bf93c9dce4";

#[error_catalog::catalog(path = "tests/data/gateway")]
#[non_exhaustive]
pub enum GatewayError {}

#[derive(Debug, PartialEq, error_catalog::Catalog)]
#[catalog(path = "tests/data/gateway", exhaustive)]
#[non_exhaustive]
pub enum Imported {
    #[catalog(id = "0c531f01b5a0fef2")]
    NoPort { o_gateway_name: String },
    #[catalog(id = "3ac9e3bf93c9dce4")]
    NoUrl { g_name: String },
}

#[test]
fn the_pinned_record_keeps_its_name_and_the_new_one_is_named_around_it() {
    let error = GatewayError::Gateway { o_gateway_name: "east".into() };
    assert_eq!(error.to_string(), r#"gateway "east" has no port specified (select -1 for random port)"#);
    assert_eq!(error.metadata().record().id, PORT);
    let parsed = GatewayError::parse(r#"gateway "west" has no URL"#).expect("a known message");
    assert_eq!(parsed, GatewayError::GatewayHasNoUrl { g_name: "west".into() });
    assert_eq!(parsed.metadata().record().id, URL);
}

#[test]
fn the_loaded_catalog_names_the_records_as_the_compiled_enum() {
    let catalog = Catalog::load("tests/data/gateway").expect("the dataset loads");
    let loaded: Vec<(&str, Vec<&str>)> =
        catalog.entries().iter().map(|e| (e.name.as_ref(), e.field_names().collect())).collect();
    let compiled: Vec<(&str, Vec<&str>)> =
        <GatewayError as CatalogEnum>::entries().iter().map(|e| (e.name.as_ref(), e.field_names().collect())).collect();
    assert_eq!(loaded, compiled);
    assert_eq!(loaded, [("Gateway", vec!["o_gateway_name"]), ("GatewayHasNoUrl", vec!["g_name"])]);
}

#[test]
fn non_exhaustive_enums_match_exhaustively_inside_their_crate() {
    // No `_` arm: inside the defining crate, `#[non_exhaustive]` changes
    // nothing, so a new record is still a compile error here.
    let describe = |kind: GatewayErrorKind| match kind {
        GatewayErrorKind::Gateway => "no port",
        GatewayErrorKind::GatewayHasNoUrl => "no URL",
    };
    let kinds: Vec<&str> = GatewayErrorKind::ALL.iter().map(|&kind| describe(kind)).collect();
    assert_eq!(kinds, ["no port", "no URL"]);
    let imported = Imported::parse(r#"gateway "x" has no URL"#).expect("imported");
    let Imported::NoUrl { g_name } = imported else { panic!("{imported:?}") };
    assert_eq!(g_name, "x");
}

/// `tests/data/renamed` pins the names `errcat names` wrote before the
/// naming rule preferred words to ids and left URLs and lone prepositions
/// out: they stay, whatever the rule gives now.
#[error_catalog::catalog(path = "tests/data/renamed")]
pub enum RenamedError {}

#[test]
fn names_pinned_under_the_old_rule_stay_under_the_new_one() {
    let pinned = [
        ("2474f71802294a9b", "HttpsDocsNatsIoJetstream"),
        ("8e8e631bcae03b75", "BadConsumerConfig8E8E"),
        ("f47e0bb08138e9a5", "BadConsumerConfigF47E"),
        ("f0f0f0f0f0f0f0f0", "For"),
    ];
    for (id, name) in pinned {
        assert_eq!(RenamedErrorKind::from_id(id).map(|kind| kind.name()), Some(name), "{id}");
    }
    // Code that matches the old names still compiles, fields and all.
    let error = RenamedError::For { kind: "x".into(), name: "y".into() };
    assert_eq!(error.to_string(), "x for y");
    assert!(matches!(RenamedError::parse("bad consumer config"), Some(RenamedError::BadConsumerConfig8E8E)));
    let catalog = Catalog::load("tests/data/renamed").expect("the dataset loads");
    let loaded: Vec<&str> = catalog.entries().iter().map(|e| e.name.as_ref()).collect();
    let compiled: Vec<&str> = <RenamedError as CatalogEnum>::entries().iter().map(|e| e.name.as_ref()).collect();
    assert_eq!(loaded, compiled);
    // Without the names file (deleted, to regenerate it with `errcat names`),
    // the rule names them anew.
    let loaded = error_catalog::load_dir("tests/data/renamed".as_ref());
    assert_eq!(loaded.names.pins.len(), 4);
    let built = error_catalog::build::build(loaded.records, &error_catalog::Filter::default());
    let mut renamed: Vec<(&str, &str)> =
        built.entries.iter().map(|e| (e.entry.record().id.as_ref(), e.entry.name.as_ref())).collect();
    renamed.sort();
    assert_eq!(
        renamed,
        [
            ("2474f71802294a9b", "EnableJetStream"),
            ("8e8e631bcae03b75", "BadConsumerConfigMemstore"),
            ("f0f0f0f0f0f0f0f0", "Opts"),
            ("f47e0bb08138e9a5", "BadConsumerConfigFilestore"),
        ]
    );
}
