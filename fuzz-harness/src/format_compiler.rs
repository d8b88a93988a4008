//! The format compiler on arbitrary format strings and file extensions.

use std::path::PathBuf;

use catalog_runtime::build::build;
use catalog_runtime::{Dialect, Filter, Origin, Record, SourcedRecord, Template};

use crate::template;

/// Input: `EXTENSION\nERROR_MESSAGE[\0MESSAGE_PATTERN[\0SOURCE_CODE]]`
/// (invalid UTF-8 replaced). The record so made is compiled as the loader
/// and the macro compile it (its dialect chosen from the extension and the
/// source's call), and the message is compiled in every dialect as well;
/// each template that compiles must satisfy `template::check`, and a
/// refusal must point into the record (line and column at least 1, on
/// `errorMessage` or `messagePattern`).
pub fn format_compiler(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let (extension, rest) = text.split_once('\n').unwrap_or(("go", &text));
    let mut parts = rest.splitn(3, '\0');
    let message = parts.next().unwrap_or_default();
    let pattern = parts.next();
    let source = parts.next();

    let mut record = Record::new("fuzz", message.to_owned());
    record.file_path = format!("src/fuzz.{extension}").into();
    record.message_pattern = pattern.map(|p| p.to_owned().into());
    record.source_code = source.map(|s| s.to_owned().into());
    let origin = Origin { path: PathBuf::from("fuzz.json"), line: 3, column: 5, fields: Vec::new() };
    // Templates already checked: a message without `%` compiles alike in
    // every dialect, and the regex compilations of the check are slow.
    let mut checked: Vec<Template> = Vec::new();
    let mut check = |template: &Template| {
        let same =
            |t: &Template| t.pieces == template.pieces && t.fields == template.fields && t.regex == template.regex;
        if !checked.iter().any(same) {
            template::check(template);
            checked.push(template.clone());
        }
    };
    let built = build(vec![SourcedRecord { record, origin }], &Filter::default());
    match &built.entries[..] {
        [entry] => check(&entry.entry.template),
        entries => {
            assert!(entries.is_empty(), "one record gives at most one entry");
            let diagnostics = built.diagnostics;
            assert!(!diagnostics.is_empty(), "a refusal says why");
            for diagnostic in diagnostics {
                assert!(diagnostic.is_error());
                assert_eq!((diagnostic.line, diagnostic.column), (3, 5), "{diagnostic}");
                let field = diagnostic.field.as_deref();
                assert!(matches!(field, Some("errorMessage" | "messagePattern")), "{diagnostic}");
            }
        }
    }
    for &dialect in Dialect::ALL {
        match Template::compile(message, dialect) {
            Ok(template) => {
                assert_eq!(template.dialect, dialect);
                check(&template);
            }
            Err(err) => {
                assert!(dialect != Dialect::Plain, "plain text always compiles: {err}");
                assert!(err.offset <= message.len(), "error offset {} past the message: {err}", err.offset);
            }
        }
    }
}
