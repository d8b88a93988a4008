//! Variant names over the five corpora: how many carry an id (hex) suffix,
//! a part taken from a URL, or are a lone preposition, article or
//! conjunction. The counts are printed (and pinned: a change of the naming
//! rule shows up here); none may be named after a URL or be a lone
//! preposition, and a hex suffix is only allowed where no word of the
//! message or of the source tells the record apart from the others that
//! would share its name.
//!
//! `ERROR_CATALOG_NAMES_DUMP=<dir>` also writes `<dir>/<corpus>.tsv`
//! (id, name, message), to compare two versions of the rule.

use crate::corpus;

use std::collections::{BTreeMap, HashSet};
use std::fmt::Write as _;

use catalog_runtime::build::{build, Built, BuiltEntry};
use catalog_runtime::{load_dir, Filter, Piece};

/// Words a name must not be on its own.
const LONE: &[&str] = &[
    "A", "An", "The", "And", "Or", "Nor", "But", "So", "Yet", "If", "Then", "For", "To", "In", "Of", "On", "At", "By",
    "From", "With", "Without", "Into", "Onto", "As", "Via", "Per", "Over", "Under", "About", "After", "Before",
    "During", "Since", "Until", "While", "Within",
];

/// Prepositions, which name nothing with one word after them either
/// (`ForStream`, `WithQos`).
const PREPOSITIONS: &[&str] =
    &["For", "To", "In", "Of", "On", "At", "By", "From", "With", "Without", "Into", "Via", "Per", "Over", "After"];

/// Whether a name is only a function word, or a preposition and one word.
fn is_lone(name: &str) -> bool {
    let second_word = name.char_indices().skip(1).find(|(_, c)| c.is_ascii_uppercase()).map(|(at, _)| at);
    let one_word_after = |rest: &str| !rest.is_empty() && !rest[1..].contains(|c: char| c.is_ascii_uppercase());
    LONE.contains(&name)
        || second_word.is_some_and(|at| PREPOSITIONS.contains(&&name[..at]) && one_word_after(&name[at..]))
}

#[derive(Debug, Default, PartialEq, Eq)]
struct Counts {
    names: usize,
    hex: usize,
    url: usize,
    lone: usize,
}

/// The record's id, upper case, as a name's suffix writes it.
fn id_digits(entry: &BuiltEntry) -> String {
    entry.entry.record().id.chars().filter(char::is_ascii_alphanumeric).map(|c| c.to_ascii_uppercase()).collect()
}

/// Whether the name ends with (at least four digits of) the record's id.
fn has_hex_suffix(entry: &BuiltEntry) -> bool {
    let name = entry.entry.name.as_ref();
    let id = id_digits(entry);
    (4..=id.len()).any(|len| name.ends_with(&id[..len])) || name.contains(&format!("{id}V"))
}

/// Whether `token` (text between white space) is or holds a URL or a host
/// name: a scheme, `www.`, or three dotted labels or a host and a path, with
/// a common top-level domain (as the naming rule reads them; `crates.io`
/// alone is a name).
fn is_url(token: &str) -> bool {
    let lower = token.to_ascii_lowercase();
    if lower.contains("://") || lower.contains("www.") {
        return true;
    }
    let token = lower.trim_matches(|c: char| !c.is_ascii_alphanumeric());
    let host = token.split(['/', ':', '?', '#']).next().unwrap_or("");
    let labels: Vec<&str> = host.split('.').collect();
    labels.len() >= 2
        && (labels.len() >= 3 || host.len() < token.len())
        && labels.iter().all(|l| !l.is_empty() && l.chars().all(|c| c.is_ascii_alphanumeric() || c == '-'))
        && matches!(*labels.last().unwrap(), "com" | "org" | "net" | "io" | "dev" | "edu" | "gov" | "info" | "app")
}

/// The words of the URLs in the entry's literal text (a URL may run across a
/// placeholder: `https://%s/path`).
fn url_words(entry: &BuiltEntry) -> Vec<Vec<String>> {
    let mut text = String::new();
    for piece in entry.entry.template.pieces.iter() {
        match piece {
            Piece::Literal(literal) => text.push_str(literal),
            // A placeholder.
            _ => text.push('X'),
        }
    }
    text.split_whitespace()
        .filter(|token| is_url(token))
        .map(|token| token.split(|c: char| !c.is_ascii_alphanumeric()).filter(|w| !w.is_empty()).map(camel).collect())
        .collect()
}

fn camel(word: &str) -> String {
    let mut chars = word.chars();
    chars.next().map(|c| c.to_ascii_uppercase()).into_iter().chain(chars.map(|c| c.to_ascii_lowercase())).collect()
}

