//! `errcat list` and `errcat show`: the catalog's records.

use std::io;

use error_catalog::typo_distance;
use error_catalog::{edit_distance, Catalog};
use serde_json::json;

use crate::exit::{FOUND, NOT_FOUND};
use crate::explain::write_record_sections;
use crate::severity::asked as asked_severity;
use crate::style::{truncate, Out};

/// The `list` options that choose records.
pub struct Filters {
    pub repo: Option<String>,
    pub tag: Option<String>,
    pub severity: Option<String>,
}

impl Filters {
    /// The indexes of the records chosen, in catalog order (`list`, `rules`).
    pub fn chosen(&self, catalog: &Catalog) -> Vec<usize> {
        let severity = self.severity.as_deref().map(asked_severity);
        (0..catalog.entries().len())
            .filter(|&index| {
                let entry = &catalog.entries()[index];
                let record = entry.record();
                self.repo.as_deref().is_none_or(|r| record.repo == r)
                    && self.tag.as_deref().is_none_or(|t| record.tags.iter().any(|x| x == t))
                    && severity.as_ref().is_none_or(|s| &record.severity_or_default() == s)
            })
            .collect()
    }

    /// Why no record was chosen, to tell the user: the filter that no record
    /// matches (with the values the catalog has), or that the filters match
    /// no record together.
    pub fn why_none(&self, catalog: &Catalog) -> String {
        let records = || catalog.entries().iter().map(|entry| entry.record());
        let known = |values: Vec<String>| {
            let values: std::collections::BTreeSet<String> = values.into_iter().collect();
            if values.is_empty() {
                "none".to_owned()
            } else {
                values.into_iter().collect::<Vec<_>>().join(", ")
            }
        };
        if let Some(severity) = &self.severity {
            let asked = asked_severity(severity);
            if !records().any(|record| record.severity_or_default() == asked) {
                let have = known(records().map(|record| record.severity_or_default().as_str().to_owned()).collect());
                return format!("no record has the severity {severity:?} (the catalog's: {have})");
            }
        }
        if let Some(repo) = &self.repo {
            if !records().any(|record| &record.repo == repo) {
                let have = known(records().map(|record| record.repo.to_string()).collect());
                return format!("no record is of the repository {repo:?} (the catalog's: {have})");
            }
        }
        if let Some(tag) = &self.tag {
            if !records().any(|record| record.tags.iter().any(|t| t == tag)) {
                return format!("no record has the tag {tag:?} (`errcat list` shows each record's tags with --json)");
            }
        }
        "no record has the severity, repository and tag asked for together".to_owned()
    }
}

pub fn list(catalog: &Catalog, filters: &Filters, json: bool, out: &mut Out) -> io::Result<u8> {
    let rows = filters.chosen(catalog);
    if json {
        for &index in &rows {
            let entry = &catalog.entries()[index];
            let record = entry.record();
            let object = json!({
                "id": record.id,
                "slug": record.slug,
                "name": entry.name,
                "severity": record.severity_or_default().as_str(),
                "repo": record.repo,
                "errorMessage": record.error_message,
                "messagePattern": record.message_pattern,
                "tags": record.tags,
                // Which dataset (of several) the record is of, and its file.
                "dataset": catalog.dataset(index),
                "file": catalog.origin(index).map(|origin| origin.path.display().to_string()),
            });
            out.line(&object.to_string())?;
        }
        return Ok(if rows.is_empty() { NOT_FOUND } else { FOUND });
    }
    if rows.is_empty() {
        out.line("no records")?;
        out.flush()?;
        eprintln!("errcat: {}", filters.why_none(catalog));
        return Ok(NOT_FOUND);
    }
    // Names are never cut: they are what `errcat show` takes.
    let name_width = rows.iter().map(|&i| catalog.entries()[i].name.len()).max().unwrap_or(4).max(4);
    // Messages are cut to a terminal's width only: piped output is whole.
    let message_width =
        out.terminal_columns.map(|columns| columns.saturating_sub(name_width + 2 + 16 + 2 + 8 + 2).max(20));
    out.line(&out.bold(&format!("{:<name_width$}  {:<16}  {:<8}  message", "name", "id", "severity")))?;
    for &index in &rows {
        let entry = &catalog.entries()[index];
        let record = entry.record();
        let severity = record.severity_or_default();
        let padding = " ".repeat(8usize.saturating_sub(severity.as_str().len()));
        let message = if record.error_message.is_empty() {
            record.message_pattern.as_deref().unwrap_or_default()
        } else {
            &record.error_message
        };
        let message = match message_width {
            Some(width) => truncate(message, width),
            None => message.to_owned(),
        };
        out.line(&format!(
            "{:<name_width$}  {:<16}  {}{padding}  {message}",
            entry.name,
            record.id,
            out.severity(&severity),
        ))?;
    }
    out.line(&out.dim(&format!("{} record(s)", rows.len())))?;
    Ok(FOUND)
}

