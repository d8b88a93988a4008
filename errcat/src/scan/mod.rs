//! `errcat scan`: classify every line of log files.

use std::collections::BTreeMap;
use std::io;
use std::path::PathBuf;

use error_catalog::{
    event_object, Catalog, ChunkClassifier, Details, EventParts, Found, LogLevel, LogLine, Match, ScanOptions,
};
use serde_json::json;

use crate::args::ScanArgs;
use crate::exit::{FOUND, NOT_FOUND, TROUBLE};
use crate::input::{self, MAX_LINE};
use crate::pipeline::{self, Delivery, Event};
use crate::report::HtmlReport;
use crate::severity::rank as severity_rank;
use crate::style::show_value;
use crate::style::{truncate, Out};

mod follow;
mod live;

/// Where an error was seen.
#[derive(Clone)]
struct Place {
    /// Shared by every place in one file (one is recorded per match).
    file: std::rc::Rc<str>,
    line: u64,
}

struct Seen {
    count: u64,
    first: Place,
    last: Place,
}

#[derive(Default)]
struct Summary {
    by_record: BTreeMap<usize, Seen>,
    matched: u64,
    unmatched: u64,
    trouble: bool,
}

pub fn run(catalog: &Catalog, options: &ScanArgs, out: &mut Out) -> io::Result<u8> {
    if options.follow || options.metrics.is_some() {
        return live::run(catalog, &options.files, options, out);
    }
    let stdin = [PathBuf::from("-")];
    let files = if options.files.is_empty() { &stdin[..] } else { &options.files };
    let mut report = Report::new(catalog, options);
    for path in files {
        let mut input = match input::open(path) {
            Ok(input) => input,
            Err(message) => {
                report.trouble(&message, out)?;
                if let Some(html) = &mut report.html {
                    html.unreadable_input(&path.display().to_string(), message);
                }
                continue;
            }
        };
        if let Some(html) = &mut report.html {
            html.begin_input(&input.label);
        }
        let result = scan_input(&mut report, &mut input, out);
        input.finish();
        if let Some(html) = &mut report.html {
            html.end_input(input.lines_read(), result.as_ref().err().map(input::io_message));
        }
        if let Err(err) = result {
            if err.kind() == io::ErrorKind::BrokenPipe {
                return Err(err);
            }
            report.trouble(&format!("{}: {}", input.label, input::io_message(&err)), out)?;
        }
    }
    report.finish(out)
}

/// Scans one input. Problems that stop the input are `Err`; problems with
/// some of its lines are reported and counted as trouble.
fn scan_input(report: &mut Report<'_>, input: &mut input::Input, out: &mut Out) -> io::Result<()> {
    let mut source = Source::new(&input.label);
    if input.looks_binary()? {
        const SKIPPED: &str = "binary file (it contains NUL bytes); skipped";
        if let Some(html) = &mut report.html {
            html.problem(SKIPPED);
        }
        return report.trouble(&format!("{}: {SKIPPED}", source.label), out);
    }
    if input.is_empty()? {
        out.flush()?;
        eprintln!("errcat: {}: empty file", source.label);
        return Ok(());
    }
    let (catalog, options) = (report.catalog, report.options);
    let unmatched = unmatched_level(&options.unmatched);
    let envelope = input.choose_envelope(options.envelope.0.as_ref())?;
    let scan_options = ScanOptions {
        envelope,
        unmatched: (!options.unmatched.is_empty()).then_some(&unmatched as _),
        line_text: report.html.is_some(),
        details: options.json || report.html.is_some(),
    };
    let classifier = ChunkClassifier::new(catalog, scan_options);
    let result =
        pipeline::scan(&classifier, input, crate::args::worker_threads(options.threads), |delivery| match delivery {
            Delivery::Events(events) => report.events(&mut source, events, out),
            Delivery::CaughtUp => out.flush(),
        });
    report.end_of(&source, out)?;
    result
}

