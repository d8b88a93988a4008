//! Occurrences over time, in bounded memory: counts per time bucket for each
//! lane (an error), with one bucket width shared by all lanes so that their
//! charts line up.
//!
//! While scanning, buckets start fine (a millisecond) and are merged into the
//! next coarser width of [`WIDTHS`] whenever the times seen span more than
//! [`MAX_FINE_BUCKETS`]; each width divides the next and buckets are aligned
//! to the epoch, so merging is exact. For display, [`Timeline::chart`] picks
//! the finest width of the same ladder that gives at most a given number of
//! bars: round widths (1 min, 5 min, 1 h, ...) people read at a glance.

use std::collections::BTreeMap;

/// Bucket widths in microseconds, finest first; each divides the next.
pub const WIDTHS: [(i64, &str); 22] = {
    const MS: i64 = 1000;
    const S: i64 = 1000 * MS;
    const MIN: i64 = 60 * S;
    const H: i64 = 60 * MIN;
    const D: i64 = 24 * H;
    [
        (MS, "1 ms"),
        (10 * MS, "10 ms"),
        (100 * MS, "100 ms"),
        (S, "1 s"),
        (5 * S, "5 s"),
        (10 * S, "10 s"),
        (30 * S, "30 s"),
        (MIN, "1 min"),
        (5 * MIN, "5 min"),
        (10 * MIN, "10 min"),
        (30 * MIN, "30 min"),
        (H, "1 h"),
        (3 * H, "3 h"),
        (6 * H, "6 h"),
        (12 * H, "12 h"),
        (D, "1 day"),
        (7 * D, "1 week"),
        (28 * D, "4 weeks"),
        (364 * D, "52 weeks"),
        (10 * 364 * D, "520 weeks"),
        (100 * 364 * D, "5200 weeks"),
        (1000 * 364 * D, "52000 weeks"),
    ]
};

pub const MAX_FINE_BUCKETS: i64 = 2048;

#[derive(Debug)]
pub struct Timeline<K> {
    level: usize,
    /// Each lane's count per bucket number (time / width).
    lanes: BTreeMap<K, BTreeMap<i64, u64>>,
    range: Option<(i64, i64)>,
}

#[derive(Debug, PartialEq)]
pub struct Chart<K> {
    pub width: (i64, &'static str),
    pub start: i64,
    pub bars: usize,
    pub lanes: BTreeMap<K, Vec<u64>>,
}

impl<K: Ord + Clone> Default for Timeline<K> {
    fn default() -> Self {
        Timeline { level: 0, lanes: BTreeMap::new(), range: None }
    }
}

impl<K: Ord + Clone> Timeline<K> {
    pub fn add(&mut self, lane: K, micros: i64) {
        let (first, last) = self.range.map_or((micros, micros), |(a, b)| (a.min(micros), b.max(micros)));
        self.range = Some((first, last));
        let mut level = self.level;
        // (Timestamps have four-digit years: the coarsest width always fits them.)
        while level + 1 < WIDTHS.len()
            && last.div_euclid(WIDTHS[level].0) - first.div_euclid(WIDTHS[level].0) >= MAX_FINE_BUCKETS
        {
            level += 1;
        }
        if level != self.level {
            self.coarsen(level);
        }
        let bucket = micros.div_euclid(WIDTHS[self.level].0);
        *self.lanes.entry(lane).or_default().entry(bucket).or_default() += 1;
    }

    pub fn range(&self) -> Option<(i64, i64)> {
        self.range
    }

    fn coarsen(&mut self, level: usize) {
        let (old, new) = (WIDTHS[self.level].0, WIDTHS[level].0);
        for buckets in self.lanes.values_mut() {
            let mut merged = BTreeMap::new();
            for (bucket, count) in std::mem::take(buckets) {
                // `old` divides `new`: the start of the old bucket is in exactly one new one.
                *merged.entry((bucket * old).div_euclid(new)).or_default() += count;
            }
            *buckets = merged;
        }
        self.level = level;
    }

