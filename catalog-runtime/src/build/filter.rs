//! Which records go into a catalog.

use crate::format::Dialect;
use crate::model::{Record, Severity};

/// Which records go into a catalog. Empty lists accept everything.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(any(feature = "serde", feature = "cache"), derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub struct Filter {
    /// Keep records of this repository (`owner/name`).
    pub repo: Option<String>,
    /// Keep records with at least one of these tags.
    pub tags: Vec<String>,
    /// Keep records of one of these severities.
    pub severities: Vec<Severity>,
    /// Read every message in this dialect instead of the one chosen from the
    /// record's file and call (for a record set whose file extension misleads).
    pub dialect: Option<Dialect>,
}

impl Filter {
    /// A filter that accepts every record, as [`Filter::default`]; narrow it
    /// with the methods below.
    ///
    /// ```
    /// use catalog_runtime::{Dialect, Filter, Severity};
    ///
    /// let filter = Filter::new().repo("nats-io/nats-server").tags(["jetstream"]).severities([Severity::Error]);
    /// assert_eq!(filter.repo.as_deref(), Some("nats-io/nats-server"));
    /// assert_eq!(Filter::new().dialect(Dialect::Go).dialect, Some(Dialect::Go));
    /// ```
    pub fn new() -> Self {
        Filter::default()
    }

    /// Keeps only the records of this repository (`owner/name`).
    pub fn repo(mut self, repo: impl Into<String>) -> Self {
        self.repo = Some(repo.into());
        self
    }

    /// Keeps only the records with at least one of these tags.
    pub fn tags<T: Into<String>>(mut self, tags: impl IntoIterator<Item = T>) -> Self {
        self.tags = tags.into_iter().map(Into::into).collect();
        self
    }

    /// Keeps only the records of one of these severities.
    pub fn severities(mut self, severities: impl IntoIterator<Item = Severity>) -> Self {
        self.severities = severities.into_iter().collect();
        self
    }

    /// Reads every message in this dialect instead of the one chosen from
    /// the record's file and call.
    pub fn dialect(mut self, dialect: impl Into<Option<Dialect>>) -> Self {
        self.dialect = dialect.into();
        self
    }

    /// Whether `record` passes the filter.
    pub fn accepts(&self, record: &Record) -> bool {
        self.repo.as_deref().is_none_or(|repo| record.repo == repo)
            && (self.tags.is_empty() || record.tags.iter().any(|tag| self.tags.iter().any(|t| t == tag)))
            && (self.severities.is_empty() || self.severities.contains(&record.severity_or_default()))
    }
}