pub struct Source {
    pub label: String,
    /// The label, shared by every place recorded in the summary.
    file: std::rc::Rc<str>,
    invalid_utf8: u64,
    /// The parts of the workload it is of that are known (`--json` gives them).
    workload: Vec<(&'static str, String)>,
}

impl Source {
    pub fn new(label: &str) -> Source {
        Source { label: label.to_owned(), file: label.into(), invalid_utf8: 0, workload: Vec::new() }
    }

    /// An input of the workload `origin` (see [`crate::origin`]).
    pub fn of_workload(label: &str, origin: &crate::origin::Origin) -> Source {
        let parts = crate::origin::Part::ALL.into_iter();
        let workload = parts.filter_map(|part| Some((part.name(), origin.get(part)?.to_owned()))).collect();
        Source { workload, ..Source::new(label) }
    }
}

/// Prints the events of the inputs scanned and counts them for the summary
/// and the exit status (and the HTML report, with `--html`).
pub struct Report<'a> {
    pub catalog: &'a Catalog,
    pub options: &'a ScanArgs,
    summary: Summary,
    html: Option<HtmlReport>,
}

impl<'a> Report<'a> {
    pub fn new(catalog: &'a Catalog, options: &'a ScanArgs) -> Self {
        let html = options.html.as_ref().map(|_| HtmlReport::new(&options.unmatched));
        Report { catalog, options, summary: Summary::default(), html }
    }

    /// Reports a problem on stderr (after the output so far); the exit
    /// status will say there was trouble.
    pub fn trouble(&mut self, message: &str, out: &mut Out) -> io::Result<()> {
        out.flush()?;
        eprintln!("errcat: {message}");
        self.summary.trouble = true;
        Ok(())
    }

    /// Prints and counts what was found in some lines of `source`.
    pub fn events(&mut self, source: &mut Source, events: Vec<Event>, out: &mut Out) -> io::Result<()> {
        let (catalog, options, label, workload) =
            (self.catalog, self.options, source.label.as_str(), source.workload.as_slice());
        for event in events {
            match event {
                Event::Found(Found { line, found, line_text, details }) => {
                    let severity = catalog.entries()[found.index].record().severity_or_default();
                    if options
                        .min_severity
                        .as_ref()
                        .is_some_and(|least| severity_rank(&severity) > severity_rank(least))
                    {
                        continue;
                    }
                    record(&mut self.summary, found.index, Place { file: source.file.clone(), line });
                    if let (Some(html), Some(text)) = (&mut self.html, line_text) {
                        html.found(line, &text, &found, details.as_deref());
                    }
                    if !options.count {
                        let place = (label, line);
                        print_match(catalog, place, workload, &found, details.as_deref(), options.json, out)?;
                    }
                }
                Event::Note { line, note } => {
                    out.flush()?;
                    eprintln!("errcat: {label}:{line}: {note}");
                }
                Event::Unmatched { line, level, text, event } => {
                    self.summary.unmatched += 1;
                    if let Some(html) = &mut self.html {
                        html.unmatched(line, &level, &text, event.as_deref());
                    }
                    if !options.count {
                        let unmatched = Unmatched { line, level: &level, text: &text, event: event.as_deref() };
                        print_unmatched(catalog, label, workload, &unmatched, options.json, out)?;
                    }
                }
                Event::InvalidUtf8 { line } => {
                    if source.invalid_utf8 == 0 {
                        out.flush()?;
                        eprintln!("errcat: {label}:{line}: invalid UTF-8 (read with replacement characters)");
                    }
                    source.invalid_utf8 += 1;
                    self.summary.trouble = true;
                }
                Event::TooLong { line } => {
                    self.trouble(&format!("{label}:{line}: line longer than {} MiB; skipped", MAX_LINE >> 20), out)?;
                }
                _ => {}
            }
        }
        Ok(())
    }

    /// Reports what is told once per input (the count of invalid lines).
    pub fn end_of(&mut self, source: &Source, out: &mut Out) -> io::Result<()> {
        if source.invalid_utf8 > 1 {
            out.flush()?;
            eprintln!("errcat: {}: {} lines with invalid UTF-8 in all", source.label, source.invalid_utf8);
        }
        Ok(())
    }

