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
    }

    #[test]
    fn no_groups_have_no_ends() {
        assert_eq!(ends([]), Vec::<u32>::new());
    }

    #[test]
    #[should_panic]
    fn a_group_past_the_last_is_out_of_range() {
        range(&[2, 3], 2);
    }
}
