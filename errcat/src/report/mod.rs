//! `errcat scan --html REPORT.html`: a self-contained HTML report of a scan.
//!
//! [`HtmlReport`] is one more consumer of the scan's events: it keeps, in memory
//! that does not grow with the input, per error its count, first and last
//! occurrence, a few example lines, the most frequent values of each field and
//! its occurrences over time; at the end [`HtmlReport::write`] renders the page
//! (see [`html`]).

mod chart;
mod escape;
mod html;
mod record;
mod timeline;
mod timestamp;
mod values;

use std::collections::{BTreeMap, BTreeSet};
use std::io;
use std::ops::Range;
use std::path::Path;

use error_catalog::{Catalog, Details, EventParts, Match};

use record::{match_parts, value_text, RecordView};
use timeline::Timeline;
use timestamp::{Form, Stamp};
use values::{shorten, ValueCounts};

/// Example lines kept per error (the first ones seen).
pub const EXAMPLES: usize = 3;
/// Distinct unmatched messages (after masking) the report groups, at most
/// (see `errcat draft`); lines past it are counted, not grouped.
const DRAFTED_KEYS: usize = 50_000;
pub const TOP_DRAFTS: usize = 10;
/// Example lines kept of the unmatched lines (`--unmatched`).
pub const UNMATCHED_EXAMPLES: usize = 8;
pub const TOP_VALUES: usize = 5;
/// Longest example line kept, in bytes.
const MAX_EXAMPLE_LEN: usize = 1000;
const MAX_CONTEXT_LEN: usize = 4000;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Lane {
    /// The error of this catalog index.
    Error(usize),
    /// Lines of the `--unmatched` levels that match no record.
    Unmatched,
}

struct InputStats {
    label: String,
    lines: u64,
    matched: u64,
    /// Why the input could not be read (to the end), if it could not.
    problem: Option<String>,
}

#[derive(Clone)]
struct Place {
    input: usize,
    line: u64,
    time: Option<Stamp>,
}

struct Example {
    place: Place,
    /// The line, cut to [`MAX_EXAMPLE_LEN`].
    text: String,
    /// The byte range of each field's value in `text` (in field order; none
    /// when unknown or cut off).
    fields: Vec<Option<Range<usize>>>,
    /// The trace that came with the line (a Java stack trace, a Python
    /// traceback, a Go panic's goroutines), cut to [`MAX_CONTEXT_LEN`].
    context: Option<String>,
}

struct ErrorStats {
    count: u64,
    /// Occurrences whose line has no timestamp the report recognises.
    untimed: u64,
    first: Place,
    last: Place,
    examples: Vec<Example>,
    values: Vec<ValueCounts>,
}

#[derive(Default)]
struct UnmatchedStats {
    count: u64,
    untimed: u64,
    by_level: BTreeMap<String, u64>,
    examples: Vec<Example>,
}

/// Everything the report shows, collected while scanning.
pub struct HtmlReport {
    inputs: Vec<InputStats>,
    errors: BTreeMap<usize, ErrorStats>,
    unmatched: UnmatchedStats,
    /// The levels asked for with `--unmatched` (none: no such section).
    unmatched_levels: Vec<String>,
    /// The unmatched lines grouped into templates, as `errcat draft` does.
    drafts: crate::draft::Miner,
    timeline: Timeline<Lane>,
    /// The timestamp forms seen, for the report's notes.
    forms: BTreeSet<Form>,
    /// The year given to syslog times, which have none.
    syslog_year: i32,
}

impl HtmlReport {
    pub fn new(unmatched_levels: &[String]) -> HtmlReport {
        HtmlReport {
            inputs: Vec::new(),
            errors: BTreeMap::new(),
            unmatched: UnmatchedStats::default(),
            unmatched_levels: unmatched_levels.to_vec(),
            drafts: crate::draft::Miner::new(DRAFTED_KEYS),
            timeline: Timeline::default(),
            forms: BTreeSet::new(),
            syslog_year: timestamp::current_year(),
        }
    }

    pub fn begin_input(&mut self, label: &str) {
        self.inputs.push(InputStats { label: label.to_owned(), lines: 0, matched: 0, problem: None });
        self.drafts.begin_input(label);
    }

