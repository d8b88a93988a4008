//! Each line to the draft that a scan with the drafts gives it.
//!
//! The groups are mined from masked tokens; a scan reads the drafts'
//! patterns as the matcher does: the one with the most literal characters
//! that matches wins (ties to the lower id, the order in which a directory
//! of drafts is loaded), a pattern that starts (ends) with literal text may
//! match after the start (before the end) of a message. So a line of one
//! group may be taken by another group's draft: a pattern of one word per
//! value laid over a line of the same shape, `name` in `namedorop-1027`,
//! `(.+?)\.` in `mirlodor.db`. Such a line moves to that draft's group,
//! whose pattern already matches it: no pattern changes, so no other line
//! changes hands, and the drafts' counts are what the scan finds.
//!
//! A key is tried by its example line (lines masked alike are matched
//! alike). Only the drafts that rank above the key's own are tried on it,
//! and only those whose literal runs are all in it, in order (the start of
//! the longest run is searched for all drafts at once); the few with no
//! run worth searching (values only) are tried on every line they outrank.
//! A draft's regex is built the first time it gets that far, so most
//! drafts never need one.

use aho_corasick::{AhoCorasick, AhoCorasickKind};
use regex::Regex;

use super::keys::Key;
use super::merge::Group;
use super::record::id_of;
use super::template::regex;
use rustc_hash::FxHashMap as HashMap;

/// What the matcher reads of a draft's pattern.
struct Shape {
    /// Literal characters outside the groups (the matcher's `literal_len`).
    literal_len: usize,
    /// The runs of them, as text, in order.
    runs: Vec<String>,
    /// The longest run.
    longest: String,
    /// The pattern begins (ends) with a group: the matcher anchors it at
    /// the start (end) of the message.
    starts_with_group: bool,
    ends_with_group: bool,
}

/// Reads a pattern as [`regex()`] writes them: literal characters (a `\`
/// escapes the next one) and top-level groups (which may nest, and hold
/// escapes and classes).
fn shape(pattern: &str) -> Shape {
    let (mut literal_len, mut depth, mut class) = (0, 0usize, false);
    let (mut run, mut runs) = (String::new(), Vec::new());
    let mut chars = pattern.chars();
    let (mut starts_with_group, mut ends_with_group, mut first) = (false, false, true);
    while let Some(c) = chars.next() {
        let escaped = if c == '\\' { chars.next() } else { None };
        if depth > 0 {
            match (c, escaped) {
                (_, Some(_)) => {}
                (']', None) if class => class = false,
                (_, None) if class => {}
                ('[', None) => class = true,
                ('(', None) => depth += 1,
                (')', None) => {
                    depth -= 1;
                    ends_with_group = depth == 0;
                }
                _ => {}
            }
            continue;
        }
        if c == '(' && escaped.is_none() {
            starts_with_group |= first;
            depth = 1;
            if !run.is_empty() {
                runs.push(std::mem::take(&mut run));
            }
        } else {
            literal_len += 1;
            run.push(escaped.unwrap_or(c));
            ends_with_group = false;
        }
        first = false;
    }
    if !run.is_empty() {
        runs.push(run);
    }
    let longest = runs.iter().max_by_key(|run| run.len()).cloned().unwrap_or_default();
    Shape { literal_len, runs, longest, starts_with_group, ends_with_group }
}

/// The start of a literal run that is searched for (a few bytes find
/// nearly as few lines as the whole run, and a search for thousands of
/// short strings is set up far faster).
fn needle(run: &str) -> &[u8] {
    let mut end = run.len().min(NEEDLE);
    while !run.is_char_boundary(end) {
        end -= 1;
    }
    &run.as_bytes()[..end]
}

const NEEDLE: usize = 16;

/// Whether `text` holds `runs` one after the other.
fn in_order(runs: &[String], text: &str) -> bool {
    let mut rest = text;
    runs.iter().all(|run| match rest.find(run.as_str()) {
        Some(at) => {
            rest = &rest[at + run.len()..];
            true
        }
        None => false,
    })
}

/// Regexes kept at once (see [`settle`]).
const REGEXES: usize = 1024;

/// A literal run shorter than this is not searched for: its draft is
/// tried on every line it outranks.
const SEARCHED: usize = 3;