pub fn show(catalog: &Catalog, key: &str, json: bool, out: &mut Out) -> io::Result<u8> {
    let index = catalog.by_id(key).or_else(|| catalog.by_slug(key)).or_else(|| catalog.by_name(key));
    let Some(index) = index else {
        let suggested = suggestions(catalog, key);
        eprintln!("errcat: no record has the id, slug or name {key:?}; {suggested} (`errcat list` shows them all)");
        return Ok(NOT_FOUND);
    };
    if json {
        out.line(&record_json(catalog, index).to_string())?;
        return Ok(FOUND);
    }
    let entry = &catalog.entries()[index];
    let record = entry.record();
    out.line(&format!("{} ({})", out.bold(&entry.name), out.severity(&record.severity_or_default())))?;
    let facts = [
        ("id", Some(record.id.to_string())),
        ("slug", Some(record.slug.to_string())),
        ("repo", Some(record.repo.to_string())),
        ("dataset", catalog.dataset(index).map(str::to_owned)),
        ("file", catalog.origin(index).map(|origin| format!("{}:{}", origin.path.display(), origin.line))),
        ("message", Some(record.error_message.to_string())),
        ("pattern", Some(entry.template.regex.to_string())),
        ("dataset pattern", record.message_pattern.as_deref().map(str::to_owned)),
        ("fields", Some(fields(entry))),
        ("error type", record.error_type.as_ref().map(ToString::to_string)),
        ("error code", record.error_code.as_deref().map(str::to_owned)),
        ("error class", record.error_class.as_deref().map(str::to_owned)),
        ("HTTP status", record.http_status.map(|s| s.to_string())),
        ("tags", Some(record.tags.join(", "))),
        (
            "analyzed",
            entry
                .record()
                .analyzed_sha
                .as_deref()
                .map(|sha| format!("{sha} {}", record.analyzed_at.as_deref().unwrap_or_default())),
        ),
    ];
    for (name, value) in facts {
        if let Some(value) = value.filter(|v| !v.is_empty()) {
            out.line(&format!("{:<16} {value}", format!("{name}:")))?;
        }
    }
    write_record_sections(entry, out)?;
    let code = [
        ("Source code", record.source_code.as_deref()),
        ("Example fix", record.example_fix.as_deref()),
        ("Validation code", record.validation_code.as_deref()),
        ("Type guard", record.type_guard.as_deref()),
        ("Try/catch pattern", record.try_catch_pattern.as_deref()),
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

/// The record at `index` as `show --json` gives it: the dataset's fields
/// under the dataset's names (`severity` with its default filled in), with
/// the variant name, the compiled pattern and the typed fields.
fn record_json(catalog: &Catalog, index: usize) -> serde_json::Value {
    let entry = &catalog.entries()[index];
    let record = entry.record();
    let fields: Vec<serde_json::Value> = entry
        .template
        .fields
        .iter()
        .map(|field| json!({ "name": field.name, "kind": format!("{:?}", field.kind).to_lowercase() }))
        .collect();
    json!({
        "id": record.id,
        "slug": record.slug,
        "name": entry.name,
        "repo": record.repo,
        "dataset": catalog.dataset(index),
        "severity": record.severity_or_default().as_str(),
        "errorMessage": record.error_message,
        "messagePattern": record.message_pattern,
        "pattern": entry.template.regex.to_string(),
        "fields": fields,
        "errorType": record.error_type.as_ref().map(ToString::to_string),
        "errorCode": record.error_code,
        "errorClass": record.error_class,
        "httpStatus": record.http_status,
        "tags": record.tags,
        "documentation": record.documentation,
        "triggerScenarios": record.trigger_scenarios,
        "commonSituations": record.common_situations,
        "solutions": record.solutions,
        "preventionTips": record.prevention_tips,
        "handlingStrategy": record.handling_strategy.as_ref().map(ToString::to_string),
        "filePath": record.file_path,
        "lineNumber": record.line_number,
        "githubUrl": record.github_url,
        "sourceCode": record.source_code,
        "sourceCodeStart": record.source_code_start,
        "sourceCodeEnd": record.source_code_end,
        "exampleFix": record.example_fix,
        "validationCode": record.validation_code,
        "typeGuard": record.type_guard,
        "tryCatchPattern": record.try_catch_pattern,
        "analyzedSha": record.analyzed_sha,
        "analyzedAt": record.analyzed_at,
        "backgroundTag": record.background_tag,
        "contentChangedAt": record.content_changed_at,
        "schemaVersion": record.schema_version,
        "datasetVersion": record.dataset_version,
    })
}

/// What to suggest for an unknown key: the ids, slugs or names close
/// enough to it to be a typo (by [`typo_distance`], as `#[derive(Catalog)]`
/// suggests the nearest id or slug; here ignoring case and `-`/`_`), else
/// the names that contain it, else the three nearest names. At most three,
/// closest first.
fn suggestions(catalog: &Catalog, wanted: &str) -> String {
    let normal = |key: &str| key.chars().filter(|c| !matches!(c, '-' | '_')).flat_map(char::to_lowercase).collect();
    let wanted: String = normal(wanted);
    // Each entry's closest key, if close enough.
    let mut nearest: Vec<(usize, &str)> = catalog
        .entries()
        .iter()
        .filter_map(|entry| {
            [&entry.record().id, &entry.record().slug, &entry.name]
                .into_iter()
                .filter_map(|key| Some((typo_distance(&wanted, &normal(key))?, key.as_ref())))
                .min()
        })
        .collect();
    nearest.sort();
    let typos: Vec<&str> = nearest.iter().map(|(_, key)| *key).collect();
    if !typos.is_empty() {
        return format!("did you mean {}?", typos[..typos.len().min(3)].join(" or "));
    }
    let containing: Vec<&str> = catalog
        .entries()
        .iter()
        .filter(|entry| [&entry.record().slug, &entry.name].iter().any(|key| normal(key).contains(&wanted)))
        .map(|entry| entry.name.as_ref())
        .take(3)
        .collect();
    if !containing.is_empty() {
        return format!("names containing it: {}", containing.join(", "));
    }
    let mut by_name: Vec<(usize, &str)> = catalog
        .entries()
        .iter()
        .map(|entry| (edit_distance(&wanted, &normal(&entry.name)), entry.name.as_ref()))
        .collect();
    by_name.sort();
    let names: Vec<&str> = by_name.into_iter().take(3).map(|(_, name)| name).collect();
    format!("the nearest names: {}", names.join(", "))
}
