//! The nats-server corpus as a generated catalog, for scale and property
//! tests. Empty (and `CORPUS_PRESENT` false) when `../shared` is absent.

/// Whether the corpus was found at build time.
pub const CORPUS_PRESENT: bool = cfg!(has_corpus);

/// The corpus directory, relative to this crate.
pub const CORPUS_DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../../shared/corpus/nats-server");

/// One variant per corpus record.
#[cfg(has_corpus)]
#[error_catalog::catalog(path = "../../../shared/corpus/nats-server")]
pub enum CorpusError {}

/// Stands in for the corpus when it is absent.
#[cfg(not(has_corpus))]
#[error_catalog::catalog(path = "../../data/nats-io/nats-server")]
pub enum CorpusError {}
