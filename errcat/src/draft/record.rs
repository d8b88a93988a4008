//! A group written as a draft record, in the dataset's schema (the
//! `{"record": {...}}` files that `--data` and the macro load).

use error_catalog::{Dialect, LogLevel};
use serde_json::{json, Value as Json};

use super::keys::{Key, LEVELS};
use super::merge::Group;
use super::template::format_string;

/// Examples kept in a draft's documentation and `--json`.
pub const EXAMPLES: usize = 3;

/// What is said of one group.
pub struct Draft {
    pub id: String,
    pub error_message: String,
    pub message_pattern: String,
    pub count: u64,
    pub severity: Option<&'static str>,
    /// Where its first and last lines were read (input, line).
    pub first: (String, u64),
    pub last: (String, u64),
    pub examples: Vec<String>,
}

/// The draft of `group`, whose template's regex is `message_pattern`;
/// `inputs` names the inputs by index.
pub fn draft(keys: &[Key], group: &Group, message_pattern: String, dialect: Dialect, inputs: &[String]) -> Draft {
    let members = || group.members.iter().map(|&i| &keys[i]);
    let first = members().map(|k| k.first).min().expect("a group has keys");
    let last = members().map(|k| k.last).max().expect("a group has keys");
    let place = |p: super::keys::Place| (inputs[p.input as usize].clone(), p.line);
    let mut by_first: Vec<&Key> = members().collect();
    by_first.sort_by_key(|k| k.first);
    Draft {
        id: id_of(&message_pattern),
        error_message: format_string(&group.template, dialect),
        message_pattern,
        count: members().map(|k| k.count).sum(),
        severity: severity(members()),
        first: place(first),
        last: place(last),
        examples: by_first.iter().take(EXAMPLES).map(|k| k.example.to_string()).collect(),
    }
}

/// A stable id from the template: FNV-1a (64 bits) of its regex, which
/// does not depend on the dialect it is written in.
pub fn id_of(pattern: &str) -> String {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for byte in b"errcat-draft\0".iter().chain(pattern.as_bytes()) {
        hash ^= u64::from(*byte);
        hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
    }
    format!("{hash:016x}")
}

/// The most common level of the lines (the more severe on a tie), as a
/// record's severity; none when no line had a level.
fn severity<'k>(keys: impl Iterator<Item = &'k Key>) -> Option<&'static str> {
    let mut lines = [0u64; LEVELS.len()];
    for key in keys {
        for (slot, count) in lines.iter_mut().zip(key.levels) {
            *slot += count;
        }
    }
    let (slot, count) = lines.iter().enumerate().max_by_key(|(slot, count)| (**count, *slot))?;
    if *count == 0 {
        return None;
    }
    match LEVELS[slot] {
        LogLevel::Trace => Some("trace"),
        LogLevel::Debug => Some("debug"),
        LogLevel::Info | LogLevel::System => Some("info"),
        LogLevel::Warning => Some("warning"),
        LogLevel::Error => Some("error"),
        LogLevel::Fatal => Some("fatal"),
        // A level this version does not rank: no severity rather than a guess.
        _ => None,
    }
}

/// The slug: the template's words, and the id's start so that it is unique.
fn slug(draft: &Draft) -> String {
    let words: Vec<String> = draft
        .error_message
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty() && w.chars().any(char::is_alphabetic))
        .take(8)
        .map(str::to_lowercase)
        .collect();
    let mut slug = words.join("-");
    if !slug.is_empty() {
        slug.push('-');
    }
    slug.push_str(&draft.id[..8]);
    slug
}

/// The record file's JSON.
pub fn record_json(draft: &Draft) -> Json {
    let mut documentation = format!(
        "Draft written by `errcat draft`: {} log line(s) that no record explained, first at {}:{}, last at {}:{}. \
         Review the message and pattern, name the values, say what the error means and how to fix it, and set \
         `filePath` to the source file that logs it.\n\nExamples:\n",
        draft.count, draft.first.0, draft.first.1, draft.last.0, draft.last.1
    );
    for example in &draft.examples {
        documentation.push_str(&format!("\n    {}", example.replace(['\n', '\r'], " ")));
    }
    json!({
        "record": {
            "id": draft.id,
            "repo": "errcat/drafts",
            "slug": slug(draft),
            "errorCode": null,
            "errorMessage": draft.error_message,
            "messagePattern": draft.message_pattern,
            "errorType": "log",
            "errorClass": null,
            "httpStatus": null,
            "severity": draft.severity,
            "filePath": "",
            "lineNumber": null,
            "sourceCode": null,
            "githubUrl": null,
            "documentation": documentation,
            "solutions": [],
            "preventionTips": [],
            "tags": ["draft"],
            "schemaVersion": 2,
        }
    })
}

/// The group as one `--json` object.
pub fn group_json(draft: &Draft) -> Json {
    json!({
        "id": draft.id,
        "template": draft.error_message,
        "messagePattern": draft.message_pattern,
        "count": draft.count,
        "severity": draft.severity,
        "first": {"file": draft.first.0, "line": draft.first.1},
        "last": {"file": draft.last.0, "line": draft.last.1},
        "examples": draft.examples,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_sixteen_hex_digits_and_depend_on_the_pattern_only() {
        let id = id_of("disk (.+?) full");
        assert_eq!(id.len(), 16);
        assert!(id.bytes().all(|b| b.is_ascii_hexdigit()));
        assert_eq!(id, id_of("disk (.+?) full"));
        assert_ne!(id, id_of("disk (.*?) full"));
    }
}