    /// Prints the summary (not with `--json`) and gives the exit status.
    pub fn finish(mut self, out: &mut Out) -> io::Result<u8> {
        if !self.options.json {
            print_summary(self.catalog, &self.summary, self.options, out)?;
        }
        out.flush()?;
        if let (Some(html), Some(path)) = (&self.html, &self.options.html) {
            match html.write(self.catalog, path) {
                Ok(()) => eprintln!("errcat: report written to {}", path.display()),
                Err(err) => {
                    eprintln!("errcat: {}: cannot write the report: {}", path.display(), input::io_message(&err));
                    self.summary.trouble = true;
                }
            }
        }
        let summary = &self.summary;
        Ok(if summary.trouble {
            TROUBLE
        } else if summary.matched > 0 || summary.unmatched > 0 {
            FOUND
        } else {
            NOT_FOUND
        })
    }
}

fn record(summary: &mut Summary, index: usize, place: Place) {
    summary.matched += 1;
    summary
        .by_record
        .entry(index)
        .and_modify(|seen| {
            seen.count += 1;
            seen.last = place.clone();
        })
        .or_insert(Seen { count: 1, first: place.clone(), last: place });
}

type Workload<'a> = &'a [(&'static str, String)];

fn print_match(
    catalog: &Catalog,
    (file, line): (&str, u64),
    workload: Workload<'_>,
    found: &Match<'_>,
    details: Option<&Details>,
    json: bool,
    out: &mut Out,
) -> io::Result<()> {
    let entry = &catalog.entries()[found.index];
    if json {
        let mut object = error_catalog::match_object(catalog, found, details);
        object.insert("file".into(), json!(file));
        object.insert("line".into(), json!(line));
        object.extend(workload.iter().map(|(part, value)| ((*part).to_owned(), json!(value))));
        return out.line(&serde_json::Value::Object(object).to_string());
    }
    let fields: Vec<String> =
        entry.field_names().zip(&found.values).map(|(name, value)| format!("{name}={}", show_value(value))).collect();
    out.line(&format!("{file}:{line}: {}({})", out.bold(&entry.name), fields.join(", ")))
}

/// A line, or an event of several lines, that no record explains.
struct Unmatched<'e> {
    line: u64,
    level: &'e str,
    text: &'e str,
    event: Option<&'e EventParts>,
}

/// Prints an unmatched line: `FILE:LINE: unmatched LEVEL: TEXT`; an event
/// of several lines with its lines after it, indented (with `--json`, the
/// keys of [`event_object`] and `event_text`, the event's lines).
fn print_unmatched(
    catalog: &Catalog,
    file: &str,
    workload: Workload<'_>,
    unmatched: &Unmatched<'_>,
    json: bool,
    out: &mut Out,
) -> io::Result<()> {
    let Unmatched { line, level, text, event } = *unmatched;
    if json {
        let mut object = json!({ "file": file, "line": line, "unmatched": true, "level": level, "text": text });
        if let Some(object) = object.as_object_mut() {
            object.extend(workload.iter().map(|(part, value)| ((*part).to_owned(), json!(value))));
            if let Some(event) = event {
                object.extend(event_object(catalog, event));
                object.insert("event_text".into(), json!(event.lines));
            }
        }
        return out.line(&object.to_string());
    }
    let Some(event) = event else { return out.line(&format!("{file}:{line}: unmatched {level}: {text}")) };
    out.line(&format!("{file}:{line}: unmatched {level}: {text} (lines {}-{})", event.start_line, event.end_line))?;
    for line in event.lines.lines() {
        out.line(format!("    {line}").trim_end())?;
    }
    Ok(())
}

/// The level of a line when it is one of `levels` (`--unmatched`; `ERR`
/// also takes `ERROR`, ...): the envelope's (a JSON `level`, journald's
/// `PRIORITY`, syslog's PRI), shown as its tag, else the one in the
/// message's prefix, as written (`ERR`, `ERROR`).
pub fn unmatched_level(levels: &[String]) -> impl Fn(&LogLine<'_>) -> Option<String> + Sync + '_ {
    move |line: &LogLine<'_>| {
        let (level, written) = match line.envelope_level() {
            Some(level) => (level, level.tag().to_owned()),
            None => {
                let (level, span) = LogLevel::find_in(line.text())?;
                (level, line.text()[span].to_owned())
            }
        };
        levels.iter().any(|wanted| LogLevel::from_name(wanted) == Some(level)).then_some(written)
    }
}

fn print_fixes(catalog: &Catalog, found: impl Iterator<Item = usize>, out: &mut Out) -> io::Result<()> {
    for index in found {
        let entry = &catalog.entries()[index];
        let record = entry.record();
        if record.solutions.is_empty() {
            continue;
        }
        out.line("")?;
        out.line(&format!("{} {}", out.bold(&entry.name), out.dim(&format!("(errcat show {})", record.id))))?;
        for solution in record.solutions.iter() {
            let mut first = true;
            for line in crate::style::wrap(solution, out.width.saturating_sub(4).max(20)) {
                out.line(&format!("{}{line}", if first { "  - " } else { "    " }))?;
                first = false;
            }
        }
    }
    Ok(())
}

fn print_summary(catalog: &Catalog, summary: &Summary, options: &ScanArgs, out: &mut Out) -> io::Result<()> {
    if !options.count && (summary.matched > 0 || summary.unmatched > 0) {
        out.line("")?;
    }
    if summary.by_record.is_empty() {
        out.line("no known error found")?;
    } else {
        let mut rows: Vec<(&usize, &Seen)> = summary.by_record.iter().collect();
        let rank = |index: usize| severity_rank(&catalog.entries()[index].record().severity_or_default());
        // The most severe first, then the most frequent.
        rows.sort_by(|a, b| rank(*a.0).cmp(&rank(*b.0)).then(b.1.count.cmp(&a.1.count)).then(a.0.cmp(b.0)));
        let longest = rows.iter().map(|(i, _)| catalog.entries()[**i].name.chars().count()).max().unwrap_or(4);
        // Names are cut to fit a terminal only; piped, they are whole.
        let name_width = if out.terminal_columns.is_some() { longest.clamp(4, 48) } else { longest.max(4) };
        let place = |p: &Place| format!("{}:{}", p.file, p.line);
        let first_width = rows.iter().map(|(_, seen)| place(&seen.first).len()).max().unwrap_or(5).max(5);
        let header =
            format!("{:>6}  {:<8}  {:<name_width$}  {:<first_width$}  last", "count", "severity", "error", "first");
        out.line(&out.bold(&header))?;
        for (index, seen) in &rows {
            let entry = &catalog.entries()[**index];
            let severity = entry.record().severity_or_default();
            let padding = " ".repeat(8usize.saturating_sub(severity.as_str().len()));
            out.line(&format!(
                "{:>6}  {}{padding}  {:<name_width$}  {:<first_width$}  {}",
                seen.count,
                out.severity(&severity),
                truncate(&entry.name, name_width),
                place(&seen.first),
                place(&seen.last),
            ))?;
        }
        if !options.count {
            print_fixes(catalog, rows.iter().map(|(index, _)| **index), out)?;
        }
    }
    if summary.matched > 0 {
        out.line(&out.dim(&severity_counts(catalog, summary)))?;
    }
    let mut total = format!("{} matching line(s), {} distinct error(s)", summary.matched, summary.by_record.len());
    if !options.unmatched.is_empty() {
        total.push_str(&format!(", {} unmatched {} line(s)", summary.unmatched, options.unmatched.join("/")));
    }
    out.line(&out.dim(&total))
}

/// The matching lines by the severity of their records: errors (fatal and
/// critical included) and warnings apart from info, debug and trace.
fn severity_counts(catalog: &Catalog, summary: &Summary) -> String {
    let mut counts = [0u64; 3];
    for (index, seen) in &summary.by_record {
        let rank = severity_rank(&catalog.entries()[*index].record().severity_or_default());
        counts[usize::from(rank.saturating_sub(1).min(2))] += seen.count;
    }
    format!("{} error line(s), {} warning line(s), {} info/debug line(s)", counts[0], counts[1], counts[2])
}
