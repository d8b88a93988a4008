//! `#[catalog]` options: filters, `dialect` and the `crate` path for re-exports.

mod filtered {
    #[error_catalog::catalog(path = "data/nats-io/nats-server", tags = ["persistence", "backpressure"])]
    pub enum Tagged {}

    #[error_catalog::catalog(path = "data/nats-io/nats-server", severity = "warning")]
    pub enum Warnings {}

    #[error_catalog::catalog(path = "data/nats-io/nats-server", repo = "nats-io/nats-server", severity = ["error", "fatal"])]
    pub enum Errors {}

    #[error_catalog::catalog(path = "data/nats-io/nats-server", repo = "someone/else")]
    pub enum NoneOfThem {}

    /// The Go records read as plain text: their verbs are literal.
    #[error_catalog::catalog(path = "data/nats-io/nats-server", dialect = "plain")]
    pub enum AsPlainText {}
}

/// A crate that re-exports error-catalog under another name.
mod facade {
    pub use error_catalog as reexported;
}

#[error_catalog::catalog(path = "tests/ui/data/good", crate = "crate::macro_options::facade::reexported")]
enum ThroughFacade {}

use filtered::*;

#[test]
fn filters_choose_the_records() {
    let names: Vec<&str> = TaggedKind::ALL.iter().map(|k| k.name()).collect();
    assert_eq!(names, ["UnableToPersistSession", "Qos1InFlightWindowIsFull"]);
    assert_eq!(Warnings::COUNT, 0);
    assert_eq!(Errors::COUNT, 3);
    assert_eq!(NoneOfThem::COUNT, 0);
    assert_eq!(NoneOfThem::parse("anything"), None);
    assert!(WarningsKind::ALL.is_empty());
}

#[test]
fn the_dialect_option_forces_the_format_syntax() {
    use error_catalog::{CatalogEnum, Dialect};
    assert!(AsPlainText::entries()
        .iter()
        .all(|e| e.template.dialect == Dialect::Plain && e.template.fields.is_empty()));
    let literal = AsPlainText::entries().iter().find(|e| e.record().error_message.contains("%q")).expect("a %q record");
    assert_eq!(AsPlainText::parse(&literal.record().error_message).map(|e| e.index()), Some(literal_index(literal)));
}

fn literal_index(entry: &error_catalog::Entry) -> usize {
    AsPlainText::entries().iter().position(|e| e.record().id == entry.record().id).expect("in the catalog")
}

#[test]
fn the_crate_option_reaches_the_runtime_through_a_reexport() {
    let error = ThroughFacade::parse("connection to db:5432 lost after 3 retries").expect("matches");
    assert_eq!(error, ThroughFacade::ConnectionTo { addr: "db:5432".into(), n: 3 });
    assert_eq!(error.metadata().record().repo, "example/app");
}
