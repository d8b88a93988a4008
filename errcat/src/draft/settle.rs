//! The groups as a scan with their drafts sees them: the drafts are a
//! catalog, and its matcher gives a line to the draft with the most literal
//! text that matches it (then the first id), which need not be the line's
//! own group's: a pattern that ends with literal text is found at the start
//! of a longer line (`Shutting down` in `Shutting down 10.1.2.3`). Each key
//! goes to the group whose draft the matcher finds in its line (for the
//! first line of the key, the example it keeps). The templates stay as they
//! are, so the matcher would find the same drafts again: a scan with the
//! drafts explains each grouped line by its group's draft, and each draft's
//! count is the lines the scan gives it. A group left without keys is no
//! draft.
//!
//! A regex for each of thousands of drafts would cost more than the mining:
//! each line is first read against the drafts' loose forms (every value
//! `%s`: they match wherever the drafts do, rank alike, and are read
//! without a regex); only a line whose own draft (which matches it: its
//! template is its keys') is not the first loose form to match it is tried
//! against the drafts that do, in rank order.

use error_catalog::{Dialect, Matcher, Template};

use super::fast_hash::HashMap;
use super::keys::Key;
use super::merge::Group;
use super::record::id_of;
use super::template::{loose_format, regex};

/// `groups` after their keys went where the drafts' matcher puts them.
pub fn settle(keys: &[Key], groups: Vec<Group>) -> Vec<Group> {
    let (mut groups, patterns) = same_pattern(groups);
    {
        // The catalog's order: the drafts' files by name, their ids (the
        // matcher ranks by literal text, then by that order).
        let mut order: Vec<(String, usize)> =
            patterns.iter().enumerate().map(|(i, pattern)| (id_of(pattern), i)).collect();
        order.sort();
        let mut loose = Vec::with_capacity(order.len());
        let mut group_of = Vec::with_capacity(order.len());
        let mut position = vec![usize::MAX; groups.len()];
        for (_, index) in &order {
            if let Ok(wide) = Template::compile(&loose_format(&groups[*index].template), Dialect::Go) {
                position[*index] = loose.len();
                loose.push(wide);
                group_of.push(*index);
            }
        }
        // Each draft's loose form matches wherever the draft does, with the
        // same literal text, so the same rank, and is read without a regex:
        // a line whose own draft comes first among the loose forms that
        // match it stays; for another, the drafts whose loose forms match
        // are tried in rank order, each by a matcher of its own, built
        // when first needed.
        let loose = Matcher::from_items(loose);
        let mut exact: Vec<Option<Option<Matcher<Template>>>> = (0..group_of.len()).map(|_| None).collect();
        let mut moves: Vec<(usize, usize, usize)> = Vec::new();
        for (index, group) in groups.iter().enumerate() {
            let own = position[index];
            if own == usize::MAX {
                continue;
            }
            for (slot, &key) in group.members.iter().enumerate() {
                let line = &keys[key].example;
                if loose.find(line).is_some_and(|m| m.index == own) {
                    continue;
                }
                let found = loose.find_all(line).into_iter().map(|m| m.index).find(|&at| {
                    let matcher = exact[at].get_or_insert_with(|| {
                        let pattern = &patterns[group_of[at]];
                        Template::compile(pattern, Dialect::Pattern).ok().map(|t| Matcher::from_items(vec![t]))
                    });
                    matcher.as_ref().is_some_and(|m| m.find(line).is_some())
                });
                if let Some(to) = found.map(|at| group_of[at]).filter(|&to| to != index) {
                    moves.push((index, slot, to));
                }
            }
        }
        let mut arriving: Vec<(usize, usize)> = Vec::with_capacity(moves.len());
        for &(from, slot, to) in &moves {
            arriving.push((to, groups[from].members[slot]));
        }
        // Out of each giver, from the last slot down (slots stay valid).
        for &(from, slot, _) in moves.iter().rev() {
            groups[from].members.remove(slot);
        }
        for (to, key) in arriving {
            groups[to].members.push(key);
        }
    }
    groups.retain(|g| !g.members.is_empty());
    groups
}

/// Groups with the same pattern are one draft (one id, one file): one group.
fn same_pattern(groups: Vec<Group>) -> (Vec<Group>, Vec<String>) {
    let mut by_pattern: HashMap<String, usize> = HashMap::default();
    let mut out: Vec<Group> = Vec::with_capacity(groups.len());
    let mut patterns: Vec<String> = Vec::with_capacity(groups.len());
    for group in groups {
        let pattern = regex(&group.template);
        match by_pattern.get(&pattern) {
            Some(&at) => out[at].members.extend(group.members),
            None => {
                by_pattern.insert(pattern.clone(), out.len());
                patterns.push(pattern);
                out.push(group);
            }
        }
    }
    (out, patterns)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::draft::keys::{Keys, Place};
    use crate::draft::template::of_keys;

    fn keys(lines: &[&str]) -> Keys {
        let mut keys = Keys::new(100);
        for (i, line) in lines.iter().enumerate() {
            keys.add(line, Place { input: 0, line: i as u64 + 1 }, None);
        }
        keys
    }

    #[test]
    fn a_line_goes_to_the_draft_that_a_scan_finds_in_it() {
        let lines = [
            "kavu failed",
            "mirzo failed",
            "connect failed to open é/日本",
            // With the first two, whose draft `(\S+) failed` matches it; but
            // the draft before, with more literal text, is found in it too
            // (a pattern that ends with literal text matches a line's start).
            "connect failed to open é/日本 now",
        ];
        let keys = keys(&lines);
        let keys = &keys.keys;
        assert_eq!(keys.len(), 4);
        let group = |template: &[usize], members: Vec<usize>| Group { template: of_keys(keys, template), members };
        let groups = settle(keys, vec![group(&[0, 1], vec![0, 1, 3]), group(&[2], vec![2])]);
        let members: Vec<Vec<usize>> = groups.iter().map(|g| g.members.clone()).collect();
        assert_eq!(members, [vec![0, 1], vec![2, 3]]);
        // Each line is found by its own group's draft.
        let templates: Vec<Template> =
            groups.iter().map(|g| Template::compile(&regex(&g.template), Dialect::Pattern).unwrap()).collect();
        let matcher = Matcher::from_items(templates);
        for (index, group) in groups.iter().enumerate() {
            for &key in &group.members {
                assert_eq!(matcher.find(&keys[key].example).map(|m| m.index), Some(index), "{}", keys[key].example);
            }
        }
    }

    #[test]
    fn groups_of_one_pattern_are_one() {
        let lines = ["disk full on vol-1", "disk full on vol-2 now", "disk full on vol-3"];
        let keys = keys(&lines);
        let keys = &keys.keys;
        assert_eq!(keys.len(), 2);
        let one = Group { template: of_keys(keys, &[0]), members: vec![0] };
        let again = Group { template: of_keys(keys, &[0]), members: vec![1] };
        let groups = settle(keys, vec![one, again]);
        assert_eq!(groups.len(), 1);
        assert_eq!(groups[0].members, [0, 1]);
    }
}
