#![doc = include_str!("../README.md")]
#![warn(missing_docs)]

// Lets the default catalog below use the same `::error_catalog::...` paths
// as generated code in user crates.
extern crate self as error_catalog;

pub use catalog_macros::catalog;
pub use catalog_runtime::{
    build, check_patterns, compile, diagnostic, fields, format, load, load_dir, matcher, naming, record, value, Built,
    BuiltEntry, Catalog, CatalogEnum, Count, Diagnostic, Dialect, ErrorType, Field, FieldValue, Filter, Flags,
    HandlingStrategy, Level, LoadError, Loaded, Match, Matcher, Metadata, NoMatch, Origin, Piece, Record, Severity,
    SourcedRecord, Spec, Template, Text, TextList, Value, ValueKind,
};

#[doc(hidden)]
pub use catalog_runtime::__private;

/// The default catalog: the records of nats-io/nats-server in `data/`.
pub mod nats_server {
    /// Errors of nats-server, one variant per record in `data/nats-io/nats-server`.
    #[crate::catalog(path = "data/nats-io/nats-server")]
    pub enum NatsServerError {}
}
