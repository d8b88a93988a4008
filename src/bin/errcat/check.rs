//! `errcat check`: validate a dataset with the loader and compiler the macro
//! uses, plus checks that need the whole catalog.

use std::borrow::Cow;
use std::collections::HashMap;
use std::io;
use std::path::Path;

use error_catalog::naming::NameParts;
use error_catalog::{build, check_patterns, load_dir, Built, Catalog, Diagnostic, Filter, Value, ValueKind};

use crate::style::Out;
use crate::{FOUND, NOT_FOUND};

pub fn run(dir: &Path, out: &mut Out) -> io::Result<u8> {
    let loaded = load_dir(dir);
    let files = loaded.files.len();
    let mut diagnostics = loaded.diagnostics;
    let mut built = build(loaded.records, &Filter::default());
    check_patterns(&mut built);
    diagnostics.append(&mut built.diagnostics);
    diagnostics.extend(name_collisions(&built));
    diagnostics.extend(never_winning(&built));
    diagnostics.sort_by(|a, b| (a.level, &a.path, a.line, a.column).cmp(&(b.level, &b.path, b.line, b.column)));
    for diagnostic in &diagnostics {
        out.line(&diagnostic.to_string())?;
    }
    let errors = diagnostics.iter().filter(|d| d.is_error()).count();
    let warnings = diagnostics.len() - errors;
    let summary = format!(
        "{}: {} record(s) in {files} file(s), {errors} error(s), {warnings} warning(s)",
        dir.display(),
        built.entries.len()
    );
    out.line(&if errors > 0 { out.bold(&summary) } else { summary })?;
    Ok(if errors > 0 { NOT_FOUND } else { FOUND })
}

/// Records whose message would give the same variant name: each is named
/// with more words or its id instead, which the dataset's users may not expect.
fn name_collisions(built: &Built) -> Vec<Diagnostic> {
    let mut groups: HashMap<String, Vec<usize>> = HashMap::new();
    for (index, entry) in built.entries.iter().enumerate() {
        let parts = NameParts::new(&entry.metadata.template, &entry.metadata.id);
        groups.entry(parts.leading).or_default().push(index);
    }
    let mut diagnostics = Vec::new();
    for (name, members) in groups.iter().filter(|(_, members)| members.len() > 1) {
        for &index in members {
            let entry = &built.entries[index];
            let message = format!(
                "variant name `{name}` is shared by {} records; this one is named `{}`",
                members.len(),
                entry.metadata.name
            );
            diagnostics.push(entry.origin.error("errorMessage", message).warning());
        }
    }
    diagnostics
}

/// Records that can never win: for sample messages of the record, another
/// record always matches first (more literal text, or an earlier record with
/// the same message).
fn never_winning(built: &Built) -> Vec<Diagnostic> {
    let catalog = Catalog::from_entries(built.entries.iter().map(|e| e.metadata.clone()).collect());
    let mut diagnostics = Vec::new();
    for (index, entry) in built.entries.iter().enumerate() {
        let winners: Vec<Option<usize>> = [sample_a, sample_b]
            .iter()
            .map(|sample| {
                let values: Vec<Value<'static>> =
                    entry.metadata.template.fields.iter().map(|f| sample(f.kind)).collect();
                let message = catalog.render(index, &values);
                catalog.parse(&message).map(|m| m.index)
            })
            .collect();
        // A record that cannot match its own rendering is not judged here.
        if winners.iter().any(|w| w.is_none() || *w == Some(index)) {
            continue;
        }
        let winner = &built.entries[winners[0].expect("checked above")];
        let message = format!(
            "can never win: `{}` ({}:{}) always matches its messages first",
            winner.metadata.name,
            winner.origin.path.display(),
            winner.origin.line
        );
        diagnostics.push(entry.origin.error("errorMessage", message).warning());
    }
    diagnostics
}

fn sample_a(kind: ValueKind) -> Value<'static> {
    error_catalog::compile::sample_value(kind)
}

fn sample_b(kind: ValueKind) -> Value<'static> {
    match kind {
        ValueKind::Int => Value::Int(42),
        ValueKind::Float => Value::Float(0.25),
        ValueKind::Bool => Value::Bool(false),
        ValueKind::Quoted | ValueKind::Text => Value::Str(Cow::Borrowed("X9q")),
    }
}
