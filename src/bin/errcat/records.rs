//! `errcat list` and `errcat show`: the catalog's records.

use std::io;

use error_catalog::{Catalog, Severity};

use crate::explain::write_record_sections;
use crate::style::{truncate, Out};
use crate::{FOUND, NOT_FOUND};

pub fn list(
    catalog: &Catalog,
    repo: &Option<String>,
    tag: &Option<String>,
    severity: &Option<String>,
    out: &mut Out,
) -> io::Result<u8> {
    let severity = severity.as_deref().map(Severity::from_text);
    let rows: Vec<_> = catalog
        .entries()
        .iter()
        .filter(|e| repo.as_deref().is_none_or(|r| e.record.repo == r))
        .filter(|e| tag.as_deref().is_none_or(|t| e.record.tags.iter().any(|x| x == t)))
        .filter(|e| severity.as_ref().is_none_or(|s| &e.record.severity_or_default() == s))
        .collect();
    if rows.is_empty() {
        out.line("no records")?;
        return Ok(NOT_FOUND);
    }
    // Names are never cut: they are what `errcat show` takes.
    let name_width = rows.iter().map(|e| e.name.len()).max().unwrap_or(4).max(4);
    let message_width = out.width.saturating_sub(name_width + 16 + 8 + 6).max(20);
    out.line(&out.bold(&format!("{:<name_width$}  {:<16}  {:<8}  message", "name", "id", "severity")))?;
    for entry in rows.iter() {
        let severity = entry.record.severity_or_default();
        let padding = " ".repeat(8usize.saturating_sub(severity.as_str().len()));
        let message = if entry.record.error_message.is_empty() {
            entry.record.message_pattern.as_deref().unwrap_or_default()
        } else {
            &entry.record.error_message
        };
        out.line(&format!(
            "{:<name_width$}  {:<16}  {}{padding}  {}",
            entry.name,
            entry.record.id,
            out.severity(&severity),
            truncate(message, message_width)
        ))?;
    }
    out.line(&out.dim(&format!("{} record(s)", rows.len())))?;
    Ok(FOUND)
}

pub fn show(catalog: &Catalog, key: &str, out: &mut Out) -> io::Result<u8> {
    let index = catalog.by_id(key).or_else(|| catalog.by_slug(key)).or_else(|| catalog.by_name(key));
    let Some(index) = index else {
        eprintln!("errcat: no record has the id, slug or name {key:?}; `errcat list` shows them all");
        return Ok(NOT_FOUND);
    };
    let entry = &catalog.entries()[index];
    out.line(&format!("{} ({})", out.bold(&entry.name), out.severity(&entry.record.severity_or_default())))?;
    let facts = [
        ("id", Some(entry.record.id.to_string())),
        ("slug", Some(entry.record.slug.to_string())),
        ("repo", Some(entry.record.repo.to_string())),
        ("message", Some(entry.record.error_message.to_string())),
        ("pattern", Some(entry.template.regex.to_string())),
        ("dataset pattern", entry.record.message_pattern.as_deref().map(str::to_owned)),
        ("fields", Some(fields(entry))),
        ("error type", entry.record.error_type.as_ref().map(ToString::to_string)),
        ("error code", entry.record.error_code.as_deref().map(str::to_owned)),
        ("error class", entry.record.error_class.as_deref().map(str::to_owned)),
        ("HTTP status", entry.record.http_status.map(|s| s.to_string())),
        ("tags", Some(entry.record.tags.join(", "))),
        (
            "analyzed",
            entry
                .record
                .analyzed_sha
                .as_deref()
                .map(|sha| format!("{sha} {}", entry.record.analyzed_at.as_deref().unwrap_or_default())),
        ),
    ];
    for (name, value) in facts {
        if let Some(value) = value.filter(|v| !v.is_empty()) {
            out.line(&format!("{:<16} {value}", format!("{name}:")))?;
        }
    }
    write_record_sections(entry, out)?;
    let code = [
        ("Source code", entry.record.source_code.as_deref()),
        ("Example fix", entry.record.example_fix.as_deref()),
        ("Validation code", entry.record.validation_code.as_deref()),
        ("Type guard", entry.record.type_guard.as_deref()),
        ("Try/catch pattern", entry.record.try_catch_pattern.as_deref()),
    ];
    for (title, text) in code {
        if let Some(text) = text.filter(|t| !t.trim().is_empty()) {
            out.line("")?;
            out.line(&out.bold(title))?;
            for line in text.lines() {
                out.line(&format!("    {line}"))?;
            }
        }
    }
    Ok(FOUND)
}

fn fields(entry: &error_catalog::Entry) -> String {
    let fields: Vec<String> =
        entry.template.fields.iter().map(|f| format!("{}: {:?}", f.name, f.kind).to_lowercase()).collect();
    fields.join(", ")
}
