//! The literal prefilter of the matcher: which templates' required literals
//! occur in a text, and where.
//!
//! Aho-Corasick over thousands of literals runs at a few hundred MB/s; a
//! gram filter is faster. Each literal of at least [`LONG`] bytes is
//! represented by [`STRIDE`] of its 8-byte grams, one at an offset of each
//! value modulo [`STRIDE`] (the rarest such in all the templates' text, and
//! made of the rarest bytes): any occurrence of the literal then has one of
//! them at a position that is a multiple of [`STRIDE`], so only those
//! positions of the text are looked at, each hashed into a bitmap of the
//! grams (a few dozen KiB, in cache); only on a bitmap hit are the grams
//! with that hash compared and the whole literal checked (FDR's stride in
//! Hyperscan, without its buckets). With AVX2, eight positions are hashed
//! and looked up at once (32-bit lanes and a gather: twice the scalar
//! loop's speed, measured); the hash is built from 32-bit multiplications
//! so that both loops compute the same one. Grams of 8 bytes, not 4, because words
//! of four letters are everywhere in real logs: each false hit costs a few
//! cache misses. Literals of [`MIN_LITERAL`] to 10 bytes, too short for a
//! window (a handful in real catalogs), are found by Aho-Corasick (a SIMD
//! Teddy searcher when they are few) through a rare 3-byte key of each (see
//! [`Short`]), in the same pass's order. Both report exactly the
//! occurrences of the literals.

use aho_corasick::AhoCorasick;

use super::groups;
use super::scan_notes::{ScanNotes, BLOCK};

/// Finds occurrences of a fixed set of literals of at least [`MIN_LITERAL`] bytes.
#[derive(Debug)]
pub struct Prefilter {
    grams: Grams,
    short: Option<Short>,
}

/// The literals shorter than [`LONG`]: an automaton finds the next position
/// where a key of one starts (with its prefilter, a SIMD Teddy searcher
/// when the keys are few: an overlapping search has none, and crawled at a
/// fifth of the gram filter's speed), then each literal with that key is
/// compared around it.
///
/// While they are few (up to [`MAX_KEYED`]), each literal's key is its
/// [`KEY`] bytes of the rarest bytes: Teddy fingerprints as many bytes as
/// the shortest key, and with 3 it ran a quarter faster than with 4 on a
/// real server log, for some hundreds more (cheap) candidates (measured).
/// More literals are keyed by their first [`MIN_LITERAL`] bytes: 3-byte
/// keys would then share common bytes, and Teddy no longer runs. Either
/// way all keys have one length, so that no two start at one position
/// (the automaton reports one key per position).
#[derive(Debug)]
struct Short {
    automaton: AhoCorasick,
    /// For each key `k` of the automaton, the literals that hold it, as
    /// (literal, offset of the key in it): group `k` of `holders`, which
    /// ends at `ends[k]` (see [`groups`]).
    holders: Vec<(u32, u32)>,
    ends: Vec<u32>,
    literals: Vec<Box<[u8]>>,
    /// The index of each literal in the whole set.
    owners: Vec<u32>,
}

/// The length of the keys of [`Short`] literals.
const KEY: usize = 3;
/// The most short literals searched for by [`KEY`]-byte keys.
const MAX_KEYED: usize = 32;

