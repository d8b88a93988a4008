//! What the tree cannot see, being one length at a time: a value of several
//! words puts a line in another length than its template's other lines, and
//! a value seen many times (a stream name) looks like a constant word.
//! Three passes fix these, in order:
//!
//! 1. siblings: [`SIBLINGS`] groups or more whose templates differ in one
//!    word only are one template with a value there, and so are fewer
//!    when another such family has the same words after the same word
//!    (see [`shared_values`]);
//! 2. absorbing: a key that lies in a strong template (two lines or more,
//!    as many constant words as values) with more constant words than its
//!    own group's, its values spanning any number of words, joins that
//!    template's group (a key of a strong group only joins a larger one);
//!    so does a key whose group only fills the template's values otherwise
//!    (an empty value, `version .` for `version %s.`). Again for the groups
//!    that changed, until no key moves: a group whose other keys left may
//!    be one line that a template takes;
//! 3. the same template: groups whose templates are the same once each run
//!    of values is one value are one group.

use super::keys::Key;
use super::mask::{has_spaced_value, is_keyed_value, is_punctuation, parts, Mask, Part, GLUE};
use super::template::{align, collapsed, constants, flexible, of_keys, Slot};
use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};

/// Groups whose templates differ only in the word at one position, this
/// many or more, are one template with a value there: a word seen in that
/// many forms, each on several lines, is a value seen often (a stream name),
/// not a word of an event. Set high: on the mining benchmark's corpora,
/// records that differ in one word (`You must set %s`-like families of
/// a dozen or two) are many, and a lower number merged them.
pub const SIBLINGS: usize = 32;

/// A group of keys and its template.
pub struct Group {
    pub template: Vec<Slot>,
    pub members: Vec<usize>,
}

/// The groups of `split` (each of one length) after the three passes.
pub fn merge(keys: &[Key], split: Vec<Vec<usize>>) -> Vec<Group> {
    let groups = split.into_iter().map(|members| Group { template: of_keys(keys, &members), members }).collect();
    let mut groups = siblings(groups);
    // A group whose other keys joined their templates may be left with a
    // line that another template now takes, and a template that took lines
    // may now take more: again, for the groups that changed, until no key
    // moves.
    let mut changed: Option<HashSet<usize>> = None;
    for _ in 0..ABSORB_ROUNDS {
        let now;
        (groups, now) = absorb(keys, groups, changed.as_ref());
        if now.is_empty() {
            break;
        }
        changed = Some(now);
    }
    same_template(groups)
}

/// Rounds of [`absorb`] at most (each round after the first moves few keys).
const ABSORB_ROUNDS: usize = 3;

fn lines(keys: &[Key], group: &Group) -> u64 {
    group.members.iter().map(|&i| keys[i].count).sum()
}

/// A template with a value at one position: the position, the length and
/// a hash of the other slots (members are compared in full before a merge).
type Signature = (usize, usize, u64);

