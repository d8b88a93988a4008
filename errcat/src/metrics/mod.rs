//! `errcat scan --metrics ADDR`: what the scan counts, as Prometheus
//! metrics served over HTTP (see [`server`]). Every series exists from the
//! start at 0 and never expires; labels come from the catalog and the command
//! line only (with `--metrics-labels`, from the workload too, capped: see
//! [`labelled`]), so the number of series is bounded. The counters are
//! atomics: the scan never waits for a scrape.

use std::fmt;
use std::sync::atomic::{AtomicU64, Ordering};

use error_catalog::{Catalog, Entry, Found, LogLevel, LogLine};
use prometheus_client::encoding::{DescriptorEncoder, EncodeMetric};
use prometheus_client::metrics::counter::ConstCounter;
use prometheus_client::metrics::gauge::ConstGauge;
use prometheus_client::metrics::MetricType;
use prometheus_client::registry::Unit;

use self::labelled::{Family, Labelled};
use crate::origin::{Origin, Part};
use crate::pipeline::Event;

mod labelled;
pub mod server;

/// The levels unmatched lines are counted by, and `none` for lines without one.
const LEVELS: [LogLevel; 7] = [
    LogLevel::Trace,
    LogLevel::Debug,
    LogLevel::Info,
    LogLevel::Warning,
    LogLevel::Error,
    LogLevel::Fatal,
    LogLevel::System,
];
const NO_LEVEL: &str = "none";

/// Why an input could not be read (or not all of it), as metrics count it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Problem {
    Unreadable,
    ReadError,
    /// A directory or a compressed file: it cannot be followed.
    NotFollowable,
    /// A line longer than [`MAX_LINE`](crate::input::MAX_LINE) was skipped.
    LineTooLong,
    /// A line is not UTF-8 (it is read with replacement characters).
    InvalidUtf8,
    /// `--state` could not be written.
    StateUnwritable,
}

impl Problem {
    pub const ALL: [Problem; 6] = [
        Problem::Unreadable,
        Problem::ReadError,
        Problem::NotFollowable,
        Problem::LineTooLong,
        Problem::InvalidUtf8,
        Problem::StateUnwritable,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Problem::Unreadable => "unreadable",
            Problem::ReadError => "read_error",
            Problem::NotFollowable => "not_followable",
            Problem::LineTooLong => "line_too_long",
            Problem::InvalidUtf8 => "invalid_utf8",
            Problem::StateUnwritable => "state_unwritable",
        }
    }
}

#[derive(Debug)]
pub struct Metrics {
    /// Per record: its labels (id, name, severity, repo, dataset) and its count.
    matches: Vec<([String; 5], AtomicU64)>,
    /// Per input: its label and the lines read from it.
    lines: Vec<(String, AtomicU64)>,
    /// Unmatched lines per [`LEVELS`] entry, then those without a level.
    unmatched: [AtomicU64; LEVELS.len() + 1],
    /// Input errors per [`Problem::ALL`] entry.
    problems: [AtomicU64; Problem::ALL.len()],
    /// The dataset version(s) of the catalog's records, `+`-joined.
    dataset_version: String,
    /// When the scan started, in seconds since the Unix epoch.
    start_time: f64,
    /// The series labelled by workload, with `--metrics-labels`.
    labelled: Option<Labelled>,
}

