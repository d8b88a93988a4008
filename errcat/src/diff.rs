//! `errcat diff OLD NEW`: what a dataset update changes in the generated
//! enum, record by record (matched by id), and what that means for the
//! semver of a crate whose public API contains the enum.
//!
//! Both datasets are built as the macro builds them, each with its own names
//! file: with names files, the only renames are those the names files allow.

use std::collections::{BTreeMap, HashSet};
use std::io;
use std::path::Path;

use error_catalog::{Entry, Record};
use serde_json::{json, Value as Json};

use crate::exit::TROUBLE;
use crate::names;
use crate::style::Out;

/// Exit statuses, as diff's.
const SAME: u8 = 0;
const DIFFERENT: u8 = 1;

pub struct Options {
    pub json: bool,
    /// The enum is `#[non_exhaustive]`: an added variant is not breaking.
    pub non_exhaustive: bool,
}

/// What a change means for a crate exposing the enum, least to most severe.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Semver {
    None,
    Patch,
    Minor,
    Breaking,
}

impl Semver {
    fn as_str(self) -> &'static str {
        match self {
            Semver::None => "none",
            Semver::Patch => "patch",
            Semver::Minor => "minor",
            Semver::Breaking => "breaking",
        }
    }
}

/// The differences, each list sorted by id.
#[derive(Default)]
struct Changes<'a> {
    added: Vec<&'a Entry>,
    removed: Vec<&'a Entry>,
    /// (old, new), for each of the lists below.
    renamed: Vec<(&'a Entry, &'a Entry)>,
    fields: Vec<(&'a Entry, &'a Entry)>,
    messages: Vec<(&'a Entry, &'a Entry)>,
    documentation: Vec<(&'a Entry, &'a Entry)>,
}

impl<'a> Changes<'a> {
    fn new(old: &'a [Entry], new: &'a [Entry]) -> Self {
        let by_id = |entries: &'a [Entry]| -> BTreeMap<&'a str, &'a Entry> {
            entries.iter().map(|entry| (entry.record().id.as_ref(), entry)).collect()
        };
        let (old, new) = (by_id(old), by_id(new));
        let mut changes = Changes::default();
        for (id, &before) in &old {
            let Some(&after) = new.get(id) else {
                changes.removed.push(before);
                continue;
            };
            let pair = (before, after);
            if before.name != after.name {
                changes.renamed.push(pair);
            }
            if field_set(before) != field_set(after) {
                changes.fields.push(pair);
            }
            if message(before.record()) != message(after.record()) {
                changes.messages.push(pair);
            }
            if without_message(before.record()) != without_message(after.record()) {
                changes.documentation.push(pair);
            }
        }
        changes.added = new.iter().filter(|(id, _)| !old.contains_key(*id)).map(|(_, &entry)| entry).collect();
        changes
    }

    fn is_empty(&self) -> bool {
        self.reasons(false).is_empty()
    }

    /// Each kind of change present: its semver level, and what it is.
    fn reasons(&self, non_exhaustive: bool) -> Vec<(Semver, &'static str, usize)> {
        let added = if non_exhaustive { Semver::Minor } else { Semver::Breaking };
        let kinds = [
            (Semver::Breaking, "removed", self.removed.len()),
            (Semver::Breaking, "renamed", self.renamed.len()),
            (Semver::Breaking, "fields", self.fields.len()),
            (added, "added", self.added.len()),
            (Semver::Patch, "messages", self.messages.len()),
            (Semver::Patch, "documentation", self.documentation.len()),
        ];
        kinds.into_iter().filter(|(_, _, count)| *count > 0).collect()
    }

    fn semver(&self, non_exhaustive: bool) -> Semver {
        self.reasons(non_exhaustive).iter().map(|(level, _, _)| *level).max().unwrap_or(Semver::None)
    }
}

/// A variant's fields by name: their order is not API (struct variants).
fn field_set(entry: &Entry) -> HashSet<(&str, &str)> {
    entry.template.fields.iter().map(|f| (f.name.as_ref(), f.kind.rust_type())).collect()
}

fn message(record: &Record) -> (&str, &str) {
    (&record.error_message, record.message_pattern.as_deref().unwrap_or_default())
}

