//! `#[catalog]` options: filters and the `crate` path for re-exports.

mod filtered {
    #[error_catalog::catalog(path = "data/nats-io/nats-server", tags = ["persistence", "backpressure"])]
    pub enum Tagged {}

    #[error_catalog::catalog(path = "data/nats-io/nats-server", severity = "warning")]
    pub enum Warnings {}

    #[error_catalog::catalog(path = "data/nats-io/nats-server", repo = "nats-io/nats-server", severity = ["error", "fatal"])]
    pub enum Errors {}

    #[error_catalog::catalog(path = "data/nats-io/nats-server", repo = "someone/else")]
    pub enum NoneOfThem {}
}

/// A crate that re-exports error-catalog under another name.
mod facade {
    pub use error_catalog as reexported;
}

#[error_catalog::catalog(path = "tests/ui/data/good", crate = "crate::facade::reexported")]
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
fn the_crate_option_reaches_the_runtime_through_a_reexport() {
    let error = ThroughFacade::parse("connection to db:5432 lost after 3 retries").expect("matches");
    assert_eq!(error, ThroughFacade::ConnectionTo { addr: "db:5432".into(), n: 3 });
    assert_eq!(error.metadata().record.repo, "example/app");
}
