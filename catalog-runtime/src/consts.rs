//! Compact `const` constructors for generated code. The macro writes one
//! `const` metadata item per record; positional calls instead of struct
//! literals with 33 named fields cut the tokens per record (the macro's and
//! rustc's work) by more than half. Not public API.

use std::borrow::Cow::Borrowed;

use crate::format::{Dialect, Field, Piece, Template, Text};
use crate::metadata::Metadata;
use crate::record::{ErrorType, HandlingStrategy, Record, Severity};

const fn opt(text: Option<&'static str>) -> Option<Text> {
    match text {
        Some(text) => Some(Borrowed(text)),
        None => None,
    }
}

/// A record from its fields, in groups:
/// - `text`: id, repo, slug, errorMessage, filePath, documentation;
/// - `optional`: errorCode, messagePattern, errorClass, sourceCode, githubUrl,
///   triggerScenarios, commonSituations, exampleFix, validationCode,
///   typeGuard, tryCatchPattern, backgroundTag, analyzedSha, analyzedAt,
///   contentChangedAt, datasetVersion;
/// - `numbers`: lineNumber, sourceCodeStart, sourceCodeEnd, schemaVersion;
/// - `lists`: solutions, preventionTips, tags.
#[allow(clippy::too_many_arguments)]
pub const fn record(
    text: [&'static str; 6],
    optional: [Option<&'static str>; 16],
    numbers: [Option<u32>; 4],
    http_status: Option<u16>,
    lists: [&'static [Text]; 3],
    error_type: Option<ErrorType>,
    severity: Option<Severity>,
    handling_strategy: Option<HandlingStrategy>,
) -> Record {
    Record {
        id: Borrowed(text[0]),
        repo: Borrowed(text[1]),
        slug: Borrowed(text[2]),
        error_message: Borrowed(text[3]),
        file_path: Borrowed(text[4]),
        documentation: Borrowed(text[5]),
        error_code: opt(optional[0]),
        message_pattern: opt(optional[1]),
        error_class: opt(optional[2]),
        source_code: opt(optional[3]),
        github_url: opt(optional[4]),
        trigger_scenarios: opt(optional[5]),
        common_situations: opt(optional[6]),
        example_fix: opt(optional[7]),
        validation_code: opt(optional[8]),
        type_guard: opt(optional[9]),
        try_catch_pattern: opt(optional[10]),
        background_tag: opt(optional[11]),
        analyzed_sha: opt(optional[12]),
        analyzed_at: opt(optional[13]),
        content_changed_at: opt(optional[14]),
        dataset_version: opt(optional[15]),
        line_number: numbers[0],
        source_code_start: numbers[1],
        source_code_end: numbers[2],
        schema_version: numbers[3],
        http_status,
        solutions: Borrowed(lists[0]),
        prevention_tips: Borrowed(lists[1]),
        tags: Borrowed(lists[2]),
        error_type,
        severity,
        handling_strategy,
    }
}

/// The record's strings in the order [`record`] takes them, so that the
/// macro cannot put them in another order than this function reads them.
pub fn record_strings(record: &Record) -> ([&str; 6], [Option<&str>; 16]) {
    let r = record;
    let text = [&*r.id, &*r.repo, &*r.slug, &*r.error_message, &*r.file_path, &*r.documentation];
    let optional = [
        &r.error_code,
        &r.message_pattern,
        &r.error_class,
        &r.source_code,
        &r.github_url,
        &r.trigger_scenarios,
        &r.common_situations,
        &r.example_fix,
        &r.validation_code,
        &r.type_guard,
        &r.try_catch_pattern,
        &r.background_tag,
        &r.analyzed_sha,
        &r.analyzed_at,
        &r.content_changed_at,
        &r.dataset_version,
    ]
    .map(|s| s.as_deref());
    (text, optional)
}

/// The record's numbers in the order [`record`] takes them.
pub fn record_numbers(record: &Record) -> [Option<u32>; 4] {
    [record.line_number, record.source_code_start, record.source_code_end, record.schema_version]
}

/// A template.
pub const fn template(
    dialect: Dialect,
    pieces: &'static [Piece],
    fields: &'static [Field],
    regex: &'static str,
    literal_len: u32,
) -> Template {
    Template { dialect, pieces: Borrowed(pieces), fields: Borrowed(fields), regex: Borrowed(regex), literal_len }
}

/// An entry's metadata.
pub const fn metadata(name: &'static str, record: Record, template: Template) -> Metadata {
    Metadata { name: Borrowed(name), record, template }
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::format::{Count, Flags, Spec, ValueKind};

    const PIECES: &[Piece] = &[
        Piece::Literal(Borrowed("a ")),
        Piece::Value {
            field: 0,
            spec: Spec { verb: 'q', flags: Flags(0), width: Count::None, precision: Count::None },
        },
    ];
    const FIELDS: &[Field] = &[Field { name: Borrowed("x"), kind: ValueKind::Quoted, arg: 0 }];
    const RECORD: Record = record(
        ["id1", "o/r", "a-q", "a %q %-5.*d", "x.go", "docs"],
        [
            None,
            Some("a (.+?)"),
            None,
            None,
            None,
            None,
            None,
            None,
            None,
            None,
            None,
            None,
            None,
            None,
            None,
            Some("v1"),
        ],
        [Some(3), None, None, Some(2)],
        Some(500),
        [&[Borrowed("fix it")], &[], &[Borrowed("t")]],
        Some(ErrorType::Log),
        Some(Severity::Other(Borrowed("odd"))),
        None,
    );

    #[test]
    fn constructors_fill_every_field_in_order() {
        let record = RECORD;
        let (text, optional) = record_strings(&record);
        assert_eq!(text, ["id1", "o/r", "a-q", "a %q %-5.*d", "x.go", "docs"]);
        assert_eq!(optional[1], Some("a (.+?)"));
        assert_eq!(optional[15], Some("v1"));
        assert_eq!(record_numbers(&record), [Some(3), None, None, Some(2)]);
        assert_eq!(RECORD.http_status, Some(500));
        assert_eq!(RECORD.tags.len(), 1);
        let t = template(Dialect::Go, PIECES, FIELDS, "r", 2);
        let m = metadata("N", RECORD, t);
        assert_eq!((m.id.as_ref(), m.template.fields.len()), ("id1", 1));
    }
}