impl Metrics {
    /// Zero counts for `catalog` and the inputs labelled `inputs`; with
    /// `parts`, match and line counts labelled by those parts of the
    /// workload too, on at most `max_series` series.
    pub fn new(catalog: &Catalog, inputs: &[String], parts: &[Part], max_series: usize) -> Metrics {
        let matches = (catalog.entries().iter().enumerate())
            .map(|(index, entry)| {
                let [id, name, severity, repo] = record_labels(entry).map(|(_, value)| value);
                let dataset = catalog.dataset(index).unwrap_or_default().to_owned();
                ([id, name, severity, repo, dataset], AtomicU64::new(0))
            })
            .collect();
        let start_time =
            std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0.0, |since| since.as_secs_f64());
        Metrics {
            matches,
            lines: inputs.iter().map(|label| (label.clone(), AtomicU64::new(0))).collect(),
            unmatched: Default::default(),
            problems: Default::default(),
            dataset_version: dataset_version(catalog),
            start_time,
            labelled: (!parts.is_empty()).then(|| Labelled::new(parts.to_vec(), max_series)),
        }
    }

    /// Counts the events of `lines` lines read from input number `input`,
    /// of the workload `origin`.
    pub fn count(&self, input: usize, origin: &Origin, lines: u64, events: &[Event]) {
        let values = self.labelled.as_ref().and_then(|labelled| Some((labelled, labelled.values_of(origin)?)));
        let labelled = |family, index, count| values.as_ref().is_some_and(|(l, v)| l.add(family, index, v, count));
        if !labelled(Family::Lines, input, lines) {
            self.lines[input].1.fetch_add(lines, Ordering::Relaxed);
        }
        for event in events {
            match event {
                Event::Found(Found { found, .. }) if !labelled(Family::Matches, found.index, 1) => {
                    self.matches[found.index].1.fetch_add(1, Ordering::Relaxed);
                }
                Event::Found(_) => {}
                Event::Unmatched { level, .. } => {
                    let known = LogLevel::from_name(level).and_then(|level| LEVELS.iter().position(|l| *l == level));
                    self.unmatched[known.unwrap_or(LEVELS.len())].fetch_add(1, Ordering::Relaxed);
                }
                Event::InvalidUtf8 { .. } => self.problem(Problem::InvalidUtf8),
                Event::TooLong { .. } => self.problem(Problem::LineTooLong),
                // Told on stderr by the report; not a problem of the input.
                _ => {}
            }
        }
    }

    pub fn problem(&self, problem: Problem) {
        let index = Problem::ALL.iter().position(|p| *p == problem).expect("every problem is listed");
        self.problems[index].fetch_add(1, Ordering::Relaxed);
    }

    /// The level an unmatched line is counted by: its envelope's, else as
    /// written in the line (`ERROR`), else `none`. Every unmatched line is
    /// counted.
    pub fn level_of(line: &LogLine<'_>) -> Option<String> {
        if let Some(level) = line.envelope_level() {
            return Some(level.tag().to_owned());
        }
        let text = line.text();
        Some(LogLevel::find_in(text).map_or(NO_LEVEL.to_owned(), |(_, span)| text[span].to_owned()))
    }
}