impl Short {
    /// The search for `short` (indexes in `literals`).
    fn new(literals: &[&str], short: &[usize]) -> Self {
        let literals: Vec<&[u8]> = short.iter().map(|&i| literals[i].as_bytes()).collect();
        let keyed = literals.len() <= MAX_KEYED;
        // Each literal's key and its offset, then the literals by key.
        let keys: Vec<(&[u8], usize)> = literals
            .iter()
            .map(|bytes| match keyed {
                true => {
                    let at = (0..=bytes.len() - KEY)
                        .min_by_key(|&at| (commonness_of(&bytes[at..at + KEY]), at))
                        .expect("a short literal holds a key");
                    (&bytes[at..at + KEY], at)
                }
                false => (&bytes[..MIN_LITERAL], 0),
            })
            .collect();
        let mut by_key: std::collections::BTreeMap<&[u8], Vec<(u32, u32)>> = std::collections::BTreeMap::new();
        for (literal, &(key, offset)) in keys.iter().enumerate() {
            by_key.entry(key).or_default().push((literal as u32, offset as u32));
        }
        let automaton = AhoCorasick::builder()
            .match_kind(aho_corasick::MatchKind::LeftmostFirst)
            .build(by_key.keys())
            .expect("literal patterns are within Aho-Corasick's limits");
        let ends = groups::ends(by_key.values().map(Vec::len));
        let holders = by_key.into_values().flatten().collect();
        Short {
            automaton,
            holders,
            ends,
            literals: literals.iter().map(|&bytes| bytes.into()).collect(),
            owners: short.iter().map(|&i| i as u32).collect(),
        }
    }

    /// Every occurrence (start, end, literal), by the position of its key:
    /// those found around one key all hold that position, so they are in
    /// one line, and a line's occurrences all come before the next line's.
    fn occurrences<'t>(&'t self, text: &'t [u8]) -> impl Iterator<Item = (usize, usize, usize)> + 't {
        let mut from = 0;
        let mut around_key: Vec<(usize, usize, usize)> = Vec::new();
        std::iter::from_fn(move || loop {
            if let Some(found) = around_key.pop() {
                return Some(found);
            }
            let key = self.automaton.find(aho_corasick::Input::new(text).range(from..))?;
            let at = key.start();
            from = at + 1;
            // The keys have one length: no other key starts at `at`. Every
            // literal with this one, in reverse for `pop`.
            let key = key.pattern().as_usize();
            for &(literal, offset) in self.holders[groups::range(&self.ends, key)].iter().rev() {
                let (literal, offset) = (literal as usize, offset as usize);
                let Some(start) = at.checked_sub(offset) else { continue };
                let bytes = &self.literals[literal];
                if text[start..].starts_with(bytes) {
                    around_key.push((start, start + bytes.len(), self.owners[literal] as usize));
                }
            }
        })
    }
}

/// The shortest literal the prefilter takes.
pub(crate) const MIN_LITERAL: usize = 4;
/// The length of the grams.
const GRAM: usize = 8;
/// Positions of the text looked at: one in `STRIDE`.
const STRIDE: usize = 4;
/// The shortest literal with a window of [`STRIDE`] grams.
const LONG: usize = GRAM + STRIDE - 1;

impl Prefilter {
    /// A prefilter for `literals`, each at least [`MIN_LITERAL`] bytes long.
    pub fn new(literals: &[&str]) -> Self {
        let (long, short): (Vec<usize>, Vec<usize>) = (0..literals.len()).partition(|&i| literals[i].len() >= LONG);
        let short = (!short.is_empty()).then(|| Short::new(literals, &short));
        Prefilter { grams: Grams::new(literals, &long), short }
    }

    /// Calls `hit(start, literal)` for every occurrence of every literal, in
    /// an order where all the occurrences within one line come before those
    /// of later lines (literals hold no line break).
    pub fn for_each(&self, text: &str, mut hit: impl FnMut(usize, usize)) {
        let bytes = text.as_bytes();
        self.for_each_counting(bytes, &mut ScanNotes::new(bytes), |_, start, literal| hit(start, literal));
    }

