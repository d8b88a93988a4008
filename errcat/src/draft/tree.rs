//! Grouping the keys of one length: a tree that splits a set of keys at
//! the position that tells them apart best, again and again, until no
//! position does.
//!
//! Drain's tree groups lines by length and first tokens, then joins a line to
//! the group it is most similar to (40 % of tokens by default): two events
//! that differ in one word ("VM Started", "VM Paused", logpai/Drain3#109)
//! land in one group. Here the evidence is how often a word is seen at its
//! position instead: the constant words of a template recur in every line of
//! it, values seldom do. At a position, each word seen on two lines or more
//! (not a masked value) is a branch of its own; the other words, and masked
//! values, which may all be one template's values, share one branch. The
//! position split first is the first that splits the set (see
//! [`best_split`]); a set that no position splits is a group, and its
//! positions with more than one word are its values.

use super::keys::Key;
use super::mask::{has_mask, is_keyed_value, is_punctuation};
use rustc_hash::FxHashMap as HashMap;

/// The groups of the keys `members` (all of one length): lists of indices
/// into `keys`, in the order of their first key.
pub fn split(keys: &[Key], members: Vec<usize>) -> Vec<Vec<usize>> {
    let mut groups = Vec::new();
    let mut pending = vec![members];
    while let Some(set) = pending.pop() {
        match best_split(keys, &set) {
            Some(branches) => pending.extend(branches.into_iter().rev()),
            None => groups.push(set),
        }
    }
    groups.sort_by_key(|group| group[0]);
    groups
}

/// The branches of `set` at its first position that splits it, or `None`
/// when none does. The first words of a template are its constants more
/// often than not (Drain's tree reads them first for that): splitting
/// there first keeps the lines of one template together, where a word that
/// recurs further on by chance, in several templates' values, would split
/// them. (Measured on the mining benchmark: the first position gave a
/// grouping accuracy 0.003 higher than the position with fewest branches.)
fn best_split(keys: &[Key], set: &[usize]) -> Option<Vec<Vec<usize>>> {
    if set.len() < 2 {
        return None;
    }
    let length = keys[set[0]].tokens.len();
    (0..length).map(|position| branches_at(keys, set, position)).find(|branches| branches.len() >= 2)
}

/// Words seen once at a position, at least, for it to be a value's.
const OPEN_FIELD: usize = 8;

/// Lines with a masked value at a position, at least, and times as many
/// as the lines of its recurring words, for the position to be a value's.
const MASKED_FIELD: u64 = 8;
const VALUE_SHARE: u64 = 4;

