//! Error-catalog records from the error and log messages of a source tree.

mod found;
pub mod lang;

pub use found::{Extractor, Found};