fn siblings(groups: Vec<Group>) -> Vec<Group> {
    use std::hash::BuildHasher;
    let build = rustc_hash::FxBuildHasher;
    let mut groups: Vec<Option<Group>> = groups.into_iter().map(Some).collect();
    let mut by_signature: HashMap<Signature, Vec<usize>> = HashMap::default();
    for (index, group) in groups.iter().enumerate() {
        let template = &group.as_ref().expect("all present").template;
        let slot_hashes: Vec<u64> = template.iter().map(|slot| build.hash_one(slot)).collect();
        for (position, slot) in template.iter().enumerate() {
            if let Slot::Const(_) = slot {
                let others = slot_hashes.iter().enumerate().filter(|(i, _)| *i != position);
                let hash =
                    others.fold(0u64, |hash, (_, h)| (hash.rotate_left(5) ^ h).wrapping_mul(0x9e37_79b9_7f4a_7c15));
                by_signature.entry((position, template.len(), hash)).or_default().push(index);
            }
        }
    }
    let shared = shared_values(&groups, &by_signature);
    let mut families: Vec<(Signature, Vec<usize>)> = by_signature
        .into_iter()
        .filter(|(signature, members)| members.len() >= SIBLINGS || shared.contains(signature))
        .collect();
    families.sort_by_key(|(_, members)| members[0]);
    let mut merged = Vec::new();
    for ((position, _, _), members) in families {
        let Some(first) = groups[members[0]].as_ref().map(|g| g.template.clone()) else { continue };
        let same_elsewhere =
            |g: &Group| g.template.iter().zip(&first).enumerate().all(|(i, (a, b))| i == position || a == b);
        let members: Vec<usize> =
            members.into_iter().filter(|&i| groups[i].as_ref().is_some_and(same_elsewhere)).collect();
        if members.len() < 2 {
            continue;
        }
        // A group is in one family at most: the first that takes it.
        let taken: Vec<Group> = members.iter().filter_map(|&i| groups[i].take()).collect();
        let Some(first) = taken.first() else { continue };
        let mut template = first.template.clone();
        let empty = taken.iter().any(|g| matches!(&g.template[position], Slot::Const(w) if w.is_empty()));
        let glued = template[position].glued();
        template[position] = Slot::Var { kind: Mask::Text, may_be_empty: empty, words: false, glued, either: false };
        let members = taken.into_iter().flat_map(|g| g.members).collect();
        merged.push(Group { template, members });
    }
    let mut all: Vec<Group> = groups.into_iter().flatten().chain(merged).collect();
    all.sort_by_key(|g| g.members.iter().copied().min());
    all
}

/// The families of siblings (two groups or more, differing in the word at
/// one position) whose words there, [`SHARED_VALUES`] of them at least,
/// are another family's words after the same word: `session opened for
/// user cyrus` and `... news`, `session closed for user cyrus` and `...
/// news`. Words that the same word names in two events are one value's
/// (user names), where states (`Worker started`, `Herder started`) and
/// the names that start a message (`processLeafSub Parse Error`) are not.
fn shared_values(groups: &[Option<Group>], by_signature: &HashMap<Signature, Vec<usize>>) -> HashSet<Signature> {
    let template = |index: usize| &groups[index].as_ref().expect("all present").template;
    let word_at = |index: usize, position: usize| match &template(index)[position] {
        Slot::Const(word) if !word.is_empty() && !is_punctuation(word) && !is_keyed_value(word) => Some(&**word),
        _ => None,
    };
    let mut families_of: HashMap<(&str, &str), Vec<Signature>> = HashMap::default();
    let mut words_of: Vec<(Signature, HashSet<(&str, &str)>)> = Vec::new();
    for (signature, members) in by_signature {
        let position = signature.0;
        if members.len() < 2 || position == 0 {
            continue;
        }
        let Some(before) = word_at(members[0], position - 1) else { continue };
        let words: HashSet<(&str, &str)> =
            members.iter().filter_map(|&i| word_at(i, position)).map(|word| (before, word)).collect();
        for &named in &words {
            families_of.entry(named).or_default().push(*signature);
        }
        words_of.push((*signature, words));
    }
    let mut shared = HashSet::default();
    for (signature, words) in &words_of {
        let mut seen: HashMap<Signature, usize> = HashMap::default();
        for named in words {
            for other in &families_of[named] {
                if other != signature {
                    *seen.entry(*other).or_default() += 1;
                }
            }
        }
        if seen.values().any(|&n| n >= SHARED_VALUES) {
            shared.insert(*signature);
        }
    }
    shared
}

/// Words two families share, at least, for them to be values: two are
/// often a state's (`true`, `false`).
const SHARED_VALUES: usize = 3;

/// Whether a group's template is a poor one: one line, or fewer constant
/// words than values (in its shortest line).
fn weak(keys: &[Key], group: &Group) -> bool {
    let shortest = group.members.iter().map(|&key| keys[key].tokens.len()).min().unwrap_or(0);
    lines(keys, group) < 2 || constants(&group.template) * 2 < shortest
}

