//! Typed Rust errors generated from a dataset of documented error messages.
//!
//! A *record* (one JSON file) documents one error message of an open-source
//! project: its format string (Go's `unable to persist session %q
//! (seq=%v): %v`), severity, documentation, solutions, source link. The
//! [`catalog`] attribute reads a directory of records at compile time and fills
//! an enum with one variant per record, with typed fields for the message's
//! placeholders; [`Catalog`](derive@Catalog) (the derive) imports chosen
//! records into an enum you write; the run-time [`Catalog`](struct@Catalog)
//! loads the same records with the same loader, compiler and namer, so all
//! three classify a message alike.
//!
//! ```
//! // A crate that uses the macro also needs a build script, or adding a record
//! // file rebuilds nothing:  fn main() { println!("cargo:rerun-if-changed=data"); }
//! #[error_catalog::catalog(path = "data/nats-io/nats-server")]   // relative to Cargo.toml
//! pub enum NatsServerError {}
//!
//! fn report(log_line: &str) {
//!     match NatsServerError::find(log_line) {
//!         Some(NatsServerError::UnableToPersistSession { ps_id, seq, .. }) => {
//!             eprintln!("session {ps_id} lost its state at seq {seq}")
//!         }
//!         Some(other) => eprintln!("{other}: {}", other.metadata().record().documentation),
//!         None => {}
//!     }
//! }
//!
//! # report(r#"[1] 2026/11/29 17:20:00.123456 [ERR] unable to persist session "s" (seq=7): nats: timeout"#);
//! let line = r#"[1] 2026/11/29 17:20:00.123456 [ERR] unable to persist session "sess-1" (seq=7): nats: timeout"#;
//! let Some(NatsServerError::UnableToPersistSession { ps_id, seq, err }) = NatsServerError::find(line) else {
//!     panic!("a known error")
//! };
//! assert_eq!((ps_id.as_str(), seq.as_str(), err.as_str()), (Some("sess-1"), "7", "nats: timeout"));
//! // Display re-renders the message; the metadata is the record.
//! let error = NatsServerError::parse(r#"unable to persist session "s" (seq=1): x"#).unwrap();
//! assert_eq!(error.to_string(), r#"unable to persist session "s" (seq=1): x"#);
//! assert!(!error.metadata().record().solutions.is_empty());
//! ```
//!
//! # The attribute
//!
//! `#[catalog(...)]` on an empty enum takes `path` (the records' directory,
//! relative to the crate's `Cargo.toml`; required), the filters `repo =
//! "owner/name"`, `tags = [...]` (records with any of them) and `severity =
//! "error"` or `[...]`, `dialect = "go"` (read every message in that format
//! syntax) and `crate = "::path"` (where this crate is, when re-exported).
//! It generates one variant per record (a doc comment with the record's
//! message, documentation, solutions and source link; `#[doc(alias =
//! "<slug>")]`), a fieldless `<Enum>Kind` (`ALL`, `COUNT`, `from_index`,
//! `from_id`, `from_slug`, `from_name`, `metadata`), `parse(message)`,
//! `find(line)`, `find_span(line)`, `find_all(line)`, `metadata()`,
//! `values()`, `kind()`, `entries()`, `Display` (which re-renders the
//! message: `parse(&e.to_string()) == Some(e)`), `FromStr`,
//! `std::error::Error`, `Debug`, `Clone`, `PartialEq` and [`CatalogEnum`].
//! With the features `serde` and `miette`, `Serialize`/`Deserialize` and
//! `miette::Diagnostic` too. The macro chooses the enum's `#[repr]`; other
//! attributes are kept.
//!
//! # Updating the dataset
//!
//! Variant names come from the messages' leading words. A *names file*
//! (`error-catalog.names` in the records' directory, written by `errcat names
//! DIR`) pins every record's variant and field names, so that records added
//! later rename nothing; the macro, the derive and the run-time loader read it
//! when it is there. `errcat diff OLD NEW` tells what an update changes in the
//! enum and what that means for semver.
//!
//! # `#[non_exhaustive]`
//!
//! A library that exposes a generated enum should mark it `#[non_exhaustive]`
//! (put on its `Kind` enum too): a dataset update that only adds records is
//! then a minor release for its users. An application should not, so that
//! every new record it does not handle yet is a compile error in its `match`.
//!
//! # More
//!
//! The repository's `README.md` is the overview; `docs/guide.md` has every
//! option of the macro, the derive and the `errcat` command, the record
//! schema and the library API; `docs/formats.md` what each dialect's fields
//! hold. The default catalog, [`nats_server::NatsServerError`], holds the
//! three seed records of `data/`.
#![warn(missing_docs)]

// Lets the default catalog below use the same `::error_catalog::...` paths
// as generated code in user crates.
extern crate self as error_catalog;

pub use catalog_macros::catalog;

// The README's Rust examples, compiled and run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;

