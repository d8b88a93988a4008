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
//! spares [`Matcher::find_numbered_lines_in`] a UTF-8 check of them, and,
//! when asked, where its backslashes, line breaks and `\r` are: all that Docker's
//! envelope needs to tell which lines to unwrap (`crate::envelope`), which
//! would otherwise be another pass over the text.

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
    /// When asked for, where the vector scan saw backslashes, line
    /// breaks and `\r` (see [`Marking`]).
    marks: Option<Marking>,
}

impl<'t> ScanNotes<'t> {
    pub fn new(bytes: &'t [u8]) -> Self {
        ScanNotes { bytes, at_blocks: Vec::new(), last: (0, 0), ascii_prefix: 0, marks: None }
    }

    /// Notes that also keep the positions of the backslashes, line
    /// breaks and `\r` the prefilter's vector scan sees (see [`Self::marks`]).
    pub fn noting_marks(bytes: &'t [u8]) -> Self {
        // Zeroed memory comes untouched from the allocator: only the pages
        // written to are ever touched.
        let found = vec![0; bytes.len() / 32 + 1];
        ScanNotes { marks: Some(Marking { found, len: 0, rounds: 0 }), ..ScanNotes::new(bytes) }
    }

    /// Whether the positions of backslashes, line breaks and `\r` are wanted.
    #[inline]
    pub fn marking(&self) -> bool {
        self.marks.is_some()
    }

    /// Records where the backslashes, line breaks and `\r` are among the next 32
    /// bytes of the text (bit `k` for byte `k`), right after the last 32
    /// recorded (the first 32 first).
    #[inline]
    pub fn record_marks(&mut self, found: u32) {
        if let Some(marks) = &mut self.marks {
            // Written whether or not the round holds a mark, and kept when
            // it does: no branch to mispredict.
            marks.found[marks.len] = (marks.rounds as u64) << 32 | u64::from(found);
            marks.len += usize::from(found != 0);
            marks.rounds += 1;
        }
    }

    /// The positions of every backslash, line break and `\r` of the text,
    /// in order: those the scan recorded, then those of the rest of the text,
    /// searched for (all of them when the scan recorded none, or the notes
    /// were not [`noting_marks`](Self::noting_marks)).
    pub fn marks(self) -> Marks<'t> {
        let Marking { mut found, len, rounds } = self.marks.unwrap_or(Marking { found: Vec::new(), len: 0, rounds: 0 });
        found.truncate(len);
        let seen = rounds * 32;
        let rest = memchr::memchr3_iter(b'\\', b'\n', b'\r', &self.bytes[seen..]);
        Marks { found: found.into_iter(), at: 0, mask: 0, seen, rest }
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

/// Where the prefilter's vector scan saw backslashes, line breaks and `\r`.
#[derive(Debug)]
struct Marking {
    /// For each 32 bytes holding some, from the first: their round (their
    /// first byte's position over 32) in the top half, and where they are
    /// in the bottom (bit `k` for byte `k`), in `found[..len]`: each round
    /// is written and only those with a mark are kept, so the scan takes no
    /// branch on them and the reader reads no round without one (which, a
    /// mask for every round, took a fifth of its time: measured).
    found: Vec<u64>,
    len: usize,
    /// The rounds recorded.
    rounds: usize,
}

/// The positions of a text's backslashes, line breaks and `\r`, in order (see
/// [`ScanNotes::marks`]).
pub(crate) struct Marks<'t> {
    /// The rounds with marks not yet given (see [`Marking::found`]).
    found: std::vec::IntoIter<u64>,
    /// The first position of the round being given, and its marks left.
    at: usize,
    mask: u32,
    /// The bytes the scan saw, and the marks after them.
    seen: usize,
    rest: memchr::Memchr3<'t>,
}

impl Iterator for Marks<'_> {
    type Item = usize;

    #[inline]
    fn next(&mut self) -> Option<usize> {
        if self.mask == 0 {
            match self.found.next() {
                Some(round) => (self.at, self.mask) = ((round >> 32) as usize * 32, round as u32),
                None => return self.rest.next().map(|at| self.seen + at),
            }
        }
        let at = self.at + self.mask.trailing_zeros() as usize;
        self.mask &= self.mask - 1;
        Some(at)
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
