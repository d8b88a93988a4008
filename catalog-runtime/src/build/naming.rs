//! Variant names: the message's leading literal words in UpperCamelCase
//! (`unable to persist session %q ...` → `UnableToPersistSession`).
//!
//! Names are unique and stable: a record's name depends only on the records
//! whose names would collide with it, never on unrelated records or on order.
//! A record that gets a longer name when another record's message starts
//! with the same words is what a dataset's names file prevents (see
//! `crate::dataset::Names`): pinned names are reserved, and only the other
//! records are named here.

use std::collections::{HashMap, HashSet};

use crate::format::{Piece, Template};

/// Most words taken from the leading literal text.
const LEADING_WORDS: usize = 8;
/// Most words taken from all literal text, to tell colliding records apart.
const ALL_WORDS: usize = 12;

/// The naming input of one record.
#[derive(Clone, Debug)]
pub struct NameParts {
    /// Name from the leading literal words.
    pub leading: String,
    /// Name from all literal words.
    pub extended: String,
    /// The record id, for a suffix of last resort.
    pub id: String,
}

impl NameParts {
    /// Naming input for a record's compiled template and id.
    pub fn new(template: &Template, id: &str) -> Self {
        let mut leading = Vec::new();
        for piece in template.pieces.iter() {
            match piece {
                Piece::Literal(text) => leading.extend(words(text)),
                Piece::Value { .. } if !leading.is_empty() => break,
                Piece::Value { .. } => {}
            }
        }
        let all: Vec<&str> = template
            .pieces
            .iter()
            .filter_map(|piece| match piece {
                Piece::Literal(text) => Some(text.as_ref()),
                Piece::Value { .. } => None,
            })
            .flat_map(words)
            .collect();
        NameParts {
            leading: camel(&leading[..leading.len().min(LEADING_WORDS)]),
            extended: camel(&all[..all.len().min(ALL_WORDS)]),
            id: id.to_owned(),
        }
    }
}

fn words(text: &str) -> impl Iterator<Item = &str> {
    text.split(|c: char| !c.is_ascii_alphanumeric()).filter(|w| !w.is_empty())
}

fn camel(words: &[&str]) -> String {
    let mut name = String::new();
    for word in words {
        let mut chars = word.chars();
        name.extend(chars.next().map(|c| c.to_ascii_uppercase()));
        name.extend(chars.map(|c| c.to_ascii_lowercase()));
    }
    if name.is_empty() {
        name.push_str("Error");
    }
    if name.starts_with(|c: char| c.is_ascii_digit()) {
        name.insert(0, 'E');
    }
    if name == "Self" {
        name.push_str("Error");
    }
    name
}

