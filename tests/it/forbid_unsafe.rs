//! Generated code compiles in a crate that forbids `unsafe` code: it holds
//! `unsafe` blocks (the enum's layout, its discriminant), which the lint
//! does not count against the crate, since a procedural macro wrote them.
#![forbid(unsafe_code)]

#[error_catalog::catalog(path = "data/nats-io/nats-server")]
pub enum SeedError {}

#[derive(Debug, PartialEq, error_catalog::Catalog)]
#[catalog(path = "data/nats-io/nats-server")]
enum Imported {
    #[catalog(id = "59aa3418e32dd765")]
    InFlightWindowFull,
}

#[test]
fn generated_code_compiles_where_unsafe_code_is_forbidden() {
    let message = r#"unable to persist session "s1" (seq=7): nats: timeout"#;
    let error = SeedError::parse(message).expect("a seed message");
    assert_eq!(error.to_string(), message);
    assert_eq!(error.metadata().record().id, "503f49fe39cf5793");
    assert_eq!(Imported::InFlightWindowFull.metadata().record().id, "59aa3418e32dd765");
}
