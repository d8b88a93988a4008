//! [`miette::Diagnostic`] for generated enums (feature `miette`): the code is
//! the record's slug, the help its solutions, the url its source link, and
//! the severity follows the record's.

use std::fmt::Display;

use crate::codegen::catalog_enum::CatalogEnum;
use crate::model::Severity;

/// The record's slug.
pub fn code<E: CatalogEnum>(error: &E) -> Option<Box<dyn Display + '_>> {
    Some(Box::new(&*error.metadata().record().slug))
}

/// The record's solutions, one per line; none when it has none.
pub fn help<E: CatalogEnum>(error: &E) -> Option<Box<dyn Display + '_>> {
    let solutions = &error.metadata().record().solutions;
    (!solutions.is_empty()).then(|| Box::new(solutions.join("\n")) as Box<dyn Display>)
}

/// The link to where the error is raised, when the record has one.
pub fn url<E: CatalogEnum>(error: &E) -> Option<Box<dyn Display + '_>> {
    error.metadata().record().github_url.as_deref().map(|url| Box::new(url) as Box<dyn Display>)
}

/// The record's severity: `warning` is a warning; `info`, `debug` and
/// `trace` are advice; everything else, unknown values included, an error.
pub fn severity<E: CatalogEnum>(error: &E) -> Option<miette::Severity> {
    Some(match error.metadata().record().severity {
        Some(Severity::Warning) => miette::Severity::Warning,
        Some(Severity::Info | Severity::Debug | Severity::Trace) => miette::Severity::Advice,
        _ => miette::Severity::Error,
    })
}
