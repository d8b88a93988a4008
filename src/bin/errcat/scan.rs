//! `errcat scan`: classify every line of log files.

use std::collections::BTreeMap;
use std::io;
use std::path::PathBuf;
use std::sync::OnceLock;

use error_catalog::{Catalog, Match, Value};
use regex::Regex;
use serde_json::{json, Map};

use crate::input::{self, MAX_LINE};
use crate::pipeline::{self, Event};
use crate::report::Report;
use crate::style::{truncate, Out};
use crate::{show_value, FOUND, NOT_FOUND, TROUBLE};

pub struct Options {
    pub json: bool,
    pub count: bool,
    /// Levels (`ERR`, `WRN`, ...) whose unmatched lines are listed.
    pub unmatched_levels: Vec<String>,
    /// Where to write the HTML report, if one is wanted.
    pub html: Option<PathBuf>,
    /// Worker threads.
    pub threads: usize,
}

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

pub fn run(catalog: &Catalog, files: &[PathBuf], options: &Options, out: &mut Out) -> io::Result<u8> {
    let stdin = [PathBuf::from("-")];
    let files = if files.is_empty() { &stdin[..] } else { files };
    let mut summary = Summary::default();
    let mut report = options.html.as_ref().map(|_| Report::new(&options.unmatched_levels));
    for path in files {
        let mut input = match input::open(path) {
            Ok(input) => input,
            Err(message) => {
                out.flush()?;
                eprintln!("errcat: {message}");
                summary.trouble = true;
                if let Some(report) = &mut report {
                    report.unreadable_input(&path.display().to_string(), message);
                }
                continue;
            }
        };
        if let Some(report) = &mut report {
            report.begin_input(&input.label);
        }
        let result = scan_input(catalog, &mut input, options, out, &mut summary, report.as_mut());
        input.finish();
        let problem = result.as_ref().err().map(input::io_message);
        if let Some(report) = &mut report {
            report.end_input(input.lines_read(), problem);
        }
        if let Err(err) = result {
            if err.kind() == io::ErrorKind::BrokenPipe {
                return Err(err);
            }
            out.flush()?;
            eprintln!("errcat: {}: {}", input.label, input::io_message(&err));
            summary.trouble = true;
        }
    }
    if !options.json {
        print_summary(catalog, &summary, options, out)?;
    }
    if let (Some(report), Some(path)) = (&report, &options.html) {
        out.flush()?;
        match report.write(catalog, path) {
            Ok(()) => eprintln!("errcat: report written to {}", path.display()),
            Err(err) => {
                eprintln!("errcat: {}: cannot write the report: {}", path.display(), input::io_message(&err));
                summary.trouble = true;
            }
        }
    }
    out.flush()?;
    Ok(if summary.trouble {
        TROUBLE
    } else if summary.matched > 0 || summary.unmatched > 0 {
        FOUND
    } else {
        NOT_FOUND
    })
}