    /// [`for_each`](Self::for_each), leaving the line breaks it counts on
    /// the way in `notes` (see [`ScanNotes`]), which `hit` gets too.
    pub fn for_each_counting<'t>(
        &self,
        text: &'t [u8],
        notes: &mut ScanNotes<'t>,
        mut hit: impl FnMut(&mut ScanNotes<'t>, usize, usize),
    ) {
        let Some(short) = &self.short else {
            self.grams.for_each(text, notes, |notes, _, start, literal| hit(notes, start, literal));
            return;
        };
        // The two kinds of hits, merged: a short literal's is reported once
        // the gram scan has passed its end, so a line's hits all come before
        // the next line's.
        let mut short = short.occurrences(text).peekable();
        self.grams.for_each(text, notes, |notes, scanned, start, literal| {
            while let Some((start, _, literal)) = short.next_if(|&(_, end, _)| end <= scanned) {
                hit(notes, start, literal);
            }
            hit(notes, start, literal);
        });
        for (start, _, literal) in short {
            hit(notes, start, literal);
        }
    }
}

#[inline(always)]
fn gram_at(bytes: &[u8], at: usize) -> u64 {
    u64::from_le_bytes(bytes[at..at + GRAM].try_into().expect("a gram's bytes"))
}

/// What the gram scan calls for each occurrence: `(notes, scanned, start,
/// literal)`.
trait Hit<'t>: FnMut(&mut ScanNotes<'t>, usize, usize, usize) {}
impl<'t, F: FnMut(&mut ScanNotes<'t>, usize, usize, usize)> Hit<'t> for F {}

/// Whether the AVX2 scan ([`Grams::scan_avx2`]) can run on this CPU: it
/// has AVX2 and POPCNT. The gram scan takes it where it can, and the tests
/// that compare it with the scalar scan are skipped where it cannot.
#[cfg(any(target_arch = "x86_64", test))]
fn vector_scan_runs() -> bool {
    #[cfg(target_arch = "x86_64")]
    return std::arch::is_x86_feature_detected!("avx2") && std::arch::is_x86_feature_detected!("popcnt");
    #[cfg(not(target_arch = "x86_64"))]
    false
}

/// Eight 32-bit lanes in an AVX2 register.
const LANES: usize = 8;

/// The table of gram counts has `1 << COUNT_BITS` entries.
const COUNT_BITS: u32 = 16;

/// The most buckets of the index from a gram's hash to its entries: `1 <<
/// MAX_INDEX_BITS`. A bucket per entry or so: a bigger table would fall out
/// of the caches that the scanned text streams through.
const MAX_INDEX_BITS: u32 = 16;