    /// The counts as at most `max_bars` bars of a round width (none when no
    /// time was added).
    pub fn chart(&self, max_bars: usize) -> Option<Chart<K>> {
        let (first, last) = self.range?;
        let max_bars = max_bars.max(1) as i64;
        let level = (self.level..WIDTHS.len())
            .find(|&level| {
                let width = WIDTHS[level].0;
                last.div_euclid(width) - first.div_euclid(width) < max_bars
            })
            .unwrap_or(WIDTHS.len() - 1);
        let width = WIDTHS[level].0;
        let first_bar = first.div_euclid(width);
        let bars = (last.div_euclid(width) - first_bar + 1) as usize;
        let fine = WIDTHS[self.level].0;
        let lanes = self
            .lanes
            .iter()
            .map(|(lane, buckets)| {
                let mut counts = vec![0; bars];
                for (bucket, count) in buckets {
                    counts[((bucket * fine).div_euclid(width) - first_bar) as usize] += count;
                }
                (lane.clone(), counts)
            })
            .collect();
        Some(Chart { width: WIDTHS[level], start: first_bar * width, bars, lanes })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const S: i64 = 1_000_000;
    const MIN: i64 = 60 * S;

    #[test]
    fn widths_divide_each_other() {
        for pair in WIDTHS.windows(2) {
            assert_eq!(pair[1].0 % pair[0].0, 0, "{} does not divide {}", pair[0].1, pair[1].1);
        }
    }

    #[test]
    fn an_hour_is_shown_by_the_minute() {
        let mut timeline = Timeline::default();
        let start = 1_000 * 86_400 * S + 17 * 60 * MIN + 20 * MIN; // 17:20
        for minute in 0..56 {
            timeline.add("a", start + minute * MIN + 123_911);
        }
        timeline.add("b", start + 30 * MIN);
        timeline.add("b", start + 30 * MIN + 59 * S);
        let chart = timeline.chart(60).expect("times were added");
        assert_eq!(chart.width.1, "1 min");
        assert_eq!(chart.start, start);
        assert_eq!(chart.bars, 56);
        assert!(chart.lanes["a"].iter().all(|&count| count == 1));
        assert_eq!(chart.lanes["b"].iter().sum::<u64>(), 2);
        assert_eq!(chart.lanes["b"][30], 2, "both in the bar of 17:50");
        // Fewer bars allowed: 5-minute bars, same total.
        let coarse = timeline.chart(12).unwrap();
        assert_eq!(coarse.width.1, "5 min");
        assert_eq!(coarse.bars, 12);
        assert_eq!(coarse.lanes["a"].iter().sum::<u64>(), 56);
        assert_eq!(coarse.lanes["a"][0], 5);
    }

    #[test]
    fn merging_keeps_every_count_and_bounds_the_buckets() {
        let mut timeline = Timeline::default();
        // A week of times one second apart... in steps, out of order.
        let mut total = 0;
        for step in (0..7 * 86_400i64).rev().step_by(37) {
            timeline.add(step % 3, step * S + 5);
            total += 1;
        }
        let buckets: usize = timeline.lanes.values().map(BTreeMap::len).sum();
        assert!(buckets <= 3 * MAX_FINE_BUCKETS as usize, "{buckets} buckets");
        let chart = timeline.chart(60).unwrap();
        assert_eq!(chart.lanes.values().flatten().sum::<u64>(), total);
        assert!(chart.bars <= 60);
        assert_eq!(chart.width.1, "3 h");
    }

    #[test]
    fn a_single_time_and_no_time() {
        assert_eq!(Timeline::<u8>::default().chart(60), None);
        let mut timeline = Timeline::default();
        timeline.add(1u8, -5); // Before the epoch: buckets are floored, not truncated.
        let chart = timeline.chart(60).unwrap();
        assert_eq!((chart.bars, chart.start, chart.width.1), (1, -1000, "1 ms"));
        assert_eq!(chart.lanes[&1], [1]);
    }

    #[test]
    fn extreme_times_do_not_overflow() {
        let mut timeline = Timeline::default();
        let far = 8_000 * 365 * 86_400 * S; // about the year 9999
        timeline.add(0u8, -far);
        timeline.add(0u8, far);
        let chart = timeline.chart(60).unwrap();
        assert!(chart.bars <= 60);
        assert_eq!(chart.lanes[&0].iter().sum::<u64>(), 2);
    }
}
