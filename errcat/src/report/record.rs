//! What the report shows of a catalog record and of a match, copied out of
//! the runtime's types. This is the report's only use of the record and
//! template types of `error_catalog`: the rest of the report works on these
//! plain values.

use std::borrow::Cow;

use error_catalog::{Catalog, Match, Piece, Value};

pub struct RecordView {
    pub name: String,
    pub id: String,
    /// `error`, `warning`, ... (the catalog's default when the record has none).
    pub severity: String,
    /// The message, with a field's name where a value goes.
    pub template: Vec<TemplatePart>,
    pub field_names: Vec<String>,
    pub documentation: String,
    /// Titled paragraphs: trigger scenarios, common situations.
    pub causes: Vec<(&'static str, String)>,
    pub solutions: Vec<String>,
    pub prevention: Vec<String>,
    /// `server/mqtt.go:3435`.
    pub source_file: String,
    /// The record's link, as written (it may be anything: see `html::link`).
    pub source_url: Option<String>,
}

pub enum TemplatePart {
    Literal(String),
    Field(String),
}

impl RecordView {
    pub fn new(catalog: &Catalog, index: usize) -> RecordView {
        let entry = &catalog.entries()[index];
        let record = entry.record();
        let field_names: Vec<String> = entry.field_names().map(str::to_owned).collect();
        let mut template = Vec::new();
        for piece in entry.template.pieces.iter() {
            match piece {
                Piece::Literal(text) => template.push(TemplatePart::Literal(text.to_string())),
                Piece::Value { field, .. } => {
                    let field = usize::from(*field);
                    let name = field_names.get(field).cloned().unwrap_or_else(|| format!("arg{field}"));
                    template.push(TemplatePart::Field(name));
                }
                // Only literals and placeholders are shown.
                _ => {}
            }
        }
        let causes =
            [("Trigger scenarios", &record.trigger_scenarios), ("Common situations", &record.common_situations)]
                .into_iter()
                .filter_map(|(title, text)| Some((title, text.as_deref()?.to_owned())))
                .filter(|(_, text)| !text.trim().is_empty())
                .collect();
        RecordView {
            name: entry.name.to_string(),
            id: record.id.to_string(),
            severity: record.severity_or_default().as_str().to_owned(),
            template,
            field_names,
            documentation: record.documentation.to_string(),
            causes,
            solutions: record.solutions.iter().map(ToString::to_string).collect(),
            prevention: record.prevention_tips.iter().map(ToString::to_string).collect(),
            source_file: match record.line_number {
                Some(line) => format!("{}:{line}", record.file_path),
                None => record.file_path.to_string(),
            },
            source_url: record.github_url.as_deref().map(str::to_owned),
        }
    }
}

/// A value as text: strings as they are, numbers and booleans written out.
pub fn value_text<'v>(value: &'v Value<'_>) -> Cow<'v, str> {
    match value {
        Value::Str(text) => Cow::Borrowed(text),
        other => Cow::Owned(other.to_string()),
    }
}

pub fn match_parts<'m>(found: &'m Match<'_>) -> (usize, std::ops::Range<usize>, &'m [Value<'m>]) {
    (found.index, found.span.clone(), &found.values)
}
