//! `errcat explain`: what a message means and how to fix it.

use std::io::{self, BufRead};

use error_catalog::{Catalog, Entry, Match};

use crate::exit::{FOUND, NOT_FOUND};
use crate::style::show_value;
use crate::style::Out;

pub fn run(catalog: &Catalog, messages: Vec<String>, out: &mut Out) -> io::Result<u8> {
    let mut explained = 0usize;
    let mut any_match = false;
    let mut explain_one = |message: &str, out: &mut Out| -> io::Result<()> {
        if explained > 0 {
            out.line("")?;
        }
        explained += 1;
        match catalog.find(message) {
            Some(found) => {
                any_match = true;
                explain(&catalog.entries()[found.index], &found, out)?;
            }
            None => out.line(&format!("no known error matches: {message}"))?,
        }
        // Lines may come from a live log (`tail -f log | errcat explain`):
        // each explanation is shown as soon as its line has arrived.
        out.flush()
    };
    if messages.is_empty() {
        let mut stdin = io::stdin().lock();
        let mut line = Vec::new();
        while stdin.read_until(b'\n', &mut line)? > 0 {
            let text = line.strip_suffix(b"\n").unwrap_or(&line);
            let text = text.strip_suffix(b"\r").unwrap_or(text);
            explain_one(&String::from_utf8_lossy(text), out)?;
            line.clear();
        }
        if explained == 0 {
            eprintln!(
                "errcat: nothing to explain: standard input is empty (give messages as arguments or pipe log lines in)"
            );
        }
    } else {
        for message in &messages {
            explain_one(message, out)?;
        }
    }
    Ok(if any_match { FOUND } else { NOT_FOUND })
}

fn explain(entry: &Entry, found: &Match<'_>, out: &mut Out) -> io::Result<()> {
    let severity = entry.record().severity_or_default();
    out.line(&format!("{} ({})", out.bold(&entry.name), out.severity(&severity)))?;
    out.line(&out.dim(&format!("id {} · slug {} · {}", entry.record().id, entry.record().slug, entry.record().repo)))?;
    out.line(&format!("message: {}", entry.record().error_message))?;
    if !found.values.is_empty() {
        section(out, "Fields")?;
        let width = entry.field_names().map(str::len).max().unwrap_or(0);
        for (name, value) in entry.field_names().zip(&found.values) {
            out.line(&format!("  {name:<width$} = {}", show_value(value)))?;
        }
    }
    write_record_sections(entry, out)
}

fn section(out: &mut Out, title: &str) -> io::Result<()> {
    out.line("")?;
    out.line(&out.bold(title))
}

fn prose(out: &mut Out, title: &str, text: Option<&str>) -> io::Result<()> {
    match text.filter(|t| !t.trim().is_empty()) {
        Some(text) => {
            section(out, title)?;
            out.wrapped("  ", text)
        }
        None => Ok(()),
    }
}

fn bullets(out: &mut Out, title: &str, items: &[error_catalog::Text]) -> io::Result<()> {
    if items.is_empty() {
        return Ok(());
    }
    section(out, title)?;
    for item in items {
        let mut first = true;
        for line in crate::style::wrap(item, out.width.saturating_sub(4).max(20)) {
            out.line(&format!("{}{line}", if first { "  - " } else { "    " }))?;
            first = false;
        }
    }
    Ok(())
}

/// The documentation, causes, fix and source of a record: what `explain`
/// shows after the captured fields, and `show` after the record's facts.
pub fn write_record_sections(entry: &Entry, out: &mut Out) -> io::Result<()> {
    prose(out, "Documentation", Some(&entry.record().documentation))?;
    prose(out, "Trigger scenarios", entry.record().trigger_scenarios.as_deref())?;
    prose(out, "Common situations", entry.record().common_situations.as_deref())?;
    bullets(out, "Solutions", &entry.record().solutions)?;
    bullets(out, "Prevention tips", &entry.record().prevention_tips)?;
    if let Some(strategy) = &entry.record().handling_strategy {
        section(out, "Handling strategy")?;
        out.line(&format!("  {strategy}"))?;
    }
    let place = match entry.record().line_number {
        Some(line) => format!("{}:{line}", entry.record().file_path),
        None => entry.record().file_path.to_string(),
    };
    if entry.record().github_url.is_some() || !place.is_empty() {
        section(out, "Source")?;
        if !place.is_empty() {
            out.line(&format!("  {place}"))?;
        }
        if let Some(url) = &entry.record().github_url {
            out.line(&format!("  {url}"))?;
        }
    }
    Ok(())
}