/// Whether the name holds two consecutive words of a URL of its message.
fn has_url_part(entry: &BuiltEntry) -> bool {
    let name = entry.entry.name.as_ref();
    url_words(entry).iter().any(|words| {
        words.windows(2).any(|pair| name.contains(&format!("{}{}", pair[0], pair[1])))
            || (words.len() == 1 && camel_words(name).any(|w| w == words[0]))
    })
}

/// The words of a CamelCase name (`ModuleFilename` → `Module`, `Filename`).
fn camel_words(name: &str) -> impl Iterator<Item = &str> {
    let starts: Vec<usize> = name.char_indices().filter(|(_, c)| c.is_ascii_uppercase()).map(|(i, _)| i).collect();
    let ends: Vec<usize> = starts.iter().skip(1).copied().chain([name.len()]).collect();
    starts.into_iter().zip(ends).map(move |(a, b)| &name[a..b])
}

fn count(built: &Built) -> Counts {
    let mut counts = Counts { names: built.entries.len(), ..Counts::default() };
    for entry in &built.entries {
        counts.hex += usize::from(has_hex_suffix(entry));
        counts.url += usize::from(has_url_part(entry));
        counts.lone += usize::from(is_lone(&entry.entry.name));
    }
    counts
}

fn built(name: &str, test: &str) -> Option<Built> {
    let dir = corpus::corpus(name, test)?;
    let loaded = load_dir(&dir);
    assert!(loaded.diagnostics.is_empty(), "{name}: {:?}", loaded.diagnostics);
    let built = build(loaded.records, &Filter::default());
    assert!(built.diagnostics.is_empty(), "{name}: {:?}", built.diagnostics);
    if let Some(dir) = std::env::var_os("ERROR_CATALOG_NAMES_DUMP") {
        let mut tsv = String::new();
        for entry in &built.entries {
            let message = entry.entry.record().error_message.replace(['\t', '\n'], " ");
            writeln!(tsv, "{}\t{}\t{}", entry.entry.record().id, entry.entry.name, message).unwrap();
        }
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(std::path::Path::new(&dir).join(format!("{name}.tsv")), tsv).unwrap();
    }
    Some(built)
}

/// What tells a record from the others, as far as this test can see: its
/// message's words (URLs left out, case ignored), its file's name, the
/// function its message is passed to, where its documentation says it is
/// raised (the function after ` by `, the identifiers of the code quoted in
/// the rest of that sentence) and its error code; `None` where the test
/// cannot find one, which matches any.
#[derive(Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
struct Words {
    message: Vec<String>,
    file: String,
    callee: Option<String>,
    raised: Option<String>,
    code: Option<String>,
}

fn words_of(entry: &BuiltEntry) -> Words {
    let mut text = String::new();
    for piece in entry.entry.template.pieces.iter() {
        match piece {
            Piece::Literal(literal) => text.push_str(literal),
            // A placeholder.
            _ => text.push('\u{1}'),
        }
    }
    let message = text
        .split_whitespace()
        .filter(|token| !is_url(token))
        .flat_map(|token| token.split(|c: char| !c.is_ascii_alphanumeric()))
        .filter(|word| !word.is_empty())
        .map(str::to_ascii_lowercase)
        .collect();
    let record = &entry.entry.record();
    let mut path = record.file_path.rsplit('/');
    let base = path.next().unwrap_or("");
    let mut file = base.rsplit_once('.').map_or(base, |(stem, _)| stem);
    if matches!(file, "mod" | "__init__" | "index") {
        file = path.next().unwrap_or(file);
    }
    let raised = record.documentation.split_once(" by ").map(|(_, rest)| {
        // The function, and the identifiers quoted in the rest of the
        // sentence (a condition that differs only in numbers or operators
        // has no word of its own).
        let sentence = rest.split(". ").next().unwrap_or(rest);
        let (function, rest) = sentence.split_once(" in ").unwrap_or((sentence, ""));
        let mut quoted: Vec<&str> = rest
            .split('`')
            .skip(1)
            .step_by(2)
            .flat_map(|code| code.split(|c: char| !(c.is_alphanumeric() || c == '_')))
            .filter(|word| {
                word.len() > 1
                    && !matches!(
                        *word,
                        "err" | "nil" | "null" | "ok" | "self" | "this" | "and" | "or" | "not" | "is" | "in"
                    )
            })
            .collect();
        quoted.sort_unstable();
        quoted.dedup();
        // `update` and `_update` are one word to a name.
        let function: String = function.chars().filter(|c| *c != '_').flat_map(char::to_lowercase).collect();
        format!("{function} {}", quoted.join(" "))
    });
    let code = record.error_code.as_deref().map(str::to_owned);
    Words { message, file: file.to_ascii_lowercase(), callee: callee_guess(record), raised, code }
}

