//! Run-time support of error-catalog: the record model and loader, the
//! format compiler, the multi-pattern matcher and the run-time [`Catalog`].
//! The `#[catalog]` macro and `errcat` use the same code, so compiled and
//! loaded catalogs classify messages alike. Most users depend on the
//! `error-catalog` crate, which re-exports all of this.
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
//! assert!(!entry.solutions.is_empty());
//! ```
#![warn(missing_docs)]
#[cfg(feature = "cache")]
mod cache;
pub mod catalog;
pub mod catalog_enum;
pub mod compile;
#[doc(hidden)]
pub mod derived;
pub mod diagnostic;
pub mod fields;
pub mod format;
pub mod integrations;
mod json_spans;
pub mod limits;
mod literal_match;
pub mod load;
pub mod matcher;
pub mod metadata;
pub mod naming;
#[doc(hidden)]
pub mod packed;
mod prefilter;
pub mod record;
pub mod value;

pub use catalog::{Catalog, LoadError};
pub use catalog_enum::{CatalogEnum, NoMatch};
pub use compile::{build, check_patterns, Built, BuiltEntry, Filter};
pub use diagnostic::{Diagnostic, Level};
pub use format::{Count, Dialect, Field, Flags, Piece, Spec, Template, Text, ValueKind};
pub use load::{load_dir, Loaded, Origin, SourcedRecord};
pub use matcher::{Match, Matcher};
pub use metadata::Metadata;
pub use record::{ErrorType, HandlingStrategy, Record, Severity, TextList};
pub use value::{FieldValue, Value};

/// What generated code uses. Not public API: it changes without notice.
#[doc(hidden)]
pub mod __private {
    pub use crate::__catalog_integrations as integrations;
    pub use crate::catalog_enum::{
        bool_value, clone, debug, display, eq, field_values, float_value, int_value, lookup, str_value, take,
        take_bool, take_fields, take_float, take_int, take_str, to_value, values, FieldRefs, TakeFields,
        MAX_TUPLE_FIELDS,
    };
    pub use crate::*;
    #[cfg(feature = "miette")]
    pub use miette;
    #[cfg(feature = "serde")]
    pub use serde;
    pub use std::borrow::Cow::Borrowed;
    pub use std::sync::OnceLock;
    pub use std::vec::Vec;
}
