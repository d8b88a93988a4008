//! Suggestions for a mistyped key (an id, slug or variant name): the keys
//! close enough to it by edit distance to be what was meant. The
//! `#[derive(Catalog)]` macro suggests the nearest id or slug of an unknown
//! import with them, and `errcat show` the nearest keys of an unknown one,
//! so that both take the same keys for typos.

/// The Levenshtein distance between `a` and `b`, in characters (not bytes):
/// the fewest insertions, deletions and substitutions of one character
/// that turn one into the other.
///
/// ```
/// use catalog_runtime::edit_distance;
///
/// assert_eq!(edit_distance("kitten", "sitting"), 3);
/// assert_eq!(edit_distance("", "abc"), 3);
/// assert_eq!(edit_distance("same", "same"), 0);
/// ```
pub fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, &cb) in b.iter().enumerate() {
            let next = (diagonal + usize::from(ca != cb)).min(row[j] + 1).min(row[j + 1] + 1);
            diagonal = row[j + 1];
            row[j + 1] = next;
        }
    }
    row[b.len()]
}

/// The [`edit_distance`] between `wanted` and `key` if it is small enough
/// for `key` to be what a mistyped `wanted` meant: at most a quarter of
/// `wanted`'s characters, and at least 2; `None` when it is larger. The
/// nearest key among those with a distance is the one to suggest
/// (`#[derive(Catalog)]`'s and `errcat`'s "did you mean").
pub fn typo_distance(wanted: &str, key: &str) -> Option<usize> {
    let limit = (wanted.chars().count() / 4).max(2);
    Some(edit_distance(wanted, key)).filter(|&distance| distance <= limit)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn edit_distance_counts_insertions_deletions_and_substitutions() {
        assert_eq!(edit_distance("kitten", "sitting"), 3);
        assert_eq!(edit_distance("sitting", "kitten"), 3);
        assert_eq!(edit_distance("", "abc"), 3);
        assert_eq!(edit_distance("abc", ""), 3);
        assert_eq!(edit_distance("", ""), 0);
        assert_eq!(edit_distance("same", "same"), 0);
        assert_eq!(edit_distance("flaw", "lawn"), 2);
    }

    #[test]
    fn edit_distance_counts_characters_not_bytes() {
        assert_eq!(edit_distance("é", "e"), 1);
        assert_eq!(edit_distance("naïve", "naive"), 1);
        assert_eq!(edit_distance("日本", "日本語"), 1);
    }

    #[test]
    fn a_typo_is_within_a_quarter_of_the_wanted_characters_and_at_least_two() {
        // Up to 11 characters, 2 edits.
        assert_eq!(typo_distance("UnableToPersistSesion", "UnableToPersistSession"), Some(1));
        assert_eq!(typo_distance("nope", "UnableToPersistSession"), None);
        assert_eq!(typo_distance("stream", "steam"), Some(1));
        assert_eq!(typo_distance("stream", "dream"), Some(2));
        assert_eq!(typo_distance("stream", "cream"), Some(2));
        assert_eq!(typo_distance("stream", "scheme"), None);
        // 16 characters, 4 edits; counted in characters.
        assert_eq!(typo_distance("503f49fe39cf5794", "503f49fe39cf5793"), Some(1));
        assert_eq!(typo_distance("aaaaaaaaaaaaaaaa", "aaaaaaaaaaaabbbb"), Some(4));
        assert_eq!(typo_distance("aaaaaaaaaaaaaaaa", "aaaaaaaaaaabbbbb"), None);
        assert_eq!(typo_distance("ééééééééé", "éééééééée"), Some(1));
        assert_eq!(typo_distance("ééééééééé", "ééééééeee"), None);
        // The limit is the wanted key's, whichever is longer.
        assert_eq!(typo_distance("ab", "abcd"), Some(2));
        assert_eq!(typo_distance("abcd", "ab"), Some(2));
        assert_eq!(typo_distance("", "ab"), Some(2));
    }
}