/// Moves each key to the group of the draft that a scan of its line with
/// the drafts would find, when that is not its own group's; drops the
/// groups left without keys. Each group with its pattern (see [`regex()`]).
pub fn settle(keys: &[Key], groups: Vec<Group>) -> Vec<(Group, String)> {
    let patterns: Vec<String> = groups.iter().map(|g| regex(&g.template)).collect();
    let ids: Vec<String> = patterns.iter().map(|p| id_of(p)).collect();
    let shapes: Vec<Shape> = patterns.iter().map(|p| shape(p)).collect();
    // Rank: most literal characters first, then the lower id.
    let mut ranked: Vec<usize> = (0..groups.len()).collect();
    ranked.sort_by(|&a, &b| {
        (std::cmp::Reverse(shapes[a].literal_len), &ids[a]).cmp(&(std::cmp::Reverse(shapes[b].literal_len), &ids[b]))
    });
    let mut rank = vec![0u32; groups.len()];
    for (position, &g) in ranked.iter().enumerate() {
        rank[g] = position as u32;
    }
    // The drafts by the start of their longest literal run, best first;
    // those with none worth searching, best first.
    let mut by_needle: HashMap<&[u8], Vec<u32>> = HashMap::default();
    let mut always: Vec<u32> = Vec::new();
    for &g in &ranked {
        let shape = &shapes[g];
        if shape.longest.chars().count() >= SEARCHED {
            by_needle.entry(needle(&shape.longest)).or_default().push(rank[g]);
        } else {
            always.push(rank[g]);
        }
    }
    let (needles, owners): (Vec<&[u8]>, Vec<Vec<u32>>) = by_needle.into_iter().unzip();
    let finder = AhoCorasick::builder().kind(Some(AhoCorasickKind::NoncontiguousNFA)).build(needles);
    let Ok(finder) = finder else {
        return groups.into_iter().zip(patterns).collect();
    };
    // The regexes built so far, a bounded number (then they are dropped and
    // built again as needed): memory stays bounded however many drafts
    // are tried.
    let mut regexes: HashMap<usize, Option<Regex>> = HashMap::default();
    let mut matches = |g: usize, text: &str| -> bool {
        if !in_order(&shapes[g].runs, text) {
            return false;
        }
        if regexes.len() >= REGEXES && !regexes.contains_key(&g) {
            regexes.clear();
        }
        let built = regexes.entry(g).or_insert_with(|| {
            let shape = &shapes[g];
            let start = if shape.starts_with_group { "^" } else { "" };
            let end = if shape.ends_with_group { "$" } else { "" };
            Regex::new(&format!("{start}(?:{}){end}", patterns[g])).ok()
        });
        built.as_ref().is_some_and(|regex| regex.is_match(text))
    };
    let mut moves: Vec<(usize, usize, usize)> = Vec::new();
    let mut candidates: Vec<u32> = Vec::new();
    for (own, group) in groups.iter().enumerate() {
        let own_rank = rank[own];
        for (member, &key) in group.members.iter().enumerate() {
            let text = &*keys[key].example;
            candidates.clear();
            candidates.extend(always.iter().take_while(|&&r| r < own_rank));
            for found in finder.find_overlapping_iter(text) {
                candidates.extend(owners[found.pattern().as_usize()].iter().take_while(|&&r| r < own_rank));
            }
            candidates.sort_unstable();
            candidates.dedup();
            if let Some(&to) = candidates.iter().find(|&&r| matches(ranked[r as usize], text)) {
                moves.push((own, member, ranked[to as usize]));
            }
        }
    }
    let mut groups = groups;
    let mut leaving: Vec<Vec<usize>> = vec![Vec::new(); groups.len()];
    for &(own, member, to) in &moves {
        leaving[own].push(member);
        let key = groups[own].members[member];
        groups[to].members.push(key);
    }
    for (group, leaving) in groups.iter_mut().zip(leaving) {
        if !leaving.is_empty() {
            let mut index = 0;
            group.members.retain(|_| {
                index += 1;
                !leaving.contains(&(index - 1))
            });
        }
    }
    groups.into_iter().zip(patterns).filter(|(g, _)| !g.members.is_empty()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_literals_groups_and_anchors_as_the_matcher_does() {
        let s = shape(r#"persist ("(?:[^"\\]|\\.)*") \(seq=(-?[0-9]+)\): done\."#);
        assert_eq!(s.literal_len, "persist  (seq=): done.".len());
        assert_eq!(s.longest, "): done.");
        assert!(!s.starts_with_group && !s.ends_with_group);
        let s = shape(r"(\S+) at offset (.+?)");
        assert_eq!((s.literal_len, s.longest.as_str()), (" at offset ".len(), " at offset "));
        assert!(s.starts_with_group && s.ends_with_group);
        let s = shape(r"'(.*?)'");
        assert_eq!((s.literal_len, s.starts_with_group, s.ends_with_group), (2, false, false));
    }
}
