//! `errcat check`: validate a dataset with the loader and compiler the macro
//! uses, plus checks that need the whole catalog.

use std::borrow::Cow;
use std::io;
use std::path::Path;

use error_catalog::build::{build_with_names, check_names, check_patterns, Built};
use error_catalog::{load_dir, Catalog, Diagnostic, Filter, Piece, Template, Value, ValueKind};

use crate::exit::{FOUND, NOT_FOUND};
use crate::style::Out;

pub fn run(dir: &Path, dialect: Option<error_catalog::Dialect>, out: &mut Out) -> io::Result<u8> {
    let loaded = load_dir(dir);
    let files = loaded.files.len();
    let mut diagnostics = loaded.diagnostics;
    let mut built = build_with_names(loaded.records, &loaded.names, &Filter::new().dialect(dialect));
    check_patterns(&mut built);
    check_names(&mut built);
    diagnostics.append(&mut built.diagnostics);
    diagnostics.extend(never_winning(&built));
    diagnostics.extend(one_word(&built));
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

/// Records that can never win: for sample messages of the record, another
/// record always matches first (more literal text, or an earlier record with
/// the same message).
fn never_winning(built: &Built) -> Vec<Diagnostic> {
    let catalog = Catalog::from_entries(built.entries.iter().map(|e| e.entry.clone()).collect());
    let mut diagnostics = Vec::new();
    for (index, entry) in built.entries.iter().enumerate() {
        let template = &entry.entry.template;
        // The record alone: a pattern whose groups take only some texts
        // (`(-?[0-9]+)`) may not match a rendering with sample text.
        let alone = Catalog::from_entries(vec![entry.entry.clone()]);
        let winners: Vec<Option<usize>> = [template.sample_values(), other_samples(template)]
            .iter()
            .map(|values| {
                let message = catalog.render(index, values).ok()?;
                alone.parse(&message)?;
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
            winner.entry.name,
            winner.origin.path.display(),
            winner.origin.line
        );
        diagnostics.push(entry.origin.error("errorMessage", message).warning());
    }
    diagnostics
}

/// Records whose whole message is one word with no placeholder
/// (`consumer`): most are a slip of the extraction (an argument's name
/// taken for the message), and such a record matches every line that holds
/// the word.
fn one_word(built: &Built) -> Vec<Diagnostic> {
    let is_one_word = |template: &Template| match &template.pieces[..] {
        [Piece::Literal(text)] => {
            let word = text.trim();
            !word.is_empty() && !word.contains(char::is_whitespace)
        }
        _ => false,
    };
    built
        .entries
        .iter()
        .filter(|entry| is_one_word(&entry.entry.template))
        .map(|entry| {
            let message = "the message is one word with no placeholder: likely not what the program writes";
            entry.origin.error("errorMessage", message).warning()
        })
        .collect()
}

/// Values other than [`Template::sample_values`]', so that a record whose
/// sample message another happens to match is not judged by it alone.
fn other_samples(template: &Template) -> Vec<Value<'static>> {
    let value = |kind| match kind {
        ValueKind::Int => Value::Int(42),
        ValueKind::Float => Value::Float(0.25),
        ValueKind::Bool => Value::Bool(false),
        // Quoted, text, and any kind a later runtime adds.
        _ => Value::Str(Cow::Borrowed("X9q")),
    };
    template.fields.iter().map(|field| value(field.kind)).collect()
}
