//! A message as an extractor hands it on: its [`Found`], and its parts —
//! literal text and placeholders, as the extractors of `corpus-tools/` split
//! it: the literal alphanumerics decide whether a message is specific enough
//! to keep, and the parts give its pattern.

use crate::Found;

/// A message with what its record needs beyond [`Found`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Message {
    pub found: Found,
    /// `messagePattern`: literal text escaped, each placeholder a group.
    pub pattern: String,
    /// The record's one generated sentence: what raises, logs or defines
    /// it, where, and under which condition.
    pub documentation: String,
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