/// The strided gram filter.
#[derive(Debug)]
struct Grams {
    /// Three bits of each gram (see [`bloom`]): `1 << word_bits` words.
    bitmap: Box<[u32]>,
    word_bits: u32,
    /// For each bucket (the top `index_bits` of a [`hash`]), the range of
    /// `entries` in it.
    starts: Box<[u32]>,
    index_bits: u32,
    /// (gram, literal, offset of the gram in the literal), by bucket.
    entries: Box<[(u64, u32, u32)]>,
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
                u32::from(counts[hash(gram_at(bytes, at), COUNT_BITS)]) * 64 + commonness_of(&bytes[at..at + GRAM])
            }));
            for residue in 0..STRIDE {
                let offsets = (residue..costs.len()).step_by(STRIDE);
                let at = offsets.min_by_key(|&at| (costs[at], at)).expect("a long literal has a gram at each offset");
                entries.push((gram_at(bytes, at), index as u32, at as u32));
            }
        }
        // About one bit in ten set (three per gram), from 64 Ki bits (8 KiB)
        // up to 2 Mi bits: a position of text without a literal then passes
        // about once in a thousand.
        let bits = (entries.len() * 32).next_power_of_two().trailing_zeros().clamp(16, 21);
        let word_bits = bits - 5;
        let index_bits = entries.len().next_power_of_two().trailing_zeros().clamp(1, MAX_INDEX_BITS);
        let bucket = |gram: u64| hash(gram, index_bits);
        let mut bitmap = vec![0u32; 1 << word_bits].into_boxed_slice();
        let mut starts = vec![0u32; (1 << index_bits) + 1].into_boxed_slice();
        for &(gram, _, _) in &entries {
            let (word, mask) = bloom(gram_hash(gram), word_bits);
            bitmap[word] |= mask;
            starts[bucket(gram) + 1] += 1;
        }
        for b in 0..1 << index_bits {
            starts[b + 1] += starts[b];
        }
        // The entries by bucket, in literal order within one (a counting
        // sort: a comparison sort of tens of thousands took milliseconds).
        let mut next = starts.clone();
        let mut sorted = vec![(0u64, 0, 0); entries.len()].into_boxed_slice();
        for entry in entries {
            let slot = &mut next[bucket(entry.0)];
            sorted[*slot as usize] = entry;
            *slot += 1;
        }
        let literals = literals.iter().map(|l| l.as_bytes().into()).collect();
        Grams { bitmap, word_bits, starts, index_bits, entries: sorted, literals }
    }

    /// Calls `hit(notes, scanned, start, literal)` for every occurrence of
    /// a long literal, `scanned` being the position the scan is at; the
    /// vector scan counts line breaks into `notes`.
    fn for_each<'t>(&self, bytes: &'t [u8], notes: &mut ScanNotes<'t>, mut hit: impl Hit<'t>) {
        if self.entries.is_empty() {
            return;
        }
        #[cfg(target_arch = "x86_64")]
        if vector_scan_runs() {
            // SAFETY: the CPU has AVX2 and POPCNT, just checked.
            let at = unsafe { self.scan_avx2(bytes, notes, &mut hit) };
            return self.scan(bytes, at, notes, &mut hit);
        }
        self.scan(bytes, 0, notes, &mut hit);
    }

    /// The scalar scan, of the positions from `at` (a multiple of
    /// [`STRIDE`]). It leaves the line breaks to be counted when asked for.
    fn scan<'t>(&self, bytes: &'t [u8], mut at: usize, notes: &mut ScanNotes<'t>, hit: &mut impl Hit<'t>) {
        let word_bits = self.word_bits;
        let bitmap = &self.bitmap[..];
        // One 8-byte load, three multiplications and a test of three bits per position
        // looked at, and nothing else until a gram's bits are set (most
        // positions of most logs). Four positions per round, tested at once,
        // so that their bitmap loads overlap.
        let test = |at: usize| {
            let (word, mask) = bloom(gram_hash(gram_at(bytes, at)), word_bits);
            bitmap[word] & mask == mask
        };
        while at + 3 * STRIDE + GRAM <= bytes.len() {
            let hits = [test(at), test(at + STRIDE), test(at + 2 * STRIDE), test(at + 3 * STRIDE)];
            if hits != [false; 4] {
                for (k, &hit_at) in hits.iter().enumerate() {
                    if hit_at {
                        self.confirm(bytes, at + k * STRIDE, notes, hit);
                    }
                }
            }
            at += 4 * STRIDE;
        }
        while at + GRAM <= bytes.len() {
            if test(at) {
                self.confirm(bytes, at, notes, hit);
            }
            at += STRIDE;
        }
    }

    /// The scan with AVX2, eight positions a round: the grams' halves are
    /// two unaligned loads of 32 bytes, 4 bytes apart, hashed as in
    /// [`gram_hash`] and [`bloom`], and their bitmap words gathered. The
    /// first load is the round's 32 bytes, whose line breaks are counted
    /// into `notes` at every [`BLOCK`]. Returns the position where the
    /// scalar scan takes over.
    ///
    /// # Safety
    ///
    /// The CPU must have AVX2 and POPCNT.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2,popcnt")]
    unsafe fn scan_avx2<'t>(&self, bytes: &'t [u8], notes: &mut ScanNotes<'t>, hit: &mut impl Hit<'t>) -> usize {
        use std::arch::x86_64::*;

        // Rounds start at multiples of 32, so every block starts one.
        const _: () = assert!(BLOCK.is_multiple_of(LANES * STRIDE));
        let line_break = _mm256_set1_epi8(b'\n' as i8);
        let mut line_breaks = 0;
        // Every byte seen, or'ed: its top bit tells whether one was not ASCII.
        let mut seen = _mm256_setzero_si256();
        let low = _mm256_set1_epi32(LOW_FACTOR as i32);
        let high = _mm256_set1_epi32(HIGH_FACTOR as i32);
        let mix = _mm256_set1_epi32(MIX_FACTOR as i32);
        let word_shift = _mm_cvtsi32_si128(32 - self.word_bits as i32);
        let bit = _mm256_set1_epi32(31);
        let one = _mm256_set1_epi32(1);
        let mut at = 0;
        // The round reads bytes `at .. at + 4 + 32`.
        while at + STRIDE + 32 <= bytes.len() {
            // SAFETY: both loads are within `bytes` (the loop's condition);
            // `loadu` takes any alignment.
            let (lows, highs) = unsafe {
                let start = bytes.as_ptr().add(at);
                (_mm256_loadu_si256(start.cast()), _mm256_loadu_si256(start.add(4).cast()))
            };
            let hashed = _mm256_xor_si256(_mm256_mullo_epi32(lows, low), _mm256_mullo_epi32(highs, high));
            let words = _mm256_srl_epi32(hashed, word_shift);
            let mixed = _mm256_mullo_epi32(hashed, mix);
            // The three bits' positions, each below 32 (see `bloom`).
            let first = _mm256_srli_epi32::<27>(mixed);
            let second = _mm256_and_si256(_mm256_srli_epi32::<22>(mixed), bit);
            let third = _mm256_and_si256(_mm256_srli_epi32::<17>(mixed), bit);
            let mask = _mm256_or_si256(
                _mm256_or_si256(_mm256_sllv_epi32(one, first), _mm256_sllv_epi32(one, second)),
                _mm256_sllv_epi32(one, third),
            );
            // SAFETY: every word index is below `1 << word_bits`, the
            // bitmap's length (a 32-bit hash shifted right by `32 -
            // word_bits`).
            let gathered = unsafe { _mm256_i32gather_epi32::<4>(self.bitmap.as_ptr().cast(), words) };
            let passed = _mm256_cmpeq_epi32(_mm256_and_si256(gathered, mask), mask);
            if at.is_multiple_of(BLOCK) && at > 0 {
                notes.record_block(at, line_breaks);
            }
            let mut lanes = _mm256_movemask_ps(_mm256_castsi256_ps(passed)) as u32;
            while lanes != 0 {
                self.confirm(bytes, at + lanes.trailing_zeros() as usize * STRIDE, notes, hit);
                lanes &= lanes - 1;
            }
            let breaks_here = _mm256_movemask_epi8(_mm256_cmpeq_epi8(lows, line_break)) as u32;
            line_breaks += breaks_here.count_ones() as usize;
            seen = _mm256_or_si256(seen, lows);
            at += LANES * STRIDE;
        }
        if _mm256_movemask_epi8(seen) == 0 {
            notes.ascii_until(at);
        }
        at
    }

    /// Reports the literals whose gram is at `at`.
    #[inline(never)]
    fn confirm<'t>(&self, bytes: &'t [u8], at: usize, notes: &mut ScanNotes<'t>, hit: &mut impl Hit<'t>) {
        let gram = gram_at(bytes, at);
        let bucket = hash(gram, self.index_bits);
        for &(candidate, literal, offset) in
            &self.entries[self.starts[bucket] as usize..self.starts[bucket + 1] as usize]
        {
            let offset = offset as usize;
            if candidate != gram || offset > at {
                continue;
            }
            let start = at - offset;
            if bytes[start..].starts_with(&self.literals[literal as usize]) {
                hit(notes, at, start, literal as usize);
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

/// The [`commonness`] of `bytes`, summed.
fn commonness_of(bytes: &[u8]) -> u32 {
    bytes.iter().map(|&b| u32::from(COMMONNESS[usize::from(b)])).sum()
}

/// How common a byte is in log text, from 0 (rare) to 255: spaces, small
/// letters and the digits and punctuation of timestamps, ids and addresses
/// are everywhere; other punctuation is rare. Capitals count as much as
/// the rarer small letters: trace lines repeat protocol words in capitals
/// (`CONNECT `, `PUBLISH `), and preferring grams of capitals had a quarter
/// of a real server log's false hits land on those two (measured). A gram
/// made of rarer bytes is looked up less often on lines that hold no
/// literal.
const fn commonness(byte: u8) -> u8 {
    match byte {
        b' ' => 255,
        b'e' | b't' | b'a' | b'o' | b'i' | b'n' | b's' | b'r' => 200,
        b'0'..=b'9' => 190,
        b'.' | b':' | b'-' | b'/' | b'[' | b']' | b'=' | b'"' | b',' => 170,
        b'a'..=b'z' | b'A'..=b'Z' => 140,
        _ => 40,
    }
}

/// Factors of the gram hash: odd 32-bit constants (from xxHash and
/// MurmurHash3).
const LOW_FACTOR: u32 = 0x9e37_79b1;
const HIGH_FACTOR: u32 = 0x85eb_ca77;
const MIX_FACTOR: u32 = 0xc2b2_ae3d;

/// The 32-bit hash of a gram that the bitmap is indexed by: a product of
/// each half, since AVX2 multiplies 32-bit lanes, not 64-bit ones.
#[inline(always)]
fn gram_hash(gram: u64) -> u32 {
    (gram as u32).wrapping_mul(LOW_FACTOR) ^ ((gram >> 32) as u32).wrapping_mul(HIGH_FACTOR)
}

/// A gram's three bits in the bitmap, all in one word (a blocked Bloom
/// filter): the word (the hash's top bits), and the mask of the three bits
/// (the top bits of the hash multiplied again: a product's low bits depend
/// on few of the input's). Three bits let through a fifth of the grams two
/// would at this density, for one more test.
#[inline(always)]
fn bloom(hashed: u32, word_bits: u32) -> (usize, u32) {
    let word = (hashed >> (32 - word_bits)) as usize;
    let mixed = hashed.wrapping_mul(MIX_FACTOR);
    let mask = (1 << (mixed >> 27)) | (1 << ((mixed >> 22) & 31)) | (1 << ((mixed >> 17) & 31));
    (word, mask)
}

/// A gram's slot in the table of gram counts or the index of entries:
/// below `1 << bits`.
fn hash(gram: u64, bits: u32) -> usize {
    (gram.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> (64 - bits)) as usize
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

    /// What a scan reports: (scanned, start, literal) of every occurrence.
    type Reported = Vec<(usize, usize, usize)>;

    /// What the scalar scan reports, and what the AVX2 scan (then the scalar
    /// one for the rest) does when the CPU has AVX2.
    fn both_scans(grams: &Grams, text: &str) -> (Reported, Option<Reported>) {
        let bytes = text.as_bytes();
        let mut scalar = Vec::new();
        grams.scan(bytes, 0, &mut ScanNotes::new(bytes), &mut |_: &mut ScanNotes, scanned, start, literal| {
            scalar.push((scanned, start, literal))
        });
        if vector_scan_runs() {
            // `for_each` takes the AVX2 scan here, as in use.
            let mut vector = Vec::new();
            grams.for_each(bytes, &mut ScanNotes::new(bytes), |_: &mut ScanNotes, scanned, start, literal| {
                vector.push((scanned, start, literal))
            });
            return (scalar, Some(vector));
        }
        (scalar, None)
    }

    #[test]
    fn the_scan_counts_line_breaks_at_every_block() {
        // Lines of every length up to a few hundred bytes, over several
        // blocks, and one literal so that the gram scan runs.
        let text: String = (0..400).map(|i| "y".repeat(i * 7 % 301) + "\n").collect();
        assert!(text.len() > 10 * BLOCK);
        let filter = Prefilter::new(&["a literal of some length"]);
        let mut notes = ScanNotes::new(text.as_bytes());
        filter.for_each_counting(text.as_bytes(), &mut notes, |_, _, _| panic!("the text holds no literal"));
        if !vector_scan_runs() {
            eprintln!("SKIPPED: counting in the AVX2 scan (this CPU has no AVX2); the counts are checked below");
        }
        // Block by block, each count taken from its block's record where
        // the scan left one.
        for at in (0..=text.len()).step_by(BLOCK).chain([text.len()]) {
            assert_eq!(notes.line_breaks_before(at), text[..at].matches('\n').count(), "before {at}");
        }
    }

    #[test]
    fn the_vector_scan_reports_what_the_scalar_one_does() {
        // Literals long enough for the gram filter, in a text of thousands of
        // bytes where they start at every offset modulo the 32 bytes of a
        // vector round.
        let literals = ["stream not found", "consumer deleted", "account \"A\" ready", "0123456789abcdef"];
        let mut text = String::new();
        for i in 0..200 {
            text.push_str(&"x".repeat(i % 37));
            text.push_str(literals[i % literals.len()]);
            text.push(if i % 5 == 0 { '\n' } else { ' ' });
        }
        let long: Vec<usize> = (0..literals.len()).collect();
        let grams = Grams::new(&literals, &long);
        let (scalar, vector) = both_scans(&grams, &text);
        assert_eq!(scalar.len(), 200, "every occurrence, once");
        match vector {
            Some(vector) => assert_eq!(vector, scalar),
            None => eprintln!("SKIPPED: the AVX2 scan (this CPU has no AVX2); the scalar scan was checked"),
        }
    }

    #[test]
    fn many_short_literals_are_keyed_by_their_start() {
        // More short literals than get 3-byte keys, some the start of
        // others (one key, several literals); then four of them, keyed, all
        // with the rarest bytes `bQz` at different offsets.
        let mut many: Vec<String> = (0..MAX_KEYED + 8).map(|i| format!("{}Qz{i:02}", "ab".repeat(i % 3 + 1))).collect();
        many.extend(["abQz00 x", "abQz0", "abQz00 xy"].map(String::from));
        let many: Vec<&str> = many.iter().map(String::as_str).collect();
        let text: String = (0..200)
            .map(|i| format!("{} x{}", many[i * 7 % many.len()], if i % 9 == 0 { "\n" } else { " " }))
            .chain(["abQz00 xy\n".to_owned()])
            .collect();
        check(&many, &text).unwrap();
        check(&many[..4], &text).unwrap();
        assert!(Prefilter::new(&many).short.is_some_and(|short| short.ends.len() < many.len()), "keys shared");
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
            (literals, text) in prop::collection::vec("[ab ]{4,16}", 1..12).prop_flat_map(|literals| {
                // Text made of the literals, pieces of them and noise.
                let piece = prop_oneof![
                    prop::sample::select(literals.clone()),
                    prop::sample::select(literals.clone()).prop_map(|l| l[l.len() / 2..].to_owned()),
                    "[ab \nx]{0,6}",
                ];
                (Just(literals), prop::collection::vec(piece, 0..12).prop_map(|pieces| pieces.concat()))
            }),
        ) {
            let literals: Vec<&str> = literals.iter().map(String::as_str).collect();
            check(&literals, &text)?;
            let long: Vec<usize> = (0..literals.len()).filter(|&i| literals[i].len() >= LONG).collect();
            if let (scalar, Some(vector)) = both_scans(&Grams::new(&literals, &long), &text) {
                prop_assert_eq!(vector, scalar);
            }
        }
    }
}