/// Scans one input. Problems that stop the input are `Err`; problems with
/// some of its lines are reported and counted as trouble.
fn scan_input(
    catalog: &Catalog,
    input: &mut input::Input,
    options: &Options,
    out: &mut Out,
    summary: &mut Summary,
    mut report: Option<&mut Report>,
) -> io::Result<()> {
    let label = input.label.clone();
    let file: std::rc::Rc<str> = label.as_str().into();
    if input.looks_binary()? {
        out.flush()?;
        eprintln!("errcat: {label}: binary file (it contains NUL bytes); skipped");
        summary.trouble = true;
        if let Some(report) = report {
            report.problem("binary file (it contains NUL bytes); skipped");
        }
        return Ok(());
    }
    if input.is_empty()? {
        out.flush()?;
        eprintln!("errcat: {label}: empty file");
        return Ok(());
    }
    let levels = &options.unmatched_levels;
    let unmatched = |text: &str| level_of(text).filter(|level| wanted(levels, level)).map(str::to_owned);
    let wanted =
        pipeline::Wanted { unmatched: (!levels.is_empty()).then_some(&unmatched as _), line_text: report.is_some() };
    let mut invalid_utf8 = 0u64;
    let result = pipeline::scan(catalog, input, &wanted, options.threads, |events| {
        for event in events {
            match event {
                Event::Found { line, found, text } => {
                    record(summary, found.index, Place { file: file.clone(), line });
                    if let (Some(report), Some(text)) = (report.as_deref_mut(), text) {
                        report.found(line, &text, &found);
                    }
                    if !options.count {
                        print_match(catalog, &label, line, &found, options.json, out)?;
                    }
                }
                Event::Unmatched { line, level, text } => {
                    summary.unmatched += 1;
                    if let Some(report) = report.as_deref_mut() {
                        report.unmatched(line, &level, &text);
                    }
                    if !options.count {
                        print_unmatched(&label, line, &level, &text, options.json, out)?;
                    }
                }
                Event::InvalidUtf8 { line } => {
                    if invalid_utf8 == 0 {
                        out.flush()?;
                        eprintln!("errcat: {label}:{line}: invalid UTF-8 (read with replacement characters)");
                    }
                    invalid_utf8 += 1;
                    summary.trouble = true;
                }
                Event::TooLong { line } => {
                    out.flush()?;
                    eprintln!("errcat: {label}:{line}: line longer than {} MiB; skipped", MAX_LINE >> 20);
                    summary.trouble = true;
                }
            }
        }
        Ok(())
    });
    if invalid_utf8 > 1 {
        out.flush()?;
        eprintln!("errcat: {label}: {invalid_utf8} lines with invalid UTF-8 in all");
    }
    result
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

fn json_value(value: &Value<'_>) -> serde_json::Value {
    match value {
        Value::Int(v) => json!(v),
        Value::Float(v) => json!(v),
        Value::Bool(v) => json!(v),
        Value::Str(v) => json!(v),
    }
}

fn print_match(
    catalog: &Catalog,
    file: &str,
    line: u64,
    found: &Match<'_>,
    json: bool,
    out: &mut Out,
) -> io::Result<()> {
    let entry = &catalog.entries()[found.index];
    let names: Vec<&str> = entry.field_names().collect();
    if json {
        let fields: Map<String, serde_json::Value> =
            names.iter().zip(&found.values).map(|(name, value)| (name.to_string(), json_value(value))).collect();
        let object = json!({
            "file": file,
            "line": line,
            "id": entry.id,
            "slug": entry.slug,
            "name": entry.name,
            "severity": entry.severity_or_default().as_str(),
            "span": [found.span.start, found.span.end],
            "fields": fields,
            "args": args(entry, found),
        });
        return out.line(&object.to_string());
    }
    let fields: Vec<String> =
        names.iter().zip(&found.values).map(|(name, value)| format!("{name}={}", show_value(value))).collect();
    out.line(&format!("{file}:{line}: {}({})", out.bold(&entry.name), fields.join(", ")))
}

/// The captured values in placeholder order (a value rendered twice appears twice).
fn args(entry: &error_catalog::Metadata, found: &Match<'_>) -> Vec<serde_json::Value> {
    entry
        .template
        .pieces
        .iter()
        .filter_map(|piece| match piece {
            error_catalog::Piece::Value { field, .. } => Some(json_value(&found.values[usize::from(*field)])),
            error_catalog::Piece::Literal(_) => None,
        })
        .collect()
}

fn print_unmatched(file: &str, line: u64, level: &str, text: &str, json: bool, out: &mut Out) -> io::Result<()> {
    if json {
        let object = json!({ "file": file, "line": line, "unmatched": true, "level": level, "text": text });
        return out.line(&object.to_string());
    }
    out.line(&format!("{file}:{line}: unmatched {level}: {text}"))
}

/// The level of a log line: `[ERR]`-style tags or a bare `ERROR`/`WARN` word.
fn level_of(line: &str) -> Option<&str> {
    static LEVEL: OnceLock<Regex> = OnceLock::new();
    let level = LEVEL.get_or_init(|| {
        Regex::new(r"\[(TRC|DBG|INF|WRN|ERR|FTL|SYS)\]|\b(TRACE|DEBUG|INFO|NOTICE|WARN|WARNING|ERROR|FATAL)\b")
            .expect("a valid regex")
    });
    let captures = level.captures(line)?;
    captures.get(1).or_else(|| captures.get(2)).map(|m| m.as_str())
}

/// Whether `level` is one of the wanted ones (`ERR` also takes `ERROR`, ...).
fn wanted(levels: &[String], level: &str) -> bool {
    let canonical = |l: &str| match l.to_ascii_uppercase().as_str() {
        "ERROR" => "ERR".to_owned(),
        "WARN" | "WARNING" => "WRN".to_owned(),
        "INFO" | "NOTICE" => "INF".to_owned(),
        "DEBUG" => "DBG".to_owned(),
        "TRACE" => "TRC".to_owned(),
        "FATAL" => "FTL".to_owned(),
        other => other.to_owned(),
    };
    levels.iter().any(|l| canonical(l) == canonical(level))
}

/// The documented fix of each error found.
fn print_fixes(catalog: &Catalog, found: impl Iterator<Item = usize>, out: &mut Out) -> io::Result<()> {
    for index in found {
        let entry = &catalog.entries()[index];
        if entry.solutions.is_empty() {
            continue;
        }
        out.line("")?;
        out.line(&format!("{} {}", out.bold(&entry.name), out.dim(&format!("(errcat show {})", entry.id))))?;
        for solution in entry.solutions.iter() {
            let mut first = true;
            for line in crate::style::wrap(solution, out.width.saturating_sub(4).max(20)) {
                out.line(&format!("{}{line}", if first { "  - " } else { "    " }))?;
                first = false;
            }
        }
    }
    Ok(())
}

fn print_summary(catalog: &Catalog, summary: &Summary, options: &Options, out: &mut Out) -> io::Result<()> {
    if !options.count && (summary.matched > 0 || summary.unmatched > 0) {
        out.line("")?;
    }
    if summary.by_record.is_empty() {
        out.line("no known error found")?;
    } else {
        let mut rows: Vec<(&usize, &Seen)> = summary.by_record.iter().collect();
        rows.sort_by(|a, b| b.1.count.cmp(&a.1.count).then(a.0.cmp(b.0)));
        let name_width = rows.iter().map(|(i, _)| catalog.entries()[**i].name.len()).max().unwrap_or(4).clamp(4, 48);
        let place = |p: &Place| format!("{}:{}", p.file, p.line);
        let first_width = rows.iter().map(|(_, seen)| place(&seen.first).len()).max().unwrap_or(5).max(5);
        let header =
            format!("{:>6}  {:<8}  {:<name_width$}  {:<first_width$}  last", "count", "severity", "error", "first");
        out.line(&out.bold(&header))?;
        for (index, seen) in &rows {
            let entry = &catalog.entries()[**index];
            let severity = entry.severity_or_default();
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
    let mut total = format!("{} matching line(s), {} distinct error(s)", summary.matched, summary.by_record.len());
    if !options.unmatched_levels.is_empty() {
        total.push_str(&format!(", {} unmatched {} line(s)", summary.unmatched, options.unmatched_levels.join("/")));
    }
    out.line(&out.dim(&total))
}
