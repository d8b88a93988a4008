//! Doc comments of generated variants and fields.

use catalog_runtime::{Entry, Piece, ValueKind};

use crate::text::Code;

/// One `#[doc = "..."]` (one literal keeps the token count low) with the
/// message, documentation, solutions and source link, and
/// `#[doc(alias = "<slug>")]`, as text. Each paragraph is a line that
/// starts with a space; written into one string (the macro runs
/// unoptimised in a user's debug build, where every `format!` counts), as a
/// raw literal: with its line breaks escaped, rustc unescapes a doc string
/// each time it reads one (4% of a rebuild's instructions at 2,008 records).
pub fn variant(out: &mut Code, metadata: &Entry) {
    let record = &metadata.record();
    let mut doc = String::with_capacity(256 + record.documentation.len());
    let line = |doc: &mut String, parts: &[&str]| {
        if !doc.is_empty() {
            doc.push('\n');
        }
        doc.push(' ');
        for part in parts {
            doc.push_str(part);
        }
    };
    line(&mut doc, &["`", &code(message_of(metadata)), "`"]);
    if !record.documentation.is_empty() {
        line(&mut doc, &[]);
        line(&mut doc, &[&record.documentation]);
    }
    if !record.solutions.is_empty() {
        line(&mut doc, &[]);
        line(&mut doc, &["**Solutions**"]);
        line(&mut doc, &[]);
        for solution in record.solutions.iter() {
            line(&mut doc, &["- ", solution]);
        }
    }
    line(&mut doc, &[]);
    line(&mut doc, &["id `", &record.id, "`"]);
    if let Some(severity) = &record.severity {
        doc.push_str(" · severity ");
        doc.push_str(severity.as_str());
    }
    if let Some(strategy) = &record.handling_strategy {
        doc.push_str(" · handling ");
        doc.push_str(strategy.as_str());
    }
    match (&record.github_url, record.line_number) {
        (Some(url), _) => {
            doc.push_str(" · [source](");
            doc.push_str(url);
            doc.push(')');
        }
        (None, Some(line)) => {
            doc.push_str(" · `");
            doc.push_str(&record.file_path);
            doc.push(':');
            doc.push_str(&line.to_string());
            doc.push('`');
        }
        (None, None) if !record.file_path.is_empty() => {
            doc.push_str(" · `");
            doc.push_str(&record.file_path);
            doc.push('`');
        }
        _ => {}
    }
    out.text.push_str("#[doc=");
    out.raw_str(&doc);
    out.text.push(']');
    let slug = record.slug.as_ref();
    if !slug.is_empty() {
        out.text.push_str("#[doc(alias=");
        out.str(slug);
        out.text.push_str(")]");
    }
}

fn message_of(metadata: &Entry) -> &str {
    if metadata.record().error_message.is_empty() {
        metadata.record().message_pattern.as_deref().unwrap_or_default()
    } else {
        &metadata.record().error_message
    }
}

/// Text inside a Markdown code span, which cannot hold a backtick.
fn code(text: &str) -> std::borrow::Cow<'_, str> {
    // Two searches for one character, which are `memchr` (a search for
    // either of two would be a loop, unoptimised in a user's debug build).
    if text.contains('`') || text.contains('\n') {
        text.replace('`', "'").replace('\n', " ").into()
    } else {
        text.into()
    }
}

/// `#[doc = "..."]` of field `index`: its placeholders and type, as text.
pub fn field(out: &mut Code, metadata: &Entry, index: usize) {
    let kind = kind_text(metadata.template.fields[index].kind);
    let line = format!(" Placeholder `{}`: {kind}.", verbs(metadata, index).join("`, `"));
    out.text.push_str("#[doc=");
    out.str(&line);
    out.text.push(']');
}

/// The placeholders (`%d`, ...) that render field `index`.
pub fn verbs(metadata: &Entry, index: usize) -> Vec<String> {
    metadata
        .template
        .pieces
        .iter()
        .filter_map(|piece| match piece {
            Piece::Value { field, spec } if usize::from(*field) == index => Some(format!("%{}", spec.verb)),
            _ => None,
        })
        .collect()
}

/// What a placeholder of this kind holds, in a few words.
pub fn kind_text(kind: ValueKind) -> &'static str {
    match kind {
        ValueKind::Int => "an integer",
        ValueKind::Float => "a number",
        ValueKind::Bool => "a boolean",
        ValueKind::Quoted => "a quoted string, held unquoted (its bytes, UTF-8 or not)",
        // `Text`, and any kind a later runtime adds.
        _ => "text",
    }
}
