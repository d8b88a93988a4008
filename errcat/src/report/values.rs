//! The most frequent values of a field, in bounded memory.
//!
//! Counts are exact for the first [`TRACKED`] distinct values; values first
//! seen after that are only counted together ([`ValueCounts::untracked`]), and
//! the report says so. Simple and honest: an approximate top-k would show
//! counts that are not the real ones.

use std::collections::HashMap;

/// Distinct values counted exactly per field.
pub const TRACKED: usize = 1000;
/// Longest value kept, in bytes (longer ones are cut at a character boundary
/// and marked with `…`); a log line can be megabytes long.
pub const MAX_VALUE_LEN: usize = 160;

#[derive(Default, Debug)]
pub struct ValueCounts {
    counts: HashMap<Box<str>, u64>,
    /// Occurrences of values first seen when [`TRACKED`] were already counted.
    pub untracked: u64,
}

impl ValueCounts {
    pub fn add(&mut self, value: &str) {
        let value = shorten(value, MAX_VALUE_LEN);
        if let Some(count) = self.counts.get_mut(value.as_ref()) {
            *count += 1;
        } else if self.counts.len() < TRACKED {
            self.counts.insert(value.into(), 1);
        } else {
            self.untracked += 1;
        }
    }

    /// The `n` most frequent values, most frequent first (ties by value).
    pub fn top(&self, n: usize) -> Vec<(&str, u64)> {
        let mut all: Vec<(&str, u64)> = self.counts.iter().map(|(value, count)| (value.as_ref(), *count)).collect();
        all.sort_unstable_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
        all.truncate(n);
        all
    }

    pub fn distinct(&self) -> usize {
        self.counts.len()
    }
}

/// `text` cut to at most `max` bytes at a character boundary, with `…` when cut.
pub fn shorten(text: &str, max: usize) -> std::borrow::Cow<'_, str> {
    if text.len() <= max {
        return text.into();
    }
    let mut end = max;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}…", &text[..end]).into()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn most_frequent_first_and_bounded() {
        let mut counts = ValueCounts::default();
        for i in 0..3000 {
            counts.add(&format!("v{}", i % 1500));
        }
        counts.add("v7");
        assert_eq!(counts.distinct(), TRACKED);
        // v1000..v1499 came after the first 1000 distinct values: 2 each.
        assert_eq!(counts.untracked, 1000);
        assert_eq!(counts.top(2), [("v7", 3), ("v0", 2)]);
    }

    #[test]
    fn long_values_are_cut_at_a_character_boundary() {
        let long = "é".repeat(MAX_VALUE_LEN);
        let mut counts = ValueCounts::default();
        counts.add(&long);
        let (value, count) = counts.top(1)[0];
        assert_eq!(count, 1);
        assert!(value.len() <= MAX_VALUE_LEN + "…".len() && value.ends_with('…'));
        assert_eq!(shorten("short", 10), "short");
    }
}