/// The labels of a record's `errcat_matches_total` series, all from the
/// catalog: its id, variant name, severity and repository.
pub fn record_labels(entry: &Entry) -> [(&'static str, String); 4] {
    let record = &entry.record();
    [
        (MATCH_LABELS[0], record.id.to_string()),
        (MATCH_LABELS[1], entry.name.to_string()),
        (MATCH_LABELS[2], record.severity_or_default().as_str().to_owned()),
        (MATCH_LABELS[3], record.repo.to_string()),
    ]
}
/// The labels of `errcat_matches_total`: [`record_labels`]' and the
/// record's dataset (one of the few the catalog is made of).
const MATCH_LABELS: [&str; 5] = ["id", "name", "severity", "repo", "dataset"];

/// The versions the records were exported in, distinct, in order, joined
/// with `+` (`unknown` when no record says).
fn dataset_version(catalog: &Catalog) -> String {
    let mut versions: Vec<&str> =
        catalog.entries().iter().filter_map(|entry| entry.record().dataset_version.as_deref()).collect();
    versions.sort_unstable();
    versions.dedup();
    if versions.is_empty() {
        return "unknown".to_owned();
    }
    versions.join("+")
}

fn counter(count: &AtomicU64) -> ConstCounter<u64> {
    ConstCounter::new(count.load(Ordering::Relaxed))
}

impl prometheus_client::collector::Collector for Metrics {
    /// Encodes every series, in a fixed order (the catalog's, the command
    /// line's), so that two scrapes differ only in their numbers.
    fn encode(&self, mut encoder: DescriptorEncoder) -> Result<(), fmt::Error> {
        let mut family = encoder.encode_descriptor(
            "errcat_matches",
            "Log lines that matched a record of the catalog, by record",
            None,
            MetricType::Counter,
        )?;
        let parts: &[Part] = self.labelled.as_ref().map_or(&[], |labelled| &labelled.parts);
        let unlabelled = vec![String::new(); parts.len()];
        let with_parts = |mut labels: Vec<(&'static str, String)>, values: &[String]| {
            labels.extend(parts.iter().map(|part| part.name()).zip(values.iter().cloned()));
            labels
        };
        let record_labels = |index: usize, values: &[String]| {
            let labels = MATCH_LABELS.iter().zip(&self.matches[index].0).map(|(n, v)| (*n, v.clone())).collect();
            with_parts(labels, values)
        };
        for (index, (_, count)) in self.matches.iter().enumerate() {
            let count = count.load(Ordering::Relaxed);
            ConstCounter::new(count).encode(family.encode_family(&record_labels(index, &unlabelled))?)?;
        }
        for (index, values, count) in self.labelled.iter().flat_map(|labelled| labelled.of(Family::Matches)) {
            ConstCounter::new(count).encode(family.encode_family(&record_labels(index, &values))?)?;
        }

        let mut family =
            encoder.encode_descriptor("errcat_lines_read", "Lines read, by input", None, MetricType::Counter)?;
        let input_labels =
            |index: usize, values: &[String]| with_parts(vec![("input", self.lines[index].0.clone())], values);
        for (index, (_, count)) in self.lines.iter().enumerate() {
            let count = count.load(Ordering::Relaxed);
            ConstCounter::new(count).encode(family.encode_family(&input_labels(index, &unlabelled))?)?;
        }
        for (index, values, count) in self.labelled.iter().flat_map(|labelled| labelled.of(Family::Lines)) {
            ConstCounter::new(count).encode(family.encode_family(&input_labels(index, &values))?)?;
        }
        if let Some(labelled) = &self.labelled {
            let family = encoder.encode_descriptor(
                "errcat_series_dropped",
                "Counts that would have made a workload-labelled series past --metrics-max-series (counted without those labels)",
                None,
                MetricType::Counter,
            )?;
            counter(&labelled.dropped).encode(family)?;
        }

        let mut family = encoder.encode_descriptor(
            "errcat_unmatched_lines",
            "Lines that matched no record, by log level (none: no level found)",
            None,
            MetricType::Counter,
        )?;
        let levels = LEVELS.iter().map(|level| level.tag()).chain([NO_LEVEL]);
        for (level, count) in levels.zip(&self.unmatched) {
            counter(count).encode(family.encode_family(&[("level", level)])?)?;
        }

        let mut family = encoder.encode_descriptor(
            "errcat_input_errors",
            "Problems reading the inputs, by reason",
            None,
            MetricType::Counter,
        )?;
        for (problem, count) in Problem::ALL.iter().zip(&self.problems) {
            counter(count).encode(family.encode_family(&[("reason", problem.as_str())])?)?;
        }

        let family = encoder.encode_descriptor(
            "errcat_catalog_records",
            "Records in the catalog the scan matches against",
            None,
            MetricType::Gauge,
        )?;
        ConstGauge::new(self.matches.len() as i64).encode(family)?;

        let mut family = encoder.encode_descriptor(
            "errcat_catalog",
            "The catalog: its dataset version and errcat's own",
            None,
            MetricType::Info,
        )?;
        family.encode_info(&[
            ("dataset_version", self.dataset_version.as_str()),
            ("errcat_version", env!("CARGO_PKG_VERSION")),
        ])?;

        let family = encoder.encode_descriptor(
            "errcat_start_time",
            "When the scan started, since the Unix epoch",
            Some(&Unit::Seconds),
            MetricType::Gauge,
        )?;
        ConstGauge::new(self.start_time).encode(family)
    }
}

#[cfg(test)]
mod tests {
    use error_catalog::nats_server::NatsServerError;
    use prometheus_client::registry::Registry;

    use super::*;

    fn scrape(metrics: Metrics) -> String {
        let mut registry = Registry::default();
        registry.register_collector(Box::new(metrics));
        let mut text = String::new();
        prometheus_client::encoding::text::encode(&mut text, &registry).unwrap();
        text
    }

    #[test]
    fn every_record_has_a_series_at_zero_before_any_line() {
        let catalog = Catalog::from_entries(NatsServerError::entries().to_vec()).named("seeds");
        let text = scrape(Metrics::new(&catalog, &["a.log".to_owned()], &[], 0));
        let series = text.lines().filter(|line| line.starts_with("errcat_matches_total{")).count();
        assert_eq!(series, catalog.len());
        assert!(text.contains(
            r#"errcat_matches_total{id="503f49fe39cf5793",name="UnableToPersistSession",severity="error",repo="nats-io/nats-server",dataset="seeds"} 0"#
        ), "{}", &text[..2000]);
        assert!(text.contains("errcat_lines_read_total{input=\"a.log\"} 0\n"));
        assert!(text.contains("errcat_unmatched_lines_total{level=\"none\"} 0\n"));
        assert!(text.ends_with("# EOF\n"));
    }

    #[test]
    fn counts_land_on_the_record_the_level_and_the_input() {
        let catalog = Catalog::from_entries(NatsServerError::entries().to_vec());
        let metrics = Metrics::new(&catalog, &["in \"quotes\"\n".to_owned()], &[], 0);
        let found = catalog.find("unable to persist session \"a\" (seq=1): timeout").unwrap().into_owned();
        let index = found.index;
        let events = [
            Event::Found(Found { line: 1, found, line_text: None, details: None }),
            Event::Unmatched { line: 2, level: "error".to_owned(), text: String::new(), event: None },
            Event::Unmatched { line: 3, level: NO_LEVEL.to_owned(), text: String::new(), event: None },
            Event::TooLong { line: 4 },
        ];
        metrics.count(0, &Origin::default(), 4, &events);
        assert_eq!(metrics.matches[index].1.load(Ordering::Relaxed), 1);
        let text = scrape(metrics);
        // The label value is escaped by the encoder: no line break, no early quote.
        assert!(text.contains("errcat_lines_read_total{input=\"in \\\"quotes\\\"\\n\"} 4\n"), "{text}");
        assert!(text.contains("errcat_unmatched_lines_total{level=\"ERR\"} 1\n"));
        assert!(text.contains("errcat_unmatched_lines_total{level=\"none\"} 1\n"));
        assert!(text.contains("errcat_input_errors_total{reason=\"line_too_long\"} 1\n"));
    }

    #[test]
    fn workload_labels_are_escaped_and_capped_without_losing_a_count() {
        let catalog = Catalog::from_entries(NatsServerError::entries().to_vec());
        let metrics = Metrics::new(&catalog, &["pods".to_owned()], &[Part::Namespace, Part::Container], 2);
        let found = catalog.find("unable to persist session \"a\" (seq=1): timeout").unwrap().into_owned();
        let index = found.index;
        let events = [Event::Found(Found { line: 1, found, line_text: None, details: None })];
        let origin = |namespace: &str| Origin {
            namespace: Some(namespace.to_owned()),
            pod: Some("p".to_owned()),
            container: Some("c".to_owned()),
        };
        // Two series for the first workload (its lines and its match), none left for the second.
        metrics.count(0, &origin("evil\"}\n"), 1, &events);
        metrics.count(0, &origin("other"), 1, &events);
        metrics.count(0, &Origin::default(), 1, &events);
        assert_eq!(metrics.matches[index].1.load(Ordering::Relaxed), 2);
        let text = scrape(metrics);
        let id = catalog.entries()[index].record().id.to_string();
        assert!(text.contains(",namespace=\"evil\\\"}\\n\",container=\"c\"} 1\n"), "{text}");
        assert!(text.contains(&format!("errcat_matches_total{{id=\"{id}\",")), "{text}");
        assert!(text.contains("errcat_lines_read_total{input=\"pods\",namespace=\"\",container=\"\"} 2\n"), "{text}");
        assert!(text.contains("errcat_series_dropped_total 2\n"), "{text}");
        assert!(!text.contains("other"), "{text}");
    }
}