/// The identifier before the `(` that opens the call around the message's
/// first words in its source (through `_(...)`).
fn callee_guess(record: &catalog_runtime::Record) -> Option<String> {
    let source = record.source_code.as_deref()?;
    let message = &record.error_message;
    let head: String =
        message.chars().take_while(|c| !matches!(c, '%' | '{' | '$' | '\\' | '"' | '\'' | '\n')).take(16).collect();
    if head.trim().len() < 4 {
        return None;
    }
    let mut before = &source[..source.find(head.as_str())?];
    loop {
        before = before.trim_end_matches(|c: char| c.is_whitespace() || "\"'`frbuFRBU".contains(c));
        before = before.strip_suffix('(')?.trim_end();
        before = before.strip_suffix('!').unwrap_or(before);
        let start = before.rfind(|c: char| !(c.is_alphanumeric() || c == '_')).map_or(0, |i| i + 1);
        let ident = &before[start..];
        if ident.is_empty() {
            return None;
        }
        if !matches!(
            ident,
            "_" | "gettext" | "gettext_lazy" | "pgettext" | "pgettext_lazy" | "ugettext" | "ugettext_lazy"
        ) {
            return Some(ident.to_owned());
        }
        before = &before[..start];
    }
}

/// Checks the naming rule over corpus `name`, and the counts of names with
/// a hex suffix, a URL's words, or a lone preposition.
fn check(name: &str, test: &str, expected: Counts) {
    let Some(built) = built(name, test) else { return };
    let names: HashSet<&str> = built.entries.iter().map(|e| e.entry.name.as_ref()).collect();
    assert_eq!(names.len(), built.entries.len(), "{name}: names are unique");
    let again = built_again(name);
    assert_eq!(again, built.entries.iter().map(|e| e.entry.name.to_string()).collect::<Vec<_>>(), "deterministic");
    let counts = count(&built);
    eprintln!("{name}: {counts:?}");
    let url: Vec<&str> = built.entries.iter().filter(|e| has_url_part(e)).map(|e| e.entry.name.as_ref()).collect();
    assert!(url.is_empty(), "{name}: named after a URL: {url:?}");
    let lone: Vec<&str> = built.entries.iter().map(|e| e.entry.name.as_ref()).filter(|n| is_lone(n)).collect();
    assert!(lone.is_empty(), "{name}: lone prepositions: {lone:?}");
    // A hex suffix only where another record has the same words.
    let mut twins: BTreeMap<(Vec<String>, String), Vec<&Words>> = BTreeMap::new();
    let words: Vec<Words> = built.entries.iter().map(words_of).collect();
    for w in &words {
        twins.entry((w.message.clone(), w.file.clone())).or_default().push(w);
    }
    let same = |a: &Option<String>, b: &Option<String>| a.is_none() || b.is_none() || a == b;
    let mut told_apart = Vec::new();
    for (entry, w) in built.entries.iter().zip(&words) {
        if !has_hex_suffix(entry) {
            continue;
        }
        let others = &twins[&(w.message.clone(), w.file.clone())];
        let alike = others
            .iter()
            .filter(|o| same(&o.callee, &w.callee) && same(&o.raised, &w.raised) && same(&o.code, &w.code))
            .count();
        if alike < 2 {
            told_apart.push(format!("{} ({}: {:?})", entry.entry.name, entry.entry.record().id, w));
        }
    }
    assert!(
        told_apart.is_empty(),
        "{name}: hex suffixes where words tell the records apart:\n{}",
        told_apart.join("\n")
    );
    assert_eq!(counts, expected, "{name}: the counts changed");
}

/// The names of a second build of corpus `name`, its records in reverse order.
fn built_again(name: &str) -> Vec<String> {
    let dir = corpus::workspace_root().join("datasets").join(name);
    let mut records = load_dir(&dir).records;
    records.reverse();
    let built = build(records, &Filter::default());
    let mut by_id: BTreeMap<String, String> =
        built.entries.iter().map(|e| (e.entry.record().id.to_string(), e.entry.name.to_string())).collect();
    let forward = load_dir(&dir).records;
    forward.iter().map(|r| by_id.remove(r.record.id.as_ref()).expect("every record named")).collect()
}

#[test]
fn nats_server_names() {
    check("nats-server", "nats_server_names", Counts { names: 2008, hex: 74, url: 0, lone: 0 });
}

#[test]
fn nodejs_node_names() {
    check("nodejs-node", "nodejs_node_names", Counts { names: 1575, hex: 1070, url: 0, lone: 0 });
}

#[test]
fn django_names() {
    check("django", "django_names", Counts { names: 2048, hex: 22, url: 0, lone: 0 });
}

#[test]
fn cargo_names() {
    check("cargo", "cargo_names", Counts { names: 997, hex: 24, url: 0, lone: 0 });
}

#[test]
fn kafka_names() {
    check("kafka", "kafka_names", Counts { names: 5110, hex: 127, url: 0, lone: 0 });
}
