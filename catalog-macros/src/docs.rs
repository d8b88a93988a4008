//! Doc comments of generated variants and fields.

use catalog_runtime::{Entry, Piece, ValueKind};

use crate::text::Code;

/// One `#[doc = "..."]` (one literal keeps the token count low) with the
/// message, documentation, solutions and source link, and
/// `#[doc(alias = "<slug>")]`, as text.
pub fn variant(out: &mut Code, metadata: &Entry) {
    let mut lines = vec![format!("`{}`", code(message_of(metadata)))];
    if !metadata.record.documentation.is_empty() {
        lines.push(String::new());
        lines.push(metadata.record.documentation.to_string());
    }
    if !metadata.record.solutions.is_empty() {
        lines.push(String::new());
        lines.push("**Solutions**".to_owned());
        lines.push(String::new());
        lines.extend(metadata.record.solutions.iter().map(|s| format!("- {s}")));
    }
    let mut facts = vec![format!("id `{}`", metadata.record.id)];
    if let Some(severity) = &metadata.record.severity {
        facts.push(format!("severity {severity}"));
    }
    if let Some(strategy) = &metadata.record.handling_strategy {
        facts.push(format!("handling {strategy}"));
    }
    match (&metadata.record.github_url, metadata.record.line_number) {
        (Some(url), _) => facts.push(format!("[source]({url})")),
        (None, Some(line)) => facts.push(format!("`{}:{line}`", metadata.record.file_path)),
        (None, None) if !metadata.record.file_path.is_empty() => facts.push(format!("`{}`", metadata.record.file_path)),
        _ => {}
    }
    lines.push(String::new());
    lines.push(facts.join(" · "));
    let doc: Vec<String> = lines.iter().map(|line| format!(" {line}")).collect();
    out.text.push_str("#[doc=");
    out.str(&doc.join("\n"));
    out.text.push(']');
    let slug = metadata.record.slug.as_ref();
    if !slug.is_empty() {
        out.text.push_str("#[doc(alias=");
        out.str(slug);
        out.text.push_str(")]");
    }
}

fn message_of(metadata: &Entry) -> &str {
    if metadata.record.error_message.is_empty() {
        metadata.record.message_pattern.as_deref().unwrap_or_default()
    } else {
        &metadata.record.error_message
    }
}

/// Text inside a Markdown code span, which cannot hold a backtick.
fn code(text: &str) -> String {
    text.replace('`', "'").replace('\n', " ")
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
        ValueKind::Text => "text",
    }
}