/// Fills in the API of a user-written enum whose variants import records.
///
/// ```
/// #[derive(Debug, PartialEq, error_catalog::Catalog)]
/// #[catalog(path = "data/nats-io/nats-server")]
/// enum MqttFailure {
///     // Fields are named after the record's; any `FromStr + Display` type.
///     #[catalog(slug = "unable-to-persist-session-q-seq-v-v")]
///     PersistSession { ps_id: String, seq: u64, err: String },
///     // Fields may be omitted.
///     #[catalog(id = "59aa3418e32dd765")]
///     InFlightWindowFull,
///     // Optional: holds the messages no imported record matches.
///     #[catalog(other)]
///     Unknown(String),
/// }
///
/// let message = r#"unable to persist session "sess-1" (seq=7): nats: timeout"#;
/// let error = MqttFailure::parse(message).unwrap();
/// assert_eq!(error, MqttFailure::PersistSession { ps_id: "sess-1".into(), seq: 7, err: "nats: timeout".into() });
/// assert_eq!(error.to_string(), message);
/// assert_eq!(error.metadata().unwrap().record().id, "503f49fe39cf5793");
/// // `seq` must parse as a `u64`: this message falls through to `other`.
/// let odd = r#"unable to persist session "s" (seq=soon): x"#;
/// assert_eq!(MqttFailure::parse(odd), Some(MqttFailure::Unknown(odd.into())));
/// ```
///
/// **On the enum**, `#[catalog(...)]` takes the options of [`catalog`] (`path`,
/// `repo`, `tags`, `severity`, `crate`) and `exhaustive`: then every record of
/// the directory that passes the filters must be imported, so that a dataset
/// update which adds records fails to compile until the code handles them.
///
/// **On each variant**, one of:
///
/// * `id = "..."` or `slug = "..."`: the variant imports that record (a slug
///   shared by several records must be replaced by an id). A unit variant, or
///   a struct variant whose fields are some or all of the record's fields, by
///   name (the names the dataset's names file pins, when it has one: see
///   *Updating the dataset* in the crate documentation). A field may have any type that is `FromStr + Display`: a captured
///   value is parsed from its text, and when it does not parse the variant
///   does not match (the next candidate record is tried, then `other`). Clear
///   mismatches are compile errors: `bool`, `f32`, `f64` or `char` for an
///   integer placeholder (`%d`), anything but `bool` among the primitives for
///   `%t`, `bool` or `char` for a float placeholder.
/// * `other`: the catch-all, a tuple variant with one field of a type that is
///   `From<String> + Display` (`String`, `Box<str>`, ...). At most one.
///
/// Each record may be imported once. Every mistake is reported at compile
/// time, on the attribute, variant or field at fault.
///
/// The enum is the user's own: `#[non_exhaustive]` on it works as on any
/// enum (a library exposing it should use it; see the crate documentation).
///
/// **Generated**: `parse(message)`, `find(line)`, `find_span(line)`,
/// `find_all(line)` (imported records only, no catch-all), `entries()`,
/// `metadata()`, `Display`, `std::error::Error` and `FromStr` (by `parse`).
/// Matching ranks the imported records as the attribute form does; with an
/// `other` variant, `parse` and `find` return it (holding the whole message,
/// or the line without its line break) when no record matches, and
/// `metadata()` returns `Option<&'static Entry>` (`None` for `other`);
/// without one, `metadata()` returns `&'static Entry` and `parse`/`find`
/// return `None`. `Display` writes the record's message with the variant's
/// fields; a field the variant omits is written as its placeholder (`%` and
/// the verb, such as `%d`). `Debug` and other derives are the user's own
/// (`std::error::Error` needs `Debug`).
pub use catalog_macros::Catalog;
pub use catalog_runtime::{
    build, default_cache_dir, edit_distance, event_object, load_bytes, load_dir, match_object, typo_distance,
    ByteString, Catalog, CatalogEnum, ChunkClassifier, ChunkPath, Classified, Count, Details, Diagnostic, Dialect,
    Entry, Envelope, EnvelopeKind, ErrorType, EventParts, Field, FieldValue, Filter, Flags, FormatError, Found,
    HandlingStrategy, Level, LevelOf, LineRole, LoadError, Loaded, LogLevel, LogLine, Match, Matcher, MultiLine, Names,
    NoMatch, Origin, Part, PartialLines, Piece, Pin, PinnedField, Record, RenderError, ScanEvent, ScanOptions,
    Severity, SourcedRecord, Spec, Template, Text, TextList, Value, ValueKind, ENVELOPE_NAMES, MAX_LINE, NAMES_FILE,
};

// Generated code's only door into the runtime; see `catalog_runtime`.
#[doc(hidden)]
pub use catalog_runtime::__private_0_1;

/// The default catalog: the records of nats-io/nats-server in `data/`.
pub mod nats_server {
    /// Errors of nats-server, one variant per record in `data/nats-io/nats-server`.
    #[crate::catalog(path = "data/nats-io/nats-server")]
    pub enum NatsServerError {}
}
