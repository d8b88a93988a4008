//! `errcat draft`: the lines of logs that no record explains, grouped into
//! templates, each written as a draft record.
//!
//! The lines are read and classified by scan's pipeline (so whatever scan
//! sees through, draft does too); a line no record explains loses its log
//! prefix as the matcher strips it, is masked ([`mask`]) and counted by its
//! masked form ([`keys`], the only state kept per line, bounded). At the end
//! the keys of each length are grouped ([`tree`]), groups are merged across
//! lengths and families ([`merge`]), each group's template is written as
//! a format string and a regex ([`template`]), each key goes to the group
//! whose regex a scan with the drafts would find for it ([`settle`]), and
//! each group is written as a draft record ([`record`]).

mod datetime;
mod keys;
mod mask;
mod merge;
mod record;
mod settle;
mod template;
mod tree;

use std::collections::BTreeMap;
use std::io;
use std::path::{Path, PathBuf};

use error_catalog::{Catalog, ChunkClassifier, Dialect, EventParts, LogLevel, LogLine, Matcher, ScanOptions, Template};

use crate::exit::{FOUND, NOT_FOUND, TROUBLE};
use crate::input;
use crate::pipeline::{self, Delivery, Event};
use crate::style::Out;

pub use record::Draft;
pub use template::DIALECTS;

/// Distinct masked messages kept, at most (see [`keys`]).
pub const MAX_KEYS: usize = 200_000;

pub struct Options {
    /// Where to write the draft records, if anywhere.
    pub out: Option<PathBuf>,
    /// Only lines of these levels (all lines when empty).
    pub levels: Vec<String>,
    /// Groups of fewer lines are left out.
    pub min_count: u64,
    /// The format syntax of the drafts' `errorMessage`.
    pub dialect: Dialect,
    pub json: bool,
    pub threads: usize,
}

/// The miner's state across inputs.
pub struct Miner {
    keys: keys::Keys,
    /// Strips a log prefix as the matcher does: a template that is one
    /// value starts where the matcher starts a message in a line.
    prefix: Matcher<Template>,
    inputs: Vec<String>,
    /// Lines left out of the last drafts: their messages are values only.
    valueless: std::cell::Cell<u64>,
}

impl Miner {
    pub fn new(max_keys: usize) -> Self {
        let whole = Template::compile("%s", Dialect::Go).expect("a valid template");
        Miner {
            keys: keys::Keys::new(max_keys),
            prefix: Matcher::new([&whole]),
            inputs: Vec::new(),
            valueless: Default::default(),
        }
    }

    /// Starts a new input named `label`.
    pub fn begin_input(&mut self, label: &str) {
        self.inputs.push(label.to_owned());
    }

    /// Counts one unexplained line of the current input.
    pub fn add_line(&mut self, line: u64, text: &str) {
        let input = self.inputs.len().saturating_sub(1) as u32;
        let place = keys::Place { input, line };
        if self.keys.add_seen_line(text, place) {
            return;
        }
        let start = self.prefix.find(text).map_or(0, |found| found.span.start);
        if text[start..].trim().is_empty() {
            return;
        }
        let level = LogLevel::find_in(&text[..start]).or_else(|| LogLevel::find_in(text)).map(|(level, _)| level);
        self.keys.add(text, start, place, level);
    }

    /// Counts what no record explains of an unmatched line or event of
    /// several lines (`text` its message, of line `line`): the message, and
    /// an event's introducing line and causes no record explains; the lines
    /// of its trace are not messages.
    pub fn add_unmatched(&mut self, line: u64, text: &str, event: Option<&EventParts>) {
        let Some(event) = event else { return self.add_line(line, text) };
        let unexplained = event.intro.iter().chain(event.causes.iter().rev()).filter(|part| part.found.is_none());
        for part in unexplained {
            self.add_line(part.line, &part.text);
        }
        self.add_line(line, text);
    }

    /// The groups' drafts, most lines first.
    pub fn drafts(&self, dialect: Dialect) -> Vec<Draft> {
        let keys = &self.keys.keys;
        let mut by_length: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
        for (index, key) in keys.iter().enumerate() {
            by_length.entry(key.tokens.len()).or_default().push(index);
        }
        let split: Vec<Vec<usize>> = by_length.into_values().flat_map(|members| tree::split(keys, members)).collect();
        let (groups, valueless) = merge::with_words(keys, merge::merge(keys, split));
        self.valueless.set(valueless);
        let groups = settle::settle(keys, groups);
        let mut drafts: Vec<Draft> = groups
            .into_iter()
            .map(|(group, pattern)| record::draft(keys, &group, pattern, dialect, &self.inputs))
            .collect();
        drafts.sort_by(|a, b| b.count.cmp(&a.count).then_with(|| a.id.cmp(&b.id)));
        drafts
    }

    /// Lines counted, and lines left out once the cap on keys was reached.
    pub fn lines(&self) -> (u64, u64) {
        (self.keys.lines(), self.keys.dropped)
    }

    /// Lines the last [`Miner::drafts`] left out: messages of values only.
    pub fn valueless(&self) -> u64 {
        self.valueless.get()
    }
}

