//! Groups of items stored one after the other, each found by where it
//! ends: the matcher's literals in one string, the templates that require
//! each literal in one vector, the short literals that hold each key of
//! the prefilter in another (one allocation, not one per group, for
//! thousands of groups). Group `g` runs from the end of group `g - 1` (0
//! for the first) to `ends[g]`.

use std::ops::Range;

/// The ends of groups of these lengths, stored one after the other in
/// their order.
pub(super) fn ends(lengths: impl IntoIterator<Item = usize>) -> Vec<u32> {
    let mut end = 0;
    lengths
        .into_iter()
        .map(|len| {
            end += len;
            end as u32
        })
        .collect()
}

/// Where group `group` is, given every group's end.
///
/// # Panics
///
/// When `group` is out of range.
pub(super) fn range(ends: &[u32], group: usize) -> Range<usize> {
    let start = group.checked_sub(1).map_or(0, |before| ends[before] as usize);
    start..ends[group] as usize
}

/// Whether `ends` can be the ends of groups stored in `len` items: they
/// ascend, and the last is `len` (no groups, no items), so that every
/// [`range`] is in bounds.
pub(super) fn fit(ends: &[u32], len: usize) -> bool {
    ends.windows(2).all(|pair| pair[0] <= pair[1]) && ends.last().map_or(0, |&end| end as usize) == len
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn groups_are_found_by_their_ends() {
        let groups: [&[u32]; 4] = [&[7, 8], &[], &[9], &[1, 2, 3]];
        let ends = ends(groups.iter().map(|group| group.len()));
        assert_eq!(ends, [2, 2, 3, 6]);
        let all = groups.concat();
        for (number, group) in groups.iter().enumerate() {
            assert_eq!(&all[range(&ends, number)], *group);
        }
        assert!(fit(&ends, all.len()));
    }

    #[test]
    fn no_groups_have_no_ends() {
        assert_eq!(ends([]), Vec::<u32>::new());
        assert!(fit(&[], 0));
        assert!(!fit(&[], 1));
    }

    #[test]
    fn ends_fit_when_they_ascend_to_the_items_length() {
        assert!(fit(&[0, 0, 3], 3));
        assert!(!fit(&[2, 1, 3], 3), "descending");
        assert!(!fit(&[1, 2], 3), "short of the items");
        assert!(!fit(&[1, 4], 3), "past the items");
    }

    #[test]
    #[should_panic]
    fn a_group_past_the_last_is_out_of_range() {
        range(&[2, 3], 2);
    }
}
