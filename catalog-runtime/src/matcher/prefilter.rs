//! The literal prefilter of the matcher: which templates' required literals
//! occur in a text, and where.
//!
//! Aho-Corasick over thousands of literals runs at a few hundred MB/s; a
//! gram filter is faster. Each literal of at least [`LONG`] bytes is
//! represented by [`STRIDE`] of its 4-byte grams, one at an offset of each
//! value modulo [`STRIDE`] (the rarest such in all the templates' text, and
//! made of the rarest bytes): any occurrence of the literal then has one of
//! them at a position that is a multiple of [`STRIDE`], so only those
//! positions of the text are looked at, each hashed into a bitmap of the
//! grams (a few dozen KiB, in cache); only on a bitmap hit are the grams
//! with that hash compared and the whole literal checked (FDR's stride in
//! Hyperscan, without its buckets). Literals of 4 to 6 bytes, too short for
//! a window, are found by Aho-Corasick (a SIMD Teddy searcher when they are
//! few), in the same pass's order. Both report exactly the occurrences of
//! the literals.

use aho_corasick::AhoCorasick;

/// Finds occurrences of a fixed set of literals of at least [`GRAM`] bytes.
#[derive(Debug)]
pub struct Prefilter {
    grams: Grams,
    /// The literals shorter than [`LONG`], and the index of each in the set.
    short: Option<(AhoCorasick, Vec<u32>)>,
}

/// The length of the grams: the shortest literal the prefilter takes.
pub(crate) const GRAM: usize = 4;
/// Positions of the text looked at: one in `STRIDE`.
const STRIDE: usize = 4;
/// The shortest literal with a window of [`STRIDE`] grams.
const LONG: usize = GRAM + STRIDE - 1;

impl Prefilter {
    /// A prefilter for `literals`, each at least [`GRAM`] bytes long.
    pub fn new(literals: &[&str]) -> Self {
        let (long, short): (Vec<usize>, Vec<usize>) = (0..literals.len()).partition(|&i| literals[i].len() >= LONG);
        let short = (!short.is_empty()).then(|| {
            let automaton = AhoCorasick::new(short.iter().map(|&i| literals[i]));
            let automaton = automaton.expect("literal patterns are within Aho-Corasick's limits");
            (automaton, short.iter().map(|&i| i as u32).collect())
        });
        Prefilter { grams: Grams::new(literals, &long), short }
    }

    /// Calls `hit(start, literal)` for every occurrence of every literal, in
    /// an order where all the occurrences within one line come before those
    /// of later lines (literals hold no line break).
    pub fn for_each(&self, text: &str, mut hit: impl FnMut(usize, usize)) {
        let Some((automaton, owners)) = &self.short else {
            self.grams.for_each(text.as_bytes(), |_, start, literal| hit(start, literal));
            return;
        };
        // The two kinds of hits, merged: a short literal's is reported once
        // the gram scan has passed its end, so a line's hits all come before
        // the next line's.
        let mut short = automaton.find_overlapping_iter(text).peekable();
        self.grams.for_each(text.as_bytes(), |scanned, start, literal| {
            while let Some(m) = short.next_if(|m| m.end() <= scanned) {
                hit(m.start(), owners[m.pattern().as_usize()] as usize);
            }
            hit(start, literal);
        });
        for m in short {
            hit(m.start(), owners[m.pattern().as_usize()] as usize);
        }
    }
}

fn gram_at(bytes: &[u8], at: usize) -> u32 {
    u32::from_le_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]])
}

/// The table of gram counts has `1 << COUNT_BITS` entries.
const COUNT_BITS: u32 = 16;

/// Buckets of the index from a gram's hash to its entries (the top bits).
const INDEX_BITS: u32 = 16;

/// The strided gram filter.
#[derive(Debug)]
struct Grams {
    /// One bit per hash value: `1 << bits` bits.
    bitmap: Box<[u64]>,
    bits: u32,
    /// For each bucket (the top [`INDEX_BITS`] of a hash), the range of
    /// `entries` in it.
    starts: Box<[u32]>,
    /// (gram, literal, offset of the gram in the literal), by bucket.
    entries: Box<[(u32, u32, u32)]>,
    literals: Box<[Box<[u8]>]>,
}