/// The branches of `set` at `position`: one per word seen on two lines or
/// more, and one for the rest (in order of first key).
fn branches_at(keys: &[Key], set: &[usize], position: usize) -> Vec<Vec<usize>> {
    let word = |index: usize| &*keys[index].tokens[position];
    let mut lines: HashMap<&str, u64> = HashMap::default();
    for &index in set {
        *lines.entry(word(index)).or_default() += keys[index].count;
    }
    // A masked value alone is no branch of its own: values of one kind recur
    // across templates; nor is punctuation, which recurs everywhere, nor a
    // word with a value in it (`back\slash<int>`: a value's own text),
    // except a key and its value that starts a message of keys and values
    // only (`steps=<int>`, `onExtend:<int> <int>`): on real logs that key is
    // the only name such a message has.
    let named = |index: usize| {
        let tokens = &keys[index].tokens;
        position == 0 && is_keyed_value(&tokens[0]) && tokens[1..].iter().all(|t| has_mask(t) || is_punctuation(t))
    };
    let recurs = |index: usize, w: &str| (!has_mask(w) || named(index)) && !is_punctuation(w) && lines[w] >= 2;
    // A position where many words are each seen once, on a good share of
    // the lines, is a value's (user names): the words that recur there
    // (`admin`, `root`) are that value's common cases, not events of their
    // own. Two events told apart by a word (`VM Started`, `VM Paused`)
    // leave few such words.
    let plain = |w: &str| !has_mask(w) && !is_punctuation(w);
    let once = lines.iter().filter(|&(w, &n)| n == 1 && plain(w)).count();
    let recurring = lines.iter().filter(|&(w, &n)| n >= 2 && plain(w)).count();
    let total: u64 = lines.values().sum();
    let one_prefix = || set.iter().all(|&i| keys[i].tokens[..position] == keys[set[0]].tokens[..position]);
    if once >= OPEN_FIELD && once as u64 * 4 >= total && recurring * 2 <= once && one_prefix() {
        return vec![set.to_vec()];
    }
    // A position where most lines have a value by its look (`domain
    // 1-7`, `domain 8-15`) is a value's too: the few words seen there
    // (`domain root_domain`) are its values written as words.
    let masked: u64 = lines.iter().filter(|&(w, _)| has_mask(w) && !is_punctuation(w)).map(|(_, &n)| n).sum();
    let recurring_lines: u64 = lines.iter().filter(|&(w, &n)| n >= 2 && plain(w)).map(|(_, &n)| n).sum();
    if masked >= MASKED_FIELD && masked >= VALUE_SHARE * recurring_lines && one_prefix() {
        return vec![set.to_vec()];
    }
    let mut branch_of: HashMap<&str, usize> = HashMap::default();
    let mut branches: Vec<Vec<usize>> = Vec::new();
    let mut rest: Option<usize> = None;
    for &index in set {
        let w = word(index);
        let slot = if recurs(index, w) {
            *branch_of.entry(w).or_insert_with(|| {
                branches.push(Vec::new());
                branches.len() - 1
            })
        } else {
            *rest.get_or_insert_with(|| {
                branches.push(Vec::new());
                branches.len() - 1
            })
        };
        branches[slot].push(index);
    }
    branches
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::draft::keys::{Keys, Place};

    fn keys(lines: &[&str]) -> Keys {
        let mut keys = Keys::new(100);
        for (i, line) in lines.iter().enumerate() {
            keys.add(line, 0, Place { input: 0, line: i as u64 + 1 }, None);
        }
        keys
    }

    fn groups(lines: &[&str]) -> Vec<Vec<String>> {
        let keys = keys(lines);
        let members = (0..keys.keys.len()).collect();
        split(&keys.keys, members)
            .into_iter()
            .map(|group| group.into_iter().map(|i| keys.keys[i].example.to_string()).collect())
            .collect()
    }

    #[test]
    fn events_that_differ_in_one_recurring_word_are_told_apart() {
        let lines = [
            "VM Started on alpha",
            "VM Paused on beta",
            "VM Started on gamma",
            "VM Paused on delta",
            "VM Started on epsilon",
        ];
        assert_eq!(
            groups(&lines),
            [
                vec!["VM Started on alpha", "VM Started on gamma", "VM Started on epsilon"],
                vec!["VM Paused on beta", "VM Paused on delta"],
            ]
        );
    }

    #[test]
    fn words_that_do_not_recur_are_values() {
        let lines = ["user alice logged in", "user bob logged in", "user carol logged in"];
        assert_eq!(groups(&lines), [lines.map(str::to_owned).to_vec()]);
    }

    #[test]
    fn words_that_recur_where_many_words_are_seen_once_are_values() {
        // User names: a few recur (`admin`), most are seen once.
        let mut lines = vec!["Invalid user admin from 10.0.0.1"; 5];
        lines.extend(["Invalid user oracle from 10.0.0.2"; 3]);
        let once = ["alice", "bob", "carol", "dave", "erin", "frank", "grace", "heidi"];
        let once: Vec<String> = once.iter().map(|name| format!("Invalid user {name} from 10.0.0.3")).collect();
        lines.extend(once.iter().map(String::as_str));
        assert_eq!(groups(&lines).len(), 1, "{:#?}", groups(&lines));
    }

    #[test]
    fn words_that_recur_where_most_lines_have_a_masked_value_are_values() {
        let served: Vec<String> =
            (0..8).map(|n| format!("domain {n}-{} is no longer served by node-{n}", n + 7)).collect();
        let mut lines: Vec<&str> = served.iter().map(String::as_str).collect();
        lines.extend(["domain root_domain is no longer served by node-1"; 2]);
        assert_eq!(groups(&lines).len(), 1, "{:#?}", groups(&lines));
        // As many lines of a word as of values: an event of its own.
        lines.extend(["domain root_domain is no longer served by node-2"; 2]);
        assert_eq!(groups(&lines).len(), 2, "{:#?}", groups(&lines));
    }

    #[test]
    fn masked_values_stay_with_plain_values() {
        // `node-7` is masked, `east` is not: both are the template's values.
        let lines = ["joined node-7 ok", "joined east ok", "joined node-9 ok", "joined west ok"];
        assert_eq!(groups(&lines).len(), 1);
    }
}