/// The record without what `messages` compares: the rest is documentation
/// (doc comments, metadata), whose changes are patch-level.
fn without_message(record: &Record) -> Record {
    let mut record = record.clone();
    record.error_message = Default::default();
    record.message_pattern = None;
    record
}

/// `` `name: Type` removed``, `` `name`: i64 → String``, `` `name: Type` added``.
fn field_changes(old: &Entry, new: &Entry) -> Vec<String> {
    let fields = |entry: &'_ Entry| -> Vec<(String, &'static str)> {
        entry.template.fields.iter().map(|f| (f.name.to_string(), f.kind.rust_type())).collect()
    };
    let (old, new) = (fields(old), fields(new));
    let mut changes = Vec::new();
    for (name, ty) in &old {
        match new.iter().find(|(n, _)| n == name) {
            None => changes.push(format!("`{name}: {ty}` removed")),
            Some((_, new_ty)) if new_ty != ty => changes.push(format!("`{name}`: {ty} → {new_ty}")),
            Some(_) => {}
        }
    }
    for (name, ty) in &new {
        if !old.iter().any(|(n, _)| n == name) {
            changes.push(format!("`{name}: {ty}` added"));
        }
    }
    changes
}

pub fn run(old_dir: &Path, new_dir: &Path, options: &Options, out: &mut Out) -> io::Result<u8> {
    let (old, new) = (names::load(old_dir), names::load(new_dir));
    let (old, new) = match (old, new) {
        (Ok(old), Ok(new)) => (old, new),
        (old, new) => {
            for (dir, result) in [(old_dir, old), (new_dir, new)] {
                if let Err(errors) = result {
                    for error in &errors {
                        eprintln!("{error}");
                    }
                    eprintln!("errcat: {} has {} error(s)", dir.display(), errors.len());
                }
            }
            return Ok(TROUBLE);
        }
    };
    let entries =
        |dataset: names::Dataset| -> Vec<Entry> { dataset.built.entries.into_iter().map(|e| e.entry).collect() };
    let (old, new) = (entries(old), entries(new));
    let changes = Changes::new(&old, &new);
    if options.json {
        let report = json_report(&changes, old_dir, new_dir, options.non_exhaustive);
        out.line(&serde_json::to_string_pretty(&report).map_err(io::Error::other)?)?;
    } else {
        text_report(&changes, options.non_exhaustive, out)?;
    }
    Ok(if changes.is_empty() { SAME } else { DIFFERENT })
}

fn text_report(changes: &Changes<'_>, non_exhaustive: bool, out: &mut Out) -> io::Result<()> {
    if changes.is_empty() {
        return out.line("no changes: every record, name, field and message is the same");
    }
    let heading = |out: &mut Out, title: &str, count: usize| out.line(&out.bold(&format!("{title} ({count}):")));
    for (title, mark, entries) in [("added", '+', &changes.added), ("removed", '-', &changes.removed)] {
        if !entries.is_empty() {
            heading(out, title, entries.len())?;
        }
        for entry in entries {
            out.line(&format!("  {mark} {}  {}  {}", entry.name, entry.record().id, shown_message(entry.record())))?;
        }
    }
    if !changes.renamed.is_empty() {
        heading(out, "renamed", changes.renamed.len())?;
        for (old, new) in &changes.renamed {
            out.line(&format!("  ~ {} → {}  {}", old.name, new.name, new.record().id))?;
        }
    }
    if !changes.fields.is_empty() {
        heading(out, "fields changed", changes.fields.len())?;
        for (old, new) in &changes.fields {
            out.line(&format!("  ~ {}  {}: {}", new.name, new.record().id, field_changes(old, new).join(", ")))?;
        }
    }
    if !changes.messages.is_empty() {
        heading(out, "messages changed", changes.messages.len())?;
        for (old, new) in &changes.messages {
            out.line(&format!("  ~ {}  {}", new.name, new.record().id))?;
            out.line(&format!("      - {}", shown_message(old.record())))?;
            out.line(&format!("      + {}", shown_message(new.record())))?;
        }
    }
    if !changes.documentation.is_empty() {
        heading(out, "documentation changed", changes.documentation.len())?;
        for (_, new) in &changes.documentation {
            out.line(&format!("  ~ {}  {}", new.name, new.record().id))?;
        }
    }
    let semver = changes.semver(non_exhaustive);
    let reasons: Vec<String> =
        changes.reasons(non_exhaustive).iter().filter(|(level, _, _)| *level == semver).map(describe).collect();
    let advice = match semver {
        Semver::Breaking => "a new major version (a new minor one before 1.0)",
        Semver::Minor => "a new minor version",
        Semver::Patch | Semver::None => "a new patch version",
    };
    out.line(&out.bold(&format!("semver: {}: {}", semver.as_str(), reasons.join("; "))))?;
    out.line(&format!("  a crate whose public API contains the enum needs {advice}"))?;
    if !non_exhaustive && changes.semver(true) < semver {
        out.line(&format!(
            "  with #[non_exhaustive] on the enum, {} (errcat diff --non-exhaustive)",
            changes.semver(true).as_str()
        ))?;
    }
    Ok(())
}