/// Moves keys into the strong templates they lie in; the groups after, and
/// which of them gave or took keys. With `changed` (the groups that did in
/// the round before), only moves that a change may allow are looked for: a
/// key of a group that changed to any template, another to one that changed
/// (the others did not take it before, and still would not).
fn absorb(keys: &[Key], mut groups: Vec<Group>, changed: Option<&HashSet<usize>>) -> (Vec<Group>, HashSet<usize>) {
    let strong: Vec<bool> = groups.iter().map(|g| !weak(keys, g)).collect();
    let line_counts: Vec<u64> = groups.iter().map(|g| lines(keys, g)).collect();
    // Values may take several words: the templates with each run of values as one.
    let templates: Vec<Vec<Slot>> = groups.iter().map(|g| collapsed(&g.template)).collect();
    let constant_counts: Vec<usize> = templates.iter().map(|t| constants(t)).collect();
    // The strong templates with a value, by their first word when it is a
    // constant (a key must start with it), else by their first constant word
    // (a key must have it somewhere).
    let mut by_first: HashMap<&str, Vec<usize>> = HashMap::default();
    let mut by_anchor: HashMap<&str, Vec<usize>> = HashMap::default();
    for (index, template) in templates.iter().enumerate() {
        if !strong[index] || !template.iter().any(|s| matches!(s, Slot::Var { .. })) {
            continue;
        }
        let first_constant = template.iter().find_map(|slot| match slot {
            Slot::Const(word) => Some(&**word),
            Slot::Var { .. } => None,
        });
        match (&template[0], first_constant) {
            (Slot::Const(word), _) => by_first.entry(word).or_default().push(index),
            // Glued or not: after an empty value, the space before it is the word's.
            (Slot::Var { .. }, Some(word)) => by_anchor.entry(unglued(word)).or_default().push(index),
            (Slot::Var { .. }, None) => {}
        }
    }
    let mut moved: Vec<(usize, usize, Vec<std::ops::Range<usize>>)> = Vec::new();
    let mut candidates: Vec<usize> = Vec::new();
    for (index, group) in groups.iter().enumerate() {
        let only_changed = changed.filter(|changed| !changed.contains(&index));
        // A strong group's keys go only to templates with more lines too.
        let lines_here = line_counts[index];
        // A single line goes to any strong template it lies in; the lines of
        // a group of several, to one with more constant words than theirs.
        let own = if lines_here == 1 { 0 } else { constants(&group.template) };
        // The group's own constants, by position, when its keys are of its
        // template's length.
        let own_constants: Option<Vec<bool>> = group
            .members
            .iter()
            .all(|&key| keys[key].tokens.len() == group.template.len())
            .then(|| group.template.iter().map(|slot| !flexible(slot)).collect());
        // A template with as many constant words as the group's may take
        // its keys only when they fill its values (see [`only_values`]):
        // each of the group's constant words is then one of its own.
        // A strong group goes to a template with fewer lines only when it
        // fills that template's values (an empty value is still a value:
        // `connection from %s ()` is `connection from %s (%s)`), never to
        // one with more constant words.
        let larger = |h: usize| !strong[index] || line_counts[h] > lines_here;
        let fits = |h: usize, length: usize| {
            h != index
                && only_changed.is_none_or(|changed| changed.contains(&h))
                && constant_counts[h] <= length
                && (constant_counts[h] > own && larger(h) || constant_counts[h] == own && own_constants.is_some())
        };
        for &key in &group.members {
            let tokens = &keys[key].tokens;
            candidates.clear();
            candidates.extend(by_first.get(&*tokens[0]).into_iter().flatten().filter(|&&h| fits(h, tokens.len())));
            for token in tokens.iter() {
                let anchored = by_anchor.get(unglued(token)).into_iter().flatten();
                candidates.extend(anchored.filter(|&&h| fits(h, tokens.len())));
            }
            // The most constant words first: the first that lies there wins.
            candidates.sort_unstable_by_key(|&h| (std::cmp::Reverse(constant_counts[h]), h));
            candidates.dedup();
            // A template with more constant words than the group's; or one
            // whose values the group only fills otherwise (see [`only_values`]).
            let takes = |h: usize, ranges: &[std::ops::Range<usize>]| {
                constant_counts[h] > own
                    || own_constants.as_deref().is_some_and(|own| only_values(&templates[h], ranges, own))
            };
            let best = candidates.iter().find_map(|&h| {
                let ranges = align(&templates[h], tokens)?;
                takes(h, &ranges).then_some((h, ranges))
            });
            if let Some((h, ranges)) = best {
                moved.push((key, h, ranges));
            }
        }
    }
    // A group that takes keys keeps its template (all its keys lie in it);
    // one that only gives keys away gets the template of those left.
    let taking: HashSet<usize> = moved.iter().map(|(_, to, _)| *to).collect();
    let leaving: HashSet<usize> = moved.iter().map(|(key, _, _)| *key).collect();
    let mut changes = vec![false; groups.len()];
    for (index, group) in groups.iter_mut().enumerate() {
        let before = group.members.len();
        group.members.retain(|key| !leaving.contains(key));
        changes[index] = group.members.len() < before || taking.contains(&index);
        if taking.contains(&index) {
            continue;
        }
        let length = group.members.first().map(|&key| keys[key].tokens.len());
        // A group merged across lengths keeps its template (its keys lie in it).
        if length.is_some_and(|length| group.members.iter().all(|&key| keys[key].tokens.len() == length)) {
            group.template = of_keys(keys, &group.members);
        }
    }
    for (key, to, ranges) in moved {
        let group = &mut groups[to];
        if group.template.len() != templates[to].len() {
            group.template = templates[to].clone();
        }
        let tokens = &keys[key].tokens;
        // Where a value takes no token and the next slot is punctuation
        // glued to it that this key has after a space (`address .` for
        // `address %s.`), the space is still there.
        let spaced: Vec<bool> = (0..ranges.len())
            .map(|i| {
                let next = group.template.get(i + 1);
                let token = tokens.get(ranges[i].start).map(|t| &**t);
                matches!(next, Some(Slot::Const(word)) if word.strip_prefix(GLUE).is_some() && word.strip_prefix(GLUE) == token)
            })
            .collect();
        for ((slot, range), spaced) in group.template.iter_mut().zip(ranges).zip(spaced) {
            // A constant with a masked value that the key has otherwise is a value.
            let differs = matches!(&*slot, Slot::Const(word) if tokens[range.clone()] != [word.clone()]);
            if differs && flexible(slot) {
                let glued = slot.glued();
                *slot = Slot::Var { kind: Mask::Text, may_be_empty: false, words: false, glued, either: false };
            }
            if let Slot::Var { kind, words, may_be_empty, glued, either } = slot {
                if range.len() != 1 {
                    *kind = Mask::Text;
                    *words |= range.len() > 1;
                }
                // A date's or a quoted string's spaces, in a value of other kinds too.
                *words |= tokens[range.clone()].iter().any(|token| has_spaced_value(token));
                *may_be_empty |= tokens[range.clone()].iter().all(|token| token.is_empty());
                // A value that takes no token here takes no space either
                // (`of constraints` for `of %s constraints`): the space
                // before it is the value's (after it, for the first slot:
                // `Failed record` for `%s Failed record`). The format string
                // keeps the space: `glued` stays as it was.
                if range.is_empty() && !*glued && !spaced {
                    *either = true;
                }
            }
        }
        group.members.push(key);
    }
    // Indices after the empty groups are gone.
    let mut changed = HashSet::default();
    let mut kept = Vec::with_capacity(groups.len());
    for (group, change) in groups.into_iter().zip(changes) {
        if !group.members.is_empty() {
            if change {
                changed.insert(kept.len());
            }
            kept.push(group);
        }
    }
    (kept, changed)
}

