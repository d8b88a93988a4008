//! A message as an extractor hands it on: its [`Found`], and its parts —
//! literal text and placeholders, as the extractors of `corpus-tools/` split
//! it: the literal alphanumerics decide whether a message is specific enough
//! to keep, and the parts give its pattern.

use crate::Found;

/// A message with its `messagePattern`, which the language's own format
/// syntax decides (`Found::context` holds the documentation sentence).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Message {
    pub found: Found,
    /// `messagePattern`: literal text escaped, each placeholder a group.
    pub pattern: String,
}

/// The patterns of the messages a language found, kept from
/// `extract_file` for `message_pattern`.
#[derive(Debug, Default)]
pub struct Patterns(std::sync::Mutex<std::collections::BTreeMap<(String, u32, String), String>>);

impl Patterns {
    pub const fn new() -> Patterns {
        Patterns(std::sync::Mutex::new(std::collections::BTreeMap::new()))
    }

    /// Keeps the messages' patterns and returns what they found.
    pub fn keep(&self, messages: Vec<Message>) -> Vec<Found> {
        let mut patterns = self.0.lock().unwrap_or_else(|e| e.into_inner());
        messages
            .into_iter()
            .map(|m| {
                patterns.insert((m.found.file.clone(), m.found.line, m.found.message.clone()), m.pattern);
                m.found
            })
            .collect()
    }

    /// The pattern kept for `found`; a message never found is literal text.
    pub fn of(&self, found: &Found) -> String {
        let patterns = self.0.lock().unwrap_or_else(|e| e.into_inner());
        let key = (found.file.clone(), found.line, found.message.clone());
        patterns.get(&key).cloned().unwrap_or_else(|| pattern_of(&[Part::Lit(found.message.clone())]))
    }
}

/// A placeholder whose value may render as an empty string.
pub const GROUP_ANY: &str = "(.*?)";
/// A placeholder whose value never renders empty (numbers, `repr`, JSON).
pub const GROUP_SOME: &str = "(.+?)";

/// Messages with fewer literal alphanumerics than this are too vague to keep
/// (`"%s: %s"`, `` `${name}` ``).
pub const MIN_LITERAL_ALNUM: usize = 8;

/// One piece of a message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Part {
    /// Text written as it is.
    Lit(String),
    /// A value filled in at run time; the regex group it matches.
    Value(&'static str),
}

/// Appends `text` to `parts`, merged into a preceding literal.
pub fn push_lit(parts: &mut Vec<Part>, text: &str) {
    if text.is_empty() {
        return;
    }
    match parts.last_mut() {
        Some(Part::Lit(last)) => last.push_str(text),
        _ => parts.push(Part::Lit(text.to_string())),
    }
}

/// The message's `messagePattern`: literals escaped, placeholders as groups.
pub fn pattern_of(parts: &[Part]) -> String {
    let mut out = String::new();
    for part in parts {
        match part {
            Part::Lit(text) => {
                for c in text.chars() {
                    if ".^$*+?()[]{}|\\".contains(c) {
                        out.push('\\');
                    }
                    out.push(c);
                }
            }
            Part::Value(group) => out.push_str(group),
        }
    }
    out
}

/// How many alphanumeric characters the literal parts hold.
pub fn literal_alnum(parts: &[Part]) -> usize {
    parts
        .iter()
        .map(|part| match part {
            Part::Lit(text) => text.chars().filter(|c| c.is_alphanumeric()).count(),
            Part::Value(_) => 0,
        })
        .sum()
}