impl Grams {
    /// The filter of the literals `long` (indexes in `literals`).
    fn new(literals: &[&str], long: &[usize]) -> Self {
        // How often each gram occurs in all the literals: a rough stand-in for
        // how often it occurs in logs. Counted by hash, grams that share one
        // sharing a count: a table, unlike a map, costs next to nothing to
        // fill at start-up.
        let mut counts = vec![0u16; 1 << COUNT_BITS];
        for &index in long {
            let bytes = literals[index].as_bytes();
            for at in 0..=bytes.len() - GRAM {
                let count = &mut counts[hash(gram_at(bytes, at), COUNT_BITS)];
                *count = count.saturating_add(1);
            }
        }
        let mut entries = Vec::with_capacity(long.len() * STRIDE);
        let mut costs = Vec::new();
        for &index in long {
            let bytes = literals[index].as_bytes();
            // The expected cost of each gram; for each offset modulo the
            // stride, the cheapest gram at such an offset is taken (whatever
            // the occurrence's position, one of them is then looked at).
            costs.clear();
            costs.extend((0..=bytes.len() - GRAM).map(|at| {
                let common: u32 = bytes[at..at + GRAM].iter().map(|&b| u32::from(COMMONNESS[usize::from(b)])).sum();
                u32::from(counts[hash(gram_at(bytes, at), COUNT_BITS)]) * 64 + common
            }));
            for residue in 0..STRIDE {
                let offsets = (residue..costs.len()).step_by(STRIDE);
                let at = offsets.min_by_key(|&at| (costs[at], at)).expect("a long literal has a gram at each offset");
                entries.push((gram_at(bytes, at), index as u32, at as u32));
            }
        }
        // About one bit in 32 set, from 64 Ki bits (8 KiB) up to 2 Mi bits.
        let bits = (entries.len() * 32).next_power_of_two().trailing_zeros().clamp(16, 21);
        let bucket = |gram: u32| hash(gram, bits) >> (bits - INDEX_BITS);
        let mut bitmap = vec![0u64; 1 << (bits - 6)].into_boxed_slice();
        let mut starts = vec![0u32; (1 << INDEX_BITS) + 1].into_boxed_slice();
        for &(gram, _, _) in &entries {
            let h = hash(gram, bits);
            bitmap[h >> 6] |= 1 << (h & 63);
            starts[bucket(gram) + 1] += 1;
        }
        for b in 0..1 << INDEX_BITS {
            starts[b + 1] += starts[b];
        }
        // The entries by bucket, in literal order within one (a counting
        // sort: a comparison sort of tens of thousands took milliseconds).
        let mut next = starts.clone();
        let mut sorted = vec![(0, 0, 0); entries.len()].into_boxed_slice();
        for entry in entries {
            let slot = &mut next[bucket(entry.0)];
            sorted[*slot as usize] = entry;
            *slot += 1;
        }
        let literals = literals.iter().map(|l| l.as_bytes().into()).collect();
        Grams { bitmap, bits, starts, entries: sorted, literals }
    }

    /// Calls `hit(scanned, start, literal)` for every occurrence of a long
    /// literal, `scanned` being the position the scan is at.
    fn for_each(&self, bytes: &[u8], mut hit: impl FnMut(usize, usize, usize)) {
        if self.entries.is_empty() {
            return;
        }
        let bits = self.bits;
        let bitmap = &self.bitmap[..];
        let mut at = 0;
        // Two grams, `STRIDE` apart, from each 8-byte load: a load, a
        // multiplication and a bit test per gram, and nothing else until a
        // gram's bit is set (most positions of most logs).
        while at + 8 <= bytes.len() {
            let word = u64::from_le_bytes(bytes[at..at + 8].try_into().expect("8 bytes"));
            for (k, gram) in [(0, word as u32), (STRIDE, (word >> 32) as u32)] {
                let h = hash(gram, bits);
                if bitmap[h >> 6] & (1 << (h & 63)) != 0 {
                    self.confirm(bytes, at + k, gram, h, &mut hit);
                }
            }
            at += 2 * STRIDE;
        }
        while at + GRAM <= bytes.len() {
            let gram = gram_at(bytes, at);
            let h = hash(gram, bits);
            if bitmap[h >> 6] & (1 << (h & 63)) != 0 {
                self.confirm(bytes, at, gram, h, &mut hit);
            }
            at += STRIDE;
        }
    }