/// `token` without the mark of a token glued to the one before.
fn unglued(token: &str) -> &str {
    token.strip_prefix(GLUE).unwrap_or(token)
}

/// Whether a key, aligned to `template` at `ranges`, differs from it only
/// in its values: none of its group's constant words (`own`, by position)
/// lies in a value of the template, and a value it leaves out (no token)
/// is followed by punctuation glued to it, which the value's absence left
/// after a space (`version .` for `version %s.`, ``` `` ``` for `` `%s` ``).
/// A group that is the template with other values, or an empty one, is not
/// another event; one with words where the template has a value may be
/// (`VM Started on %s` and `VM %s on %s`).
fn only_values(template: &[Slot], ranges: &[std::ops::Range<usize>], own: &[bool]) -> bool {
    template.iter().zip(ranges).enumerate().all(|(i, (slot, range))| {
        if !flexible(slot) {
            true
        } else if range.is_empty() {
            template.get(i + 1).is_some_and(|next| next.glued() && !flexible(next))
        } else {
            !own[range.clone()].iter().any(|&constant| constant)
        }
    })
}

/// Merges groups whose templates are the same once runs of values are one.
fn same_template(groups: Vec<Group>) -> Vec<Group> {
    let mut by_template: HashMap<Vec<Slot>, usize> = HashMap::default();
    let mut out: Vec<Group> = Vec::new();
    for group in groups {
        let key = collapsed(&group.template).into_iter().map(without_kind).collect::<Vec<_>>();
        // Templates of values only say nothing of their events: never one.
        let known = if constants(&key) > 0 { by_template.get(&key) } else { None };
        match known {
            Some(&at) => {
                let into = &mut out[at];
                let mut theirs = group.template.clone();
                if into.template.len() != theirs.len() {
                    // The same template, with runs of values of other lengths.
                    into.template = collapsed(&into.template);
                    theirs = collapsed(&theirs);
                }
                for (slot, theirs) in into.template.iter_mut().zip(&theirs) {
                    if let (
                        Slot::Var { kind, may_be_empty, words, .. },
                        Slot::Var { kind: k, may_be_empty: e, words: w, .. },
                    ) = (slot, theirs)
                    {
                        if kind != k {
                            *kind = Mask::Text;
                        }
                        *may_be_empty |= *e;
                        *words |= *w;
                    }
                }
                into.members.extend(group.members);
            }
            None => {
                by_template.insert(key, out.len());
                out.push(group);
            }
        }
    }
    out
}

