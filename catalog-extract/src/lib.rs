//! Builds error-catalog datasets from a project's source code.
//!
//! A language's [`Extractor`] reads one file and returns every message it
//! finds as a [`Found`]; [`extract`] runs one over a source tree, and the
//! record builder turns what it found into the records' JSON (one file a
//! record, stable ids) and the dataset's README.
//!
//! ```no_run
//! use catalog_extract::{extract, lang, Provenance};
//!
//! let go = lang::language("go").expect("a known language");
//! let provenance = Provenance { repo: "nats-io/nats-server".into(), sha: "v2.12.0".into(), stamp: "2026-11-29T00:00:00.000Z".into() };
//! let dataset = extract(go, "nats-server".as_ref(), &provenance)?;
//! dataset.write("datasets/nats-server".as_ref())?;
//! # Ok::<(), std::io::Error>(())
//! ```

mod dataset;
mod found;
pub mod lang;
mod readme;
mod record;

pub use dataset::{extract, source_files, Dataset};
pub use found::{Extractor, Found};
pub use record::{
    handling_strategy, record_file, record_id, slug, write_records, LanguageFields, Provenance, RecordFile,
};
