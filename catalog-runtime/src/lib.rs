//! Run-time support of error-catalog: the record model and loader, the
//! format compiler, the multi-pattern matcher and the run-time [`Catalog`].
//! The `#[catalog]` macro and `errcat` use the same code, so compiled and
//! loaded catalogs classify messages alike. Most users depend on the
//! `error-catalog` crate, which re-exports all of this.
//!
//! A dataset flows through the subsystems in this order, each a private
//! module whose public items are re-exported here (but for `build`, a public
//! module: what tools that check or name a dataset need):
//!
//! | step | items |
//! | --- | --- |
//! | record files (`dataset`) | [`load_dir`], [`load_bytes`], [`Loaded`], [`SourcedRecord`], [`Origin`]; the names file: [`Names`], [`Pin`], [`PinnedField`], [`NAMES_FILE`] |
//! | the model (`model`) | [`Record`], [`Severity`], [`ErrorType`], [`HandlingStrategy`], [`Value`], [`FieldValue`], [`ByteString`] |
//! | a compiled record (`entry`) | [`Entry`] |
//! | the format compiler (`format`) | [`Template`], [`Dialect`], [`Piece`], [`Spec`], [`Field`], [`ValueKind`], [`FormatError`], [`RenderError`] |
//! | which records (`build`) | [`Filter`]; the module [`build`]: `build_with_names`, `build`, `Built`, `BuiltEntry`, `check_patterns`, `check_names` |
//! | matching (`matcher`) | [`Matcher`], [`Match`], [`LogLevel`] |
//! | log lines in envelopes (`envelope`) | [`Envelope`], [`EnvelopeKind`], [`LogLine`], [`PartialLines`], [`MultiLine`], [`LineRole`], [`ENVELOPE_NAMES`] |
//! | the run-time catalog (`catalog`) | [`Catalog`], [`LoadError`] (and its on-disk cache, feature `cache`; its default place: [`default_cache_dir`]) |
//! | classifying chunks of log lines (`scan`) | [`ChunkClassifier`], [`ScanOptions`], [`ChunkPath`], [`Classified`], [`ScanEvent`], [`Found`], [`Details`], [`LevelOf`], [`EventParts`], [`Part`], [`match_object`], [`event_object`], [`MAX_LINE`] |
//! | generated code (`codegen`) | [`CatalogEnum`], [`NoMatch`] |
//! | problems | [`Diagnostic`], [`Level`] |
//! | suggestions for a mistyped key (`suggest`) | [`edit_distance`], [`typo_distance`] |
//!
//! ```
//! use catalog_runtime::Catalog;
//!
//! let catalog = Catalog::load("../data/nats-io/nats-server").expect("the seed records load");
//! let line = r#"[1] 2026/11/29 17:20:00.123456 [ERR] unable to persist session "s1" (seq=3): nats: timeout"#;
//! let found = catalog.find(line).expect("a known error");
//! let entry = &catalog.entries()[found.index];
//! assert_eq!(entry.name, "UnableToPersistSession");
//! assert_eq!(found.values[0].to_string(), "s1");
//! assert!(!entry.record().solutions.is_empty());
//! ```
#![deny(missing_docs)]

pub mod build;
mod cache_dir;
mod catalog;
mod codegen;
mod dataset;
mod diagnostic;
#[cfg(feature = "cache")]
pub mod embed;
mod entry;
mod envelope;
mod format;
mod matcher;
mod model;
mod scan;
mod suggest;
// The shared corpora, for the unit tests that need them.
#[cfg(test)]
#[path = "../../tests/support/corpus.rs"]
mod test_support;

pub use build::filter::Filter;
pub use cache_dir::default_cache_dir;
pub use catalog::{Catalog, LoadError};
pub use codegen::{CatalogEnum, NoMatch};
pub use dataset::{load_bytes, load_dir, Loaded, Names, Origin, Pin, PinnedField, SourcedRecord, NAMES_FILE};
pub use diagnostic::{Diagnostic, Level};
pub use entry::Entry;
pub use envelope::{Envelope, EnvelopeKind, LineRole, LogLine, MultiLine, PartialLines, ENVELOPE_NAMES};
pub use format::{Count, Dialect, Field, Flags, FormatError, Piece, RenderError, Spec, Template, ValueKind};
pub use matcher::{LogLevel, Match, Matcher};
pub use model::{ByteString, ErrorType, FieldValue, HandlingStrategy, Record, Severity, Text, TextList, Value};
pub use scan::{
    event_object, match_object, ChunkClassifier, ChunkPath, Classified, Details, EventParts, Found, LevelOf, Part,
    ScanEvent, ScanOptions, MAX_LINE,
};
pub use suggest::{edit_distance, typo_distance};

/// What generated code uses, and nothing else. Not public API: it changes
/// with every release, and its name carries the version so that generated
/// code from one version of the macro never compiles against another
/// version of the runtime (thiserror's `__private` pattern).
#[doc(hidden)]
pub mod __private_0_1 {
    pub use crate::__catalog_integrations as integrations;
    pub use crate::codegen::catalog_enum::{clone, debug, display, eq, indices, take, to_value, values};
    pub use crate::codegen::imported;
    #[cfg(feature = "miette")]
    pub use crate::codegen::integrations::miette_support;
    #[cfg(feature = "serde")]
    pub use crate::codegen::integrations::serde_support;
    pub use crate::codegen::layout;
    pub use crate::codegen::packed;
    pub use crate::codegen::tables;
    pub use crate::dataset::load_dir_unplaced;
    pub use crate::model::ByteString;
    pub use crate::{CatalogEnum, Entry, Matcher, NoMatch, Value, ValueKind};
    #[cfg(feature = "miette")]
    pub use miette;
    #[cfg(feature = "serde")]
    pub use serde;
    pub use std::sync::OnceLock;
    pub use std::vec::Vec;
}