/// The groups whose templates have a word of their own (a letter or digit
/// outside the values), and the lines left out. A template of values and
/// punctuation only (`%s %s%s`) says nothing of its event and, as a draft,
/// matches any line of its shape, other groups' lines too: its keys are
/// groups of their own, each with its own template, and a key that is
/// values only itself (a line that is one number) is left out.
pub fn with_words(keys: &[Key], groups: Vec<Group>) -> (Vec<Group>, u64) {
    let mut kept = Vec::with_capacity(groups.len());
    let mut left_out = 0;
    for mut group in groups {
        if has_word(&group.template) {
            at_most_values(&mut group.template);
            kept.push(group);
            continue;
        }
        for key in group.members {
            let mut template = of_keys(keys, &[key]);
            if has_word(&template) {
                at_most_values(&mut template);
                kept.push(Group { template, members: vec![key] });
            } else {
                left_out += keys[key].count;
            }
        }
    }
    (kept, left_out)
}

/// The most values a record's message may have (the loader's limit,
/// `MAX_PLACEHOLDERS` of the runtime's dataset limits).
const MAX_VALUES: usize = 100;

/// A template of more than [`MAX_VALUES`] values (a dump of a dictionary)
/// keeps its first ones; the rest of it, from the last value it may keep
/// on, is that one value, of any words: a record that `errcat check` and the
/// loader accept, which still matches every line of the group.
fn at_most_values(template: &mut Vec<Slot>) {
    let values_in = |slot: &Slot| match slot {
        Slot::Var { .. } => 1,
        Slot::Const(word) => parts(word).iter().filter(|part| matches!(part, Part::Value(_))).count(),
    };
    if template.iter().map(values_in).sum::<usize>() <= MAX_VALUES {
        return;
    }
    let mut values = 0;
    for (index, slot) in template.iter().enumerate() {
        values += values_in(slot);
        if values >= MAX_VALUES {
            let glued = slot.glued();
            template.truncate(index);
            template.push(Slot::Var { kind: Mask::Text, may_be_empty: true, words: true, glued, either: false });
            return;
        }
    }
}