/// Assigns a unique name to every record, none of them in `reserved` (the
/// pinned names).
///
/// 1. The leading-words name, when no other record has it.
/// 2. Otherwise the all-words name, when no other record has it as either name.
/// 3. Otherwise the all-words name plus the shortest prefix of the id (upper
///    case, at least 4 digits) that no other colliding record shares.
///
/// A name of step 1 or 2 that is reserved falls to the next step.
pub fn assign_names(parts: &[NameParts], reserved: &HashSet<&str>) -> Vec<String> {
    let mut leading_count: HashMap<&str, usize> = HashMap::new();
    for p in parts {
        *leading_count.entry(&p.leading).or_default() += 1;
    }
    // The all-words names of the records that cannot have their leading one.
    let mut extended_count: HashMap<&str, usize> = HashMap::new();
    let leading_taken = |p: &NameParts| leading_count[p.leading.as_str()] > 1 || reserved.contains(p.leading.as_str());
    for p in parts.iter().filter(|p| leading_taken(p)) {
        *extended_count.entry(&p.extended).or_default() += 1;
    }
    let mut names: Vec<Option<String>> = parts
        .iter()
        .map(|p| {
            let extended_unique = || {
                extended_count.get(p.extended.as_str()) == Some(&1)
                    && !leading_count.contains_key(p.extended.as_str())
                    && !reserved.contains(p.extended.as_str())
            };
            if leading_count[p.leading.as_str()] == 1 && !reserved.contains(p.leading.as_str()) {
                Some(p.leading.clone())
            } else if extended_unique() {
                Some(p.extended.clone())
            } else {
                None
            }
        })
        .collect();
    let mut taken: HashSet<String> = names.iter().flatten().cloned().collect();
    taken.extend(reserved.iter().map(|name| (*name).to_owned()));
    for (i, p) in parts.iter().enumerate() {
        if names[i].is_some() {
            continue;
        }
        let id = p.id.to_ascii_uppercase();
        let id: String = id.chars().filter(char::is_ascii_alphanumeric).collect();
        let rivals: Vec<String> = parts
            .iter()
            .enumerate()
            .filter(|&(j, q)| j != i && q.extended == p.extended)
            .map(|(_, q)| q.id.to_ascii_uppercase())
            .collect();
        let mut len = 4.min(id.len());
        while len < id.len() && rivals.iter().any(|r| r.starts_with(&id[..len])) {
            len += 2;
        }
        let mut name = format!("{}{}", p.extended, &id[..len.min(id.len())]);
        let mut n = 2;
        while taken.contains(&name) {
            name = format!("{}{}V{n}", p.extended, id);
            n += 1;
        }
        taken.insert(name.clone());
        names[i] = Some(name);
    }
    names.into_iter().map(|n| n.unwrap_or_default()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parts(leading: &str, extended: &str, id: &str) -> NameParts {
        NameParts { leading: leading.into(), extended: extended.into(), id: id.into() }
    }

    #[test]
    fn camel_cases_words() {
        assert_eq!(camel(&["create", "QoS2", "incoming"]), "CreateQos2Incoming");
        assert_eq!(camel(&["2pc", "failed"]), "E2pcFailed");
        assert_eq!(camel(&[]), "Error");
        assert_eq!(camel(&["self"]), "SelfError");
    }

    #[test]
    fn resolves_collisions_without_looking_at_unrelated_records() {
        let base = vec![
            parts("Stream", "StreamNotFound", "aa11"),
            parts("Stream", "StreamAlreadyExists", "bb22"),
            parts("Timeout", "Timeout", "cc33"),
            parts("Dup", "DupMessage", "dd440000"),
            parts("Dup", "DupMessage", "dd450000"),
        ];
        let names = assign_names(&base, &HashSet::new());
        assert_eq!(names, ["StreamNotFound", "StreamAlreadyExists", "Timeout", "DupMessageDD44", "DupMessageDD45"]);
        let mut more = base.clone();
        more.insert(0, parts("Unrelated", "UnrelatedThing", "0000"));
        more.push(parts("Other", "Other", "ffff"));
        assert_eq!(&assign_names(&more, &HashSet::new())[1..6], &names[..]);
    }

    #[test]
    fn reserved_names_are_never_given() {
        let base = [
            parts("Gateway", "GatewayHasNoUrl", "3ac9"),
            parts("Timeout", "Timeout", "cc33"),
            parts("Stream", "StreamGone", "aa11"),
        ];
        let reserved = HashSet::from(["Gateway", "StreamGone", "Timeout"]);
        let names = assign_names(&base, &reserved);
        assert_eq!(names, ["GatewayHasNoUrl", "TimeoutCC33", "Stream"]);
        // Two records whose leading name is reserved share the all-words one.
        let both = [parts("Gateway", "GatewayX", "1111"), parts("Gateway", "GatewayX", "2222")];
        assert_eq!(assign_names(&both, &HashSet::from(["Gateway"])), ["GatewayX1111", "GatewayX2222"]);
    }

    #[test]
    fn an_extended_name_never_takes_a_leading_name() {
        let names = assign_names(
            &[
                parts("StreamNotFound", "StreamNotFound", "1111"),
                parts("Stream", "StreamNotFound", "2222"),
                parts("Stream", "StreamGone", "3333"),
            ],
            &HashSet::new(),
        );
        assert_eq!(names, ["StreamNotFound", "StreamNotFound2222", "StreamGone"]);
    }
}
