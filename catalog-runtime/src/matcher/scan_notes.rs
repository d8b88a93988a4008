//! What the prefilter's pass notes about a text on its way: the line
//! numbers of positions, for [`Matcher::find_numbered_lines`]
//! (`crate::Matcher`), and whether the text is ASCII.
//!
//! Counting the line breaks before each match is another pass over the text,
//! as long as the prefilter's (a tenth of a sparse log's scan time). The
//! prefilter's vector scan has every byte in a register anyway, so it counts
//! the line breaks as it goes, at the cost of a comparison and a population
//! count a round, and leaves the count at each [`BLOCK`] boundary here; a
//! position's count then needs only the bytes since the last boundary or
//! the last position asked for. Where the vector scan did not run (no
//! AVX2, no long literals, the text's last bytes), the bytes are counted.
//! The same pass also notes whether the bytes it saw are all ASCII, which
//! spares [`Matcher::find_numbered_lines_in`] (and the envelopes' reading
//! of bytes at once) a UTF-8 check of them.

/// The bytes between two counts left by the prefilter's scan.
pub(crate) const BLOCK: usize = 4096;

/// The number of line breaks before positions of one text, and how much of
/// it the prefilter's scan saw to be ASCII.
#[derive(Debug)]
pub(crate) struct ScanNotes<'t> {
    bytes: &'t [u8],
    /// `at_blocks[k]`: the line breaks before byte `(k + 1) * BLOCK`, for the
    /// blocks that the prefilter's scan has reached.
    at_blocks: Vec<usize>,
    /// The last position counted to, and its count.
    last: (usize, usize),
    /// The length of a prefix of the text seen to be ASCII.
    ascii_prefix: usize,
}

impl<'t> ScanNotes<'t> {
    pub fn new(bytes: &'t [u8]) -> Self {
        ScanNotes { bytes, at_blocks: Vec::new(), last: (0, 0), ascii_prefix: 0 }
    }

    /// Records that the text's first `len` bytes are ASCII.
    pub fn ascii_until(&mut self, len: usize) {
        self.ascii_prefix = len;
    }

    /// The length of a prefix of the text known to be ASCII (0 if none was
    /// checked).
    pub fn ascii_prefix(&self) -> usize {
        self.ascii_prefix
    }

    /// Records that the text has `count` line breaks before `at`, a multiple
    /// of [`BLOCK`], which follows the last position recorded by one block.
    #[inline]
    pub fn record_block(&mut self, at: usize, count: usize) {
        debug_assert_eq!(at, (self.at_blocks.len() + 1) * BLOCK);
        self.at_blocks.push(count);
    }

    /// The number of line breaks in the text before `at`.
    pub fn line_breaks_before(&mut self, at: usize) -> usize {
        // Count from the nearest known point at or before `at`: the last
        // position asked for, or the start of `at`'s block.
        let mut from = if self.last.0 <= at { self.last } else { (0, 0) };
        let block = at / BLOCK;
        if block > 0 && block <= self.at_blocks.len() && block * BLOCK > from.0 {
            from = (block * BLOCK, self.at_blocks[block - 1]);
        }
        let count = from.1 + memchr::memchr_iter(b'\n', &self.bytes[from.0..at]).count();
        self.last = (at, count);
        count
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn counted(text: &str, at: usize) -> usize {
        text.as_bytes()[..at].iter().filter(|&&b| b == b'\n').count()
    }

    proptest! {
        #[test]
        fn counts_from_blocks_and_from_the_last_position(
            lines in prop::collection::vec(0..3000usize, 0..12),
            positions in prop::collection::vec(any::<prop::sample::Index>(), 1..20),
        ) {
            let text: String = lines.iter().map(|&n| "x".repeat(n) + "\n").collect();
            let mut notes = ScanNotes::new(text.as_bytes());
            for block in 1..=text.len() / BLOCK {
                notes.record_block(block * BLOCK, counted(&text, block * BLOCK));
            }
            // Positions in any order: forwards, backwards, repeated.
            for position in positions {
                let at = position.index(text.len() + 1);
                prop_assert_eq!(notes.line_breaks_before(at), counted(&text, at));
            }
        }
    }
}