pub fn run(catalog: &Catalog, files: &[PathBuf], options: &Options, out: &mut Out) -> io::Result<u8> {
    if !DIALECTS.contains(&options.dialect) {
        let names: Vec<&str> = DIALECTS.iter().map(|d| d.name()).collect();
        eprintln!("errcat: drafts are written in {}; not in {}", names.join(", "), options.dialect.name());
        return Ok(TROUBLE);
    }
    let stdin = [PathBuf::from("-")];
    let files = if files.is_empty() { &stdin[..] } else { files };
    let mut miner = Miner::new(MAX_KEYS);
    let mut trouble = false;
    // Every unexplained line, or those of the levels asked for (the level
    // is found as `scan --unmatched` finds it, only when asked for: the
    // pipeline only needs a yes).
    let levels: Vec<LogLevel> = options.levels.iter().filter_map(|name| LogLevel::from_name(name)).collect();
    let wanted_line = |line: &LogLine<'_>| {
        if levels.is_empty() {
            return Some(String::new());
        }
        let level = line.envelope_level().or_else(|| LogLevel::find_in(line.text()).map(|(level, _)| level));
        level.is_some_and(|level| levels.contains(&level)).then(String::new)
    };
    for path in files {
        let mut input = match input::open(path) {
            Ok(input) => input,
            Err(message) => {
                eprintln!("errcat: {message}");
                trouble = true;
                continue;
            }
        };
        if input.looks_binary()? {
            eprintln!("errcat: {}: binary file (it contains NUL bytes); skipped", input.label);
            trouble = true;
            continue;
        }
        miner.begin_input(&input.label);
        // Envelopes as `scan` reads them: detected from the first lines.
        let envelope = input.choose_envelope(None)?;
        let scan_options = ScanOptions { envelope, unmatched: Some(&wanted_line), line_text: false, details: false };
        let classifier = ChunkClassifier::new(catalog, scan_options);
        let mut invalid = 0u64;
        let label = input.label.clone();
        let result = pipeline::scan(&classifier, &mut input, options.threads, |delivery| {
            if let Delivery::Events(events) = delivery {
                for event in events {
                    match event {
                        Event::Unmatched { line, text, event, .. } => {
                            miner.add_unmatched(line, &text, event.as_deref())
                        }
                        Event::InvalidUtf8 { line } => {
                            if invalid == 0 {
                                eprintln!("errcat: {label}:{line}: invalid UTF-8 (read with replacement characters)");
                            }
                            invalid += 1;
                        }
                        Event::TooLong { line } => {
                            eprintln!(
                                "errcat: {label}:{line}: line longer than {} MiB; skipped",
                                input::MAX_LINE >> 20
                            );
                            invalid += 1;
                        }
                        _ => {}
                    }
                }
            }
            Ok(())
        });
        input.finish();
        trouble |= invalid > 0;
        if let Err(err) = result {
            eprintln!("errcat: {}: {}", input.label, input::io_message(&err));
            trouble = true;
        }
    }
    let drafts: Vec<Draft> =
        miner.drafts(options.dialect).into_iter().filter(|d| d.count >= options.min_count.max(1)).collect();
    if let Some(dir) = &options.out {
        if let Err(message) = write_drafts(dir, &drafts) {
            eprintln!("errcat: {message}");
            trouble = true;
        }
    }
    let (lines, dropped) = miner.lines();
    if options.json {
        for draft in &drafts {
            out.line(&record::group_json(draft).to_string())?;
        }
    } else {
        print_table(&drafts, out)?;
        let grouped: u64 = drafts.iter().map(|d| d.count).sum();
        let mut summary = format!("{lines} unexplained line(s), {grouped} in {} group(s)", drafts.len());
        if let Some(dir) = &options.out {
            summary.push_str(&format!("; drafts written to {}", dir.display()));
        }
        out.line(&out.dim(&summary))?;
    }
    out.flush()?;
    let valueless = miner.valueless();
    if valueless > 0 {
        eprintln!(
            "errcat: note: {valueless} line(s) not drafted: their messages are values only (no word of their own)"
        );
    }
    if dropped > 0 {
        eprintln!(
            "errcat: note: {dropped} line(s) not grouped: more than {MAX_KEYS} distinct messages (after masking) were kept"
        );
    }
    Ok(if trouble {
        TROUBLE
    } else if drafts.is_empty() {
        NOT_FOUND
    } else {
        FOUND
    })
}

fn print_table(drafts: &[Draft], out: &mut Out) -> io::Result<()> {
    if drafts.is_empty() {
        return out.line("no unexplained lines to group");
    }
    out.line(&out.bold(&format!("{:>7}  {:<16}  {:<8}  template", "count", "draft id", "severity")))?;
    for draft in drafts {
        let severity = draft.severity.unwrap_or("-");
        let template = crate::style::truncate(&draft.error_message.escape_debug().to_string(), 160);
        out.line(&format!("{:>7}  {}  {severity:<8}  {template}", draft.count, draft.id))?;
    }
    out.line("")
}

/// Writes each draft as `DIR/<id>.json`, the layout `--data` reads.
fn write_drafts(dir: &Path, drafts: &[Draft]) -> Result<(), String> {
    let failed = |err: io::Error| format!("{}: cannot write the drafts: {}", dir.display(), input::io_message(&err));
    std::fs::create_dir_all(dir).map_err(failed)?;
    for draft in drafts {
        let path = dir.join(format!("{}.json", draft.id));
        let mut text = serde_json::to_string_pretty(&record::record_json(draft)).expect("JSON values serialize");
        text.push('\n');
        std::fs::write(&path, text)
            .map_err(|err| format!("{}: cannot write: {}", path.display(), input::io_message(&err)))?;
    }
    Ok(())
}
