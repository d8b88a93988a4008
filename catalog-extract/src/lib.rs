//! Builds error-catalog datasets from a project's source code.
//!
//! A language's [`Extractor`] reads one file and returns every message it
//! finds as a [`Found`]; the record builder turns those into the records'
//! JSON (one file a record, stable ids) and the dataset's README.

mod found;
pub mod lang;

pub use found::{Extractor, Found};
