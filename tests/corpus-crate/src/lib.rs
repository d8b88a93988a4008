//! The nats-server corpus as a generated catalog, for scale and property
//! tests (`datasets/nats-server`). Empty (and `CORPUS_PRESENT` false) when it is absent.

/// Whether the corpus was found at build time.
pub const CORPUS_PRESENT: bool = cfg!(has_corpus);

/// The corpus directory, relative to this crate.
pub const CORPUS_DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../datasets/nats-server");

/// One variant per corpus record.
#[cfg(has_corpus)]
#[error_catalog::catalog(path = "../../datasets/nats-server")]
pub enum CorpusError {}

/// Stands in for the corpus when it is absent.
#[cfg(not(has_corpus))]
#[error_catalog::catalog(path = "../../data/nats-io/nats-server")]
pub enum CorpusError {}

/// The corpora of other languages, each in its own dialect (JavaScript,
/// Python, Rust, Java); one that is absent stands in as the seed records.
pub mod languages {
    /// Node.js's errors (`util.format` and template literals).
    #[cfg(has_nodejs_node)]
    #[error_catalog::catalog(path = "../../datasets/nodejs-node")]
    pub enum NodeError {}
    /// Stands in for the nodejs-node corpus when it is absent.
    #[cfg(not(has_nodejs_node))]
    #[error_catalog::catalog(path = "../../data/nats-io/nats-server")]
    pub enum NodeError {}

    /// Django's errors (`%`, `str.format`, f-strings, logging calls).
    #[cfg(has_django)]
    #[error_catalog::catalog(path = "../../datasets/django")]
    pub enum DjangoError {}
    /// Stands in for the django corpus when it is absent.
    #[cfg(not(has_django))]
    #[error_catalog::catalog(path = "../../data/nats-io/nats-server")]
    pub enum DjangoError {}

    /// Cargo's errors (`format!`-style strings, thiserror `#[error]`).
    #[cfg(has_cargo)]
    #[error_catalog::catalog(path = "../../datasets/cargo")]
    pub enum CargoError {}
    /// Stands in for the cargo corpus when it is absent.
    #[cfg(not(has_cargo))]
    #[error_catalog::catalog(path = "../../data/nats-io/nats-server")]
    pub enum CargoError {}

    /// Kafka's errors (SLF4J `{}`, `String.format`).
    #[cfg(has_kafka)]
    #[error_catalog::catalog(path = "../../datasets/kafka")]
    pub enum KafkaError {}
    /// Stands in for the kafka corpus when it is absent.
    #[cfg(not(has_kafka))]
    #[error_catalog::catalog(path = "../../data/nats-io/nats-server")]
    pub enum KafkaError {}
}