fn has_word(template: &[Slot]) -> bool {
    template.iter().any(|slot| match slot {
        Slot::Const(word) => parts(word)
            .iter()
            .any(|part| matches!(part, Part::Literal(text) if text.chars().any(char::is_alphanumeric))),
        Slot::Var { .. } => false,
    })
}

fn without_kind(slot: Slot) -> Slot {
    match slot {
        Slot::Var { glued, .. } => {
            Slot::Var { kind: Mask::Text, may_be_empty: false, words: false, glued, either: false }
        }
        constant => constant,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::draft::keys::{Keys, Place};
    use crate::draft::tree::split;

    /// The keys of `lines` and their groups as the tree splits them, before merging.
    fn keyed_and_split(lines: &[&str]) -> (Keys, Vec<Vec<usize>>) {
        let mut keys = Keys::new(1000);
        for (i, line) in lines.iter().enumerate() {
            keys.add(line, 0, Place { input: 0, line: i as u64 }, None);
        }
        let mut by_length: std::collections::BTreeMap<usize, Vec<usize>> = Default::default();
        for (i, key) in keys.keys.iter().enumerate() {
            by_length.entry(key.tokens.len()).or_default().push(i);
        }
        let split: Vec<Vec<usize>> = by_length.into_values().flat_map(|m| split(&keys.keys, m)).collect();
        (keys, split)
    }

    fn mined(lines: &[&str]) -> Vec<Vec<String>> {
        let (keys, split) = keyed_and_split(lines);
        merge(&keys.keys, split)
            .into_iter()
            .map(|g| {
                let mut lines: Vec<String> = g.members.iter().map(|&i| keys.keys[i].example.to_string()).collect();
                lines.sort();
                lines
            })
            .collect()
    }

    #[test]
    fn a_line_that_joins_with_an_empty_value_makes_the_value_one_that_may_be_empty() {
        let lines = ["status alpha done with beta", "status gamma done with delta", "status e f done with "];
        let mut keys = Keys::new(10);
        for (i, line) in lines.iter().enumerate() {
            keys.add(line, 0, Place { input: 0, line: i as u64 }, None);
        }
        let groups = merge(&keys.keys, vec![vec![0, 1], vec![2]]);
        assert_eq!(groups.len(), 1);
        let pattern = crate::draft::template::regex(&groups[0].template);
        assert_eq!(pattern, "status (.+?) done with (\\S*)");
        let regex = regex::Regex::new(&format!("^{pattern}$")).unwrap();
        assert!(lines.iter().all(|line| regex.is_match(line)), "{pattern}");
    }

    #[test]
    fn a_large_group_with_a_value_left_empty_joins_the_smaller_template_with_it() {
        let mut lines = vec!["connection from 10.0.0.1 () at 12:00"; 6];
        lines.extend(["connection from 10.0.0.2 (host.example) at 12:01"; 1]);
        lines.extend(["connection from 10.0.0.3 (other.example) at 12:02"; 1]);
        lines.extend(["connection from 10.0.0.4 (third.example) at 12:03"; 1]);
        assert_eq!(mined(&lines).len(), 1, "{:#?}", mined(&lines));
    }

    #[test]
    fn words_that_vary_alike_in_two_events_are_values() {
        let mut lines = Vec::new();
        for user in ["cyrus", "news", "test"] {
            lines.extend([
                format!("session opened for user {user} by (uid=0)"),
                format!("session opened for user {user} by (uid=0)"),
            ]);
            lines.extend([format!("session closed for user {user}"), format!("session closed for user {user}")]);
        }
        // Two events that differ in one word, that no other event shares.
        lines.extend(
            ["VM Started on alpha", "VM Started on beta", "VM Paused on gamma", "VM Paused on delta"]
                .map(str::to_owned),
        );
        let lines: Vec<&str> = lines.iter().map(String::as_str).collect();
        let groups = mined(&lines);
        assert_eq!(groups.len(), 4, "{groups:#?}");
        // (Lines alike are one key: a group of three keys is six lines.)
        assert!(
            groups.iter().any(|g| g.len() == 3 && g.iter().all(|l| l.starts_with("session closed"))),
            "{groups:#?}"
        );
    }

    #[test]
    fn a_value_of_several_words_joins_its_template() {
        let groups = mined(&[
            "connect to alpha failed",
            "connect to beta failed",
            "connect to a b c failed",
            "disk full on vol1 now",
        ]);
        assert!(groups.contains(&vec![
            "connect to a b c failed".to_owned(),
            "connect to alpha failed".to_owned(),
            "connect to beta failed".to_owned()
        ]));
    }

    /// A plain word (letters only: no mask takes it) for `n`.
    fn word(n: usize) -> String {
        let letters = |d: usize| char::from(b'a' + (d % 26) as u8);
        format!("str{}{}", letters(n / 26), letters(n))
    }

    #[test]
    fn many_siblings_are_one_template() {
        let lines: Vec<String> = (0..SIBLINGS)
            .flat_map(|n| [format!("stream {} created", word(n)), format!("stream {} created", word(n))])
            .collect();
        let lines: Vec<&str> = lines.iter().map(String::as_str).collect();
        assert_eq!(mined(&lines).len(), 1);
        // Fewer are events that differ in a word, told apart.
        assert_eq!(mined(&lines[..2 * (SIBLINGS - 1)]).len(), SIBLINGS - 1);
        let two = ["stream a1 created", "stream b2 deleted", "stream c3 created", "stream d4 deleted"];
        assert_eq!(mined(&two).len(), 2);
    }

    /// The lines of each group, each group's lines sorted, and the groups
    /// sorted, with the group's regex.
    fn mined_with_patterns(lines: &[&str]) -> Vec<(String, Vec<String>)> {
        let (keys, split) = keyed_and_split(lines);
        let mut groups: Vec<(String, Vec<String>)> = merge(&keys.keys, split)
            .into_iter()
            .map(|g| {
                let mut lines: Vec<String> = g.members.iter().map(|&i| keys.keys[i].example.to_string()).collect();
                lines.sort();
                (crate::draft::template::regex(&g.template), lines)
            })
            .collect();
        groups.sort();
        groups
    }

    /// Each group's pattern matches every line of it, whole.
    fn assert_each_pattern_matches_its_lines(groups: &[(String, Vec<String>)]) {
        for (pattern, members) in groups {
            let regex = regex::Regex::new(&format!("^{pattern}$")).unwrap();
            assert!(members.iter().all(|line| regex.is_match(line)), "{pattern}: {members:?}");
        }
    }

    #[test]
    fn lines_with_a_value_left_empty_join_the_template_with_that_value() {
        // `address .` is `address %s.` with an empty value (its space is
        // left before the glued full stop), ``` `` ``` is `` `%s` ``.
        let lines = [
            "Error parsing host address tenmir. Expected format host:port.",
            "Error parsing host address vumirop-4464. Expected format host:port.",
            "Error parsing host address [::1]:80. Expected format host:port.",
            "Error parsing host address . Expected format host:port.",
            "Error parsing host address . Expected format host:port.",
            "feature `é日本` of `kaquilo` is unknown",
            "feature `x-7` of `bexran` is unknown",
            "feature `talop` of `a, b` is unknown",
            "feature `` of `opnu` is unknown",
            "feature `` of `mirzo` is unknown",
        ];
        let groups = mined_with_patterns(&lines);
        assert_eq!(groups.len(), 2, "{groups:#?}");
        assert_eq!(groups[0].0, "Error parsing host address (\\S*)\\. Expected format host:port\\.");
        assert_eq!(groups[1].0, "feature `(\\S*)` of `(.+?)` is unknown");
        assert_each_pattern_matches_its_lines(&groups);
    }

    #[test]
    fn a_date_in_a_value_of_other_kinds_keeps_its_spaces_in_the_pattern() {
        let lines = [
            "megaraid: probe disk-1 done",
            "megaraid: probe disk-2 done",
            "megaraid: probe Mon Sep 27 22:15:07 done",
            "megaraid: probe Tue Sep 28 09:00:00 done",
        ];
        let groups = mined_with_patterns(&lines);
        assert_eq!(groups.len(), 1, "{groups:#?}");
        assert_each_pattern_matches_its_lines(&groups);
    }

    #[test]
    fn a_line_whose_first_value_is_empty_joins_its_template() {
        // `: resolved` has the colon that follows the value unglued.
        let lines = [
            "logridornu-1568: resolved wildcard host to talmirquivu",
            "bexpel kasakaop: resolved wildcard host to ${x}348",
            "zomirranbex-1644: resolved wildcard host to opop-8272",
            ": resolved wildcard host to mirrangrisa sazo",
        ];
        let groups = mined_with_patterns(&lines);
        assert_eq!(groups.len(), 1, "{groups:#?}");
        assert_eq!(groups[0].0, "(.*?): resolved wildcard host to (.+?)");
    }

    #[test]
    fn a_value_that_takes_no_word_takes_no_space_in_the_pattern() {
        // `of constraints`: the value between `of` and `constraints` left
        // out with its space; at the start, the space after it.
        let lines = [
            "Found wrong number (quiten ranqui) of unique constraints for 10.6.1.8:1799",
            "Found wrong number (grizoka pelvu) of check constraints for kaop-5734",
            "Found wrong number (dorsa 48) of PK constraints for sador-17",
            "Found wrong number (292da244431f35d6) of constraints for vulopel-2545",
            "zodorpelgri Failed record: a, b",
            "katen-8727 Failed record: zoopvu-4906",
            "lopel-7924 Failed record: bexmirquizo-2380",
            "Failed record: (key zovu grilodor pelsa) topic=[lonudor-9022]",
        ];
        let groups = mined_with_patterns(&lines);
        assert_eq!(groups.len(), 2, "{groups:#?}");
        assert_each_pattern_matches_its_lines(&groups);
        for (pattern, members) in &groups {
            // (Lines masked alike are one key: `katen-8727` and `lopel-7924`.)
            let event = if pattern.contains("Found") { "Found wrong number" } else { "Failed record" };
            assert!(members.len() >= 3 && members.iter().all(|line| line.contains(event)), "{pattern}: {members:?}");
        }
    }

    #[test]
    fn a_word_where_a_template_has_a_value_or_a_value_left_out_is_another_event() {
        let lines = [
            // `Started` recurs where the others have a value: an event.
            "VM Started on alpha",
            "VM Started on beta",
            "VM Paused on gamma",
            "VM Stopped on delta",
            "VM Resumed on epsilon",
            // No value at all (not even its space): another message.
            "Shutting down",
            "Shutting down",
            "Shutting down ranzo-31",
            "Shutting down /var/lib/x.db",
            "Shutting down 10.0.0.7:4222",
        ];
        let groups: Vec<Vec<String>> = mined_with_patterns(&lines).into_iter().map(|(_, lines)| lines).collect();
        assert_eq!(groups.len(), 4, "{groups:#?}");
        assert!(groups.contains(&vec!["Shutting down".to_owned()]), "{groups:#?}");
        assert!(groups.contains(&vec!["VM Started on alpha".to_owned(), "VM Started on beta".to_owned()]));
    }
}