/// One reason in words: `3 variant(s) added to an exhaustive enum`.
fn describe(&(level, kind, count): &(Semver, &'static str, usize)) -> String {
    match kind {
        "removed" => format!("{count} variant(s) removed"),
        "renamed" => format!("{count} variant(s) renamed"),
        "fields" => format!("{count} variant(s) with fields removed, renamed, added or retyped"),
        "added" if level == Semver::Breaking => format!("{count} variant(s) added to an exhaustive enum"),
        "added" => format!("{count} variant(s) added to a #[non_exhaustive] enum"),
        "messages" => format!("{count} message(s) changed (what Display writes and parse matches)"),
        _ => format!("{count} record(s) with changed documentation"),
    }
}

/// The message as the dataset has it (the pattern when there is none), on
/// one line: line breaks and tabs written as escapes.
fn shown_message(record: &Record) -> String {
    let message = if record.error_message.is_empty() {
        record.message_pattern.as_deref().unwrap_or_default()
    } else {
        &record.error_message
    };
    message.replace('\n', "\\n").replace('\r', "\\r").replace('\t', "\\t")
}

fn json_report(changes: &Changes<'_>, old_dir: &Path, new_dir: &Path, non_exhaustive: bool) -> Json {
    let fields = |entry: &Entry| -> Json {
        entry.template.fields.iter().map(|f| json!({"name": f.name, "type": f.kind.rust_type()})).collect()
    };
    let variant = |entry: &&Entry| {
        json!({
            "id": entry.record().id,
            "name": entry.name,
            "fields": fields(entry),
            "errorMessage": entry.record().error_message,
            "messagePattern": entry.record().message_pattern,
        })
    };
    let message =
        |record: &Record| json!({"errorMessage": record.error_message, "messagePattern": record.message_pattern});
    let reasons: Vec<Json> = changes
        .reasons(non_exhaustive)
        .iter()
        .map(|reason| json!({"semver": reason.0.as_str(), "change": reason.1, "count": reason.2, "text": describe(reason)}))
        .collect();
    json!({
        "old": old_dir.display().to_string(),
        "new": new_dir.display().to_string(),
        "added": changes.added.iter().map(variant).collect::<Vec<_>>(),
        "removed": changes.removed.iter().map(variant).collect::<Vec<_>>(),
        "renamed": changes.renamed.iter().map(|(old, new)| json!({"id": new.record().id, "old": old.name, "new": new.name})).collect::<Vec<_>>(),
        "fields": changes.fields.iter().map(|(old, new)| json!({
            "id": new.record().id, "name": new.name, "old": fields(old), "new": fields(new), "changes": field_changes(old, new),
        })).collect::<Vec<_>>(),
        "messages": changes.messages.iter().map(|(old, new)| json!({
            "id": new.record().id, "name": new.name, "old": message(old.record()), "new": message(new.record()),
        })).collect::<Vec<_>>(),
        "documentation": changes.documentation.iter().map(|(_, new)| json!({"id": new.record().id, "name": new.name})).collect::<Vec<_>>(),
        "nonExhaustive": non_exhaustive,
        "semver": changes.semver(non_exhaustive).as_str(),
        "semverIfNonExhaustive": changes.semver(true).as_str(),
        "reasons": reasons,
    })
}
