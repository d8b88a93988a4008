//! The dataset's README: where the records came from, how they were made,
//! what is in them and the conventions of their fields.

use std::collections::BTreeMap;
use std::collections::BTreeSet;

use crate::lang::Language;
use crate::record::{Provenance, RecordFile};

/// The README of the dataset `name`: `records` found in `files` files of
/// the language.
pub(crate) fn readme(
    name: &str,
    language: &dyn Language,
    provenance: &Provenance,
    files: usize,
    records: &[RecordFile],
) -> String {
    let repo = &provenance.repo;
    let sha = &provenance.sha;
    let mut pairs: BTreeMap<(&str, &str), usize> = BTreeMap::new();
    for record in records {
        *pairs.entry((&record.error_type, &record.severity)).or_default() += 1;
    }
    let rows: String = pairs.iter().map(|((t, s), n)| format!("| {t} | {s} | {n} |\n")).collect();
    let distinct = records.iter().map(|r| &r.message).collect::<BTreeSet<_>>().len();
    let with_records = records.iter().map(|r| &r.file).collect::<BTreeSet<_>>().len();
    let lang = language.name();
    let describe = language.describe();
    format!(
        "# {name}\n\
         \n\
         Error messages from the source of [{repo}](https://github.com/{repo}) at `{sha}`, one\n\
         error-catalog record (schemaVersion 2) per file in this folder (`<id>.json`).\n\
         \n\
         Made by `errcat extract` from that source; do not edit by hand:\n\
         \n\
         ```sh\n\
         errcat extract --lang {lang} --src SOURCE --repo {repo} --sha {sha} --out datasets --name {name} --stamp {stamp}\n\
         ```\n\
         \n\
         ## What is in it\n\
         \n\
         {count} records from {with_records} of the {files} files read; {distinct} distinct `errorMessage`\n\
         values (the same message at several places is a record for each place).\n\
         \n\
         {describe}\
         | errorType | severity | records |\n\
         | --- | --- | --- |\n\
         {rows}\
         \n\
         ## Field conventions\n\
         \n\
         - Files are single-line JSON `{{\"record\": {{...}}, \"datasetVersion\": \"...\"}}`, UTF-8, no\n\
         \x20 trailing newline.\n\
         - `id`: the first 16 hex digits of sha256(repo + filePath + lineNumber + errorMessage).\n\
         - `errorMessage`: the message as the source writes it, escapes decoded, in the language's\n\
         \x20 format syntax; `messagePattern`: a `regex` crate pattern matching its renderings.\n\
         - `slug`: the first 50 characters of `errorMessage`, lower-cased, each run of characters\n\
         \x20 other than `a-z0-9` turned into `-`, trimmed of `-`.\n\
         - `lineNumber`: the line of the message; `sourceCode` the lines of the call, with\n\
         \x20 `sourceCodeStart`/`sourceCodeEnd` and `githubUrl` pointing at them.\n\
         - `documentation`: one generated sentence naming the enclosing function and, where simple,\n\
         \x20 the condition the call sits under.\n\
         - `handlingStrategy`: a fixed rule, not a judgement: fatal -> escalate; debug or info ->\n\
         \x20 ignore; \"retry\" when the message speaks of a timeout, unavailable, try again,\n\
         \x20 temporarily, no responders or catching up (and not of a configuration check: must be,\n\
         \x20 invalid, not allowed, ...); else \"fail\".\n\
         - `tags`: [file stem, errorType]; `backgroundTag`: the two joined by `-`.\n\
         - `httpStatus`, `triggerScenarios`, `commonSituations`, `exampleFix`, `validationCode`,\n\
         \x20 `typeGuard`, `tryCatchPattern`, `contentChangedAt`: null; `solutions`,\n\
         \x20 `preventionTips`: [].\n\
         - `analyzedSha`: `{sha}`; `analyzedAt` and `datasetVersion`: `{stamp}`.\n",
        stamp = provenance.stamp,
        count = records.len(),
    )
}