    /// Ends the current input after `lines` lines, with the problem that
    /// stopped it, if any.
    pub fn end_input(&mut self, lines: u64, problem: Option<String>) {
        if let Some(input) = self.inputs.last_mut() {
            input.lines = lines;
            input.problem = problem.or(input.problem.take());
        }
    }

    pub fn problem(&mut self, problem: &str) {
        if let Some(input) = self.inputs.last_mut() {
            input.problem = Some(problem.to_owned());
        }
    }

    pub fn unreadable_input(&mut self, label: &str, problem: String) {
        self.inputs.push(InputStats { label: label.to_owned(), lines: 0, matched: 0, problem: Some(problem) });
    }

    fn time_of(&mut self, text: &str, message_start: usize) -> Option<Stamp> {
        let (stamp, form) = timestamp::find(text, message_start, self.syslog_year)?;
        self.forms.insert(form);
        Some(stamp)
    }

    /// A line of the current input matched a record; `text` is the line as
    /// read, in which the spans of `found` and `details` are.
    pub fn found(&mut self, line: u64, text: &str, found: &Match<'_>, details: Option<&Details>) {
        let (index, span, values) = match_parts(found);
        let time = self.time_of(text, span.start);
        let input = self.inputs.len().saturating_sub(1);
        if let Some(stats) = self.inputs.last_mut() {
            stats.matched += 1;
        }
        let place = Place { input, line, time };
        if let Some(time) = time {
            self.timeline.add(Lane::Error(index), time.micros);
        }
        let stats = self.errors.entry(index).or_insert_with(|| ErrorStats {
            count: 0,
            untimed: 0,
            first: place.clone(),
            last: place.clone(),
            examples: Vec::new(),
            values: values.iter().map(|_| ValueCounts::default()).collect(),
        });
        stats.count += 1;
        stats.untimed += u64::from(time.is_none());
        stats.last = place.clone();
        if stats.examples.len() < EXAMPLES {
            let mut example = example(place, text);
            let fields = details.and_then(|details| details.field_spans.as_ref());
            // A span is kept only when it lies within the kept text on
            // character boundaries (a cut or lossily decoded line may not have it).
            let kept =
                |span: &Option<Range<usize>>| span.clone().filter(|span| example.text.get(span.clone()).is_some());
            example.fields = fields.map_or_else(Vec::new, |fields| fields.iter().map(kept).collect());
            let context = details.and_then(|details| details.context.as_deref());
            example.context = context.map(|context| shorten(context, MAX_CONTEXT_LEN).into_owned());
            stats.examples.push(example);
        }
        for (counts, value) in stats.values.iter_mut().zip(values) {
            counts.add(&value_text(value));
        }
    }

    /// A line of the current input at one of the `--unmatched` levels that
    /// matches no record.
    /// Counts an unmatched line, or an event of several lines (`text` its
    /// message), shown whole among the examples.
    pub fn unmatched(&mut self, line: u64, level: &str, text: &str, event: Option<&EventParts>) {
        let time = self.time_of(text, text.len());
        match time {
            Some(time) => self.timeline.add(Lane::Unmatched, time.micros),
            None => self.unmatched.untimed += 1,
        }
        self.unmatched.count += 1;
        self.drafts.add_unmatched(line, text, event);
        *self.unmatched.by_level.entry(shorten(level, 16).into_owned()).or_default() += 1;
        if self.unmatched.examples.len() < UNMATCHED_EXAMPLES {
            let place = Place { input: self.inputs.len().saturating_sub(1), line, time };
            self.unmatched.examples.push(example(place, event.map_or(text, |event| &event.lines)));
        }
    }

    pub fn write(&self, catalog: &Catalog, path: &Path) -> io::Result<()> {
        let records: BTreeMap<usize, RecordView> =
            self.errors.keys().map(|&index| (index, RecordView::new(catalog, index))).collect();
        let page = html::render(self, &records);
        std::fs::write(path, page)
    }
}

fn example(place: Place, text: &str) -> Example {
    Example { place, text: shorten(text, MAX_EXAMPLE_LEN).into_owned(), fields: Vec::new(), context: None }
}