    /// Reports the literals whose gram `gram` (of hash `h`) is at `at`.
    #[inline(never)]
    fn confirm(&self, bytes: &[u8], at: usize, gram: u32, h: usize, hit: &mut impl FnMut(usize, usize, usize)) {
        let bucket = h >> (self.bits - INDEX_BITS);
        for &(candidate, literal, offset) in
            &self.entries[self.starts[bucket] as usize..self.starts[bucket + 1] as usize]
        {
            let offset = offset as usize;
            if candidate != gram || offset > at {
                continue;
            }
            let start = at - offset;
            if bytes[start..].starts_with(&self.literals[literal as usize]) {
                hit(at, start, literal as usize);
            }
        }
    }
}

/// [`commonness`] of every byte, looked up while choosing grams.
const COMMONNESS: [u8; 256] = {
    let mut table = [0; 256];
    let mut byte = 0;
    while byte < 256 {
        table[byte] = commonness(byte as u8);
        byte += 1;
    }
    table
};

/// How common a byte is in log text, from 0 (rare) to 255: spaces, small
/// letters and the digits and punctuation of timestamps, ids and addresses
/// are everywhere; capitals and other punctuation are rare. A gram made of
/// rarer bytes is looked up less often on lines that hold no literal.
const fn commonness(byte: u8) -> u8 {
    match byte {
        b' ' => 255,
        b'e' | b't' | b'a' | b'o' | b'i' | b'n' | b's' | b'r' => 200,
        b'0'..=b'9' => 190,
        b'.' | b':' | b'-' | b'/' | b'[' | b']' | b'=' | b'"' | b',' => 170,
        b'a'..=b'z' => 140,
        b'A'..=b'Z' => 60,
        _ => 40,
    }
}

/// The bitmap position of a gram: below `1 << bits`.
fn hash(gram: u32, bits: u32) -> usize {
    (gram.wrapping_mul(0x9e37_79b1) >> (32 - bits)) as usize
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Every (start, literal) reported, in order.
    fn hits(filter: &Prefilter, text: &str) -> Vec<(usize, usize)> {
        let mut found = Vec::new();
        filter.for_each(text, |start, literal| found.push((start, literal)));
        found
    }

    /// Every occurrence of every literal, overlapping ones included.
    fn occurrences(literals: &[&str], text: &str) -> std::collections::BTreeSet<(usize, usize)> {
        let mut all = std::collections::BTreeSet::new();
        for (i, literal) in literals.iter().enumerate() {
            for at in 0..text.len() {
                if text.as_bytes()[at..].starts_with(literal.as_bytes()) {
                    all.insert((at, i));
                }
            }
        }
        all
    }

    fn check(literals: &[&str], text: &str) -> Result<(), TestCaseError> {
        let found = hits(&Prefilter::new(literals), text);
        let set: std::collections::BTreeSet<_> = found.iter().copied().collect();
        prop_assert_eq!(set, occurrences(literals, text), "{:?} in {:?}", literals, text);
        // A line's hits come before the next line's.
        let line = |at: usize| text[..at].matches('\n').count();
        prop_assert!(found.windows(2).all(|w| line(w[0].0) <= line(w[1].0)), "{:?}", found);
        Ok(())
    }

    #[test]
    fn long_and_short_literals_are_all_reported() {
        let literals = ["stream ", "not found", "stream not", "found", "abab", "ababababab"];
        for text in ["", "abc", "stream not found\nfound stream x", "xxstream stream not founds", "abababababab\nab"] {
            check(&literals, text).unwrap();
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

        #[test]
        fn every_occurrence_in_line_order(
            literals in prop::collection::vec("[ab \n]{0,1}[ab ]{4,11}", 1..12),
            text in "[ab \nx]{0,80}",
        ) {
            let literals: Vec<String> = literals.into_iter().map(|l| l.trim_start_matches('\n').to_owned()).filter(|l| l.len() >= GRAM).collect();
            let literals: Vec<&str> = literals.iter().map(String::as_str).collect();
            check(&literals, &text)?;
        }
    }
}
