//! `--metrics-labels namespace,container`: the workload's parts as labels
//! of `errcat_matches_total` and `errcat_lines_read_total`, on series made
//! as workloads are met, at most `--metrics-max-series` of them. Past the
//! cap a count goes to the series without those labels (their values
//! empty, which Prometheus reads as no label), and
//! `errcat_series_dropped_total` counts the series that were not made: a
//! node with many pods cannot blow up Prometheus, and no count is lost.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;

use crate::origin::{Origin, Part};

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Family {
    /// `errcat_matches_total` of record number N.
    Matches,
    /// `errcat_lines_read_total` of input number N.
    Lines,
}

/// A labelled series: its family, the record's or input's number, the
/// label values.
type Key = (Family, usize, Vec<String>);

#[derive(Debug)]
pub struct Labelled {
    pub parts: Vec<Part>,
    max_series: usize,
    series: Mutex<BTreeMap<Key, u64>>,
    pub dropped: AtomicU64,
}

impl Labelled {
    pub fn new(parts: Vec<Part>, max_series: usize) -> Labelled {
        Labelled { parts, max_series, series: Mutex::default(), dropped: AtomicU64::new(0) }
    }

    /// The label values of `origin`, when it has any of the parts.
    pub fn values_of(&self, origin: &Origin) -> Option<Vec<String>> {
        let values: Vec<String> =
            self.parts.iter().map(|part| origin.get(*part).unwrap_or_default().to_owned()).collect();
        values.iter().any(|value| !value.is_empty()).then_some(values)
    }

    /// Adds `count` to the series of (`family`, `index`, `values`): whether
    /// it was counted (made if need be), not dropped past the cap.
    pub fn add(&self, family: Family, index: usize, values: &[String], count: u64) -> bool {
        let Ok(mut series) = self.series.lock() else { return false };
        let key = (family, index, values.to_vec());
        if let Some(total) = series.get_mut(&key) {
            *total += count;
            return true;
        }
        if series.len() >= self.max_series {
            self.dropped.fetch_add(1, Ordering::Relaxed);
            return false;
        }
        series.insert(key, count);
        true
    }

    /// The series of `family`, in order: (index, values, count).
    pub fn of(&self, family: Family) -> Vec<(usize, Vec<String>, u64)> {
        let Ok(series) = self.series.lock() else { return Vec::new() };
        let range = series.range((family, 0, Vec::new())..);
        range
            .take_while(|((of, ..), _)| *of == family)
            .map(|((_, index, values), count)| (*index, values.clone(), *count))
            .collect()
    }
}
