//! The literal prefilter of the matcher: which templates' required literals
//! occur in a text, and where.
//!
//! Aho-Corasick over thousands of literals runs at a few hundred MB/s. When
//! every literal is at least 4 bytes long, a faster filter is used instead:
//! each literal is represented by one of its 4-byte grams (the one rarest in
//! all the templates' text), every position of the text is hashed into a
//! 64 Ki-bit bitmap of those grams (8 KiB, in L1 cache), and only on a bitmap
//! hit are the grams with that hash compared and the whole literal checked.
//! Both report exactly the occurrences of the literals.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use aho_corasick::AhoCorasick;

/// Finds occurrences of a fixed set of literals.
#[derive(Debug)]
pub enum Prefilter {
    /// The 4-byte-gram filter (all literals are 4 bytes or longer).
    Grams(Grams),
    /// Aho-Corasick, for sets with shorter literals.
    Automaton(AhoCorasick),
}

impl Prefilter {
    pub fn new(literals: &[&str]) -> Self {
        if literals.iter().all(|l| l.len() >= GRAM) {
            Prefilter::Grams(Grams::new(literals))
        } else {
            Prefilter::Automaton(AhoCorasick::new(literals).expect("literal patterns are within Aho-Corasick's limits"))
        }
    }

    /// Calls `hit(start, literal)` for every occurrence of every literal, in
    /// an order where all the occurrences within one line come before those
    /// of later lines (literals hold no line break).
    pub fn for_each(&self, text: &str, mut hit: impl FnMut(usize, usize)) {
        match self {
            Prefilter::Grams(grams) => grams.for_each(text.as_bytes(), hit),
            Prefilter::Automaton(ac) => {
                for m in ac.find_overlapping_iter(text) {
                    hit(m.start(), m.pattern().as_usize());
                }
            }
        }
    }
}

/// The length of the grams: the shortest literal the prefilter takes.
pub(crate) const GRAM: usize = 4;
const BITS: usize = 1 << 16;

/// The bitmap position of a gram: below `BITS`.
fn hash(gram: u32) -> usize {
    (gram.wrapping_mul(0x9e37_79b1) >> 16) as usize
}

/// Hashes a gram with one multiplication: the gram counts of a catalog of
/// thousands of records are a good part of building a matcher at start-up,
/// and SipHash's resistance to chosen keys is not needed on the catalog's own
/// messages.
#[derive(Default)]
struct GramHasher(u64);

impl Hasher for GramHasher {
    fn write(&mut self, bytes: &[u8]) {
        for &byte in bytes {
            self.0 = (self.0 ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3);
        }
    }

    fn write_u32(&mut self, gram: u32) {
        // The high bits of the product pick the bucket (hashbrown uses the
        // top 7 bits as a tag and the low bits as the index, so both must mix).
        let mixed = u64::from(gram).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        self.0 = mixed ^ (mixed >> 32);
    }

    fn finish(&self) -> u64 {
        self.0
    }
}

fn gram_at(bytes: &[u8], at: usize) -> u32 {
    u32::from_le_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]])
}

/// The 4-byte-gram filter.
#[derive(Debug)]
pub struct Grams {
    bitmap: Box<[u64; BITS / 64]>,
    /// For each hash, the range of `entries` with that hash.
    starts: Vec<u32>,
    /// (gram, literal, offset of the gram in the literal), sorted by hash.
    entries: Vec<(u32, u32, u32)>,
    literals: Vec<Box<[u8]>>,
}

impl Grams {
    fn new(literals: &[&str]) -> Self {
        // How often each gram occurs in all the literals: a rough stand-in for
        // how often it occurs in logs.
        let mut counts: HashMap<u32, u32, BuildHasherDefault<GramHasher>> = HashMap::default();
        for literal in literals {
            let bytes = literal.as_bytes();
            for at in 0..=bytes.len() - GRAM {
                *counts.entry(gram_at(bytes, at)).or_default() += 1;
            }
        }
        let mut entries: Vec<(u32, u32, u32)> = literals
            .iter()
            .enumerate()
            .map(|(index, literal)| {
                let bytes = literal.as_bytes();
                let at = (0..=bytes.len() - GRAM).min_by_key(|&at| (counts[&gram_at(bytes, at)], at)).unwrap_or(0);
                (gram_at(bytes, at), index as u32, at as u32)
            })
            .collect();
        entries.sort_by_key(|&(gram, index, _)| (hash(gram), index));
        let mut bitmap = Box::new([0u64; BITS / 64]);
        let mut starts = vec![0u32; BITS + 1];
        for &(gram, _, _) in &entries {
            let h = hash(gram);
            bitmap[h / 64] |= 1 << (h % 64);
            starts[h + 1] += 1;
        }
        for h in 0..BITS {
            starts[h + 1] += starts[h];
        }
        let literals = literals.iter().map(|l| l.as_bytes().into()).collect();
        Grams { bitmap, starts, entries, literals }
    }

    fn for_each(&self, bytes: &[u8], mut hit: impl FnMut(usize, usize)) {
        if bytes.len() < GRAM {
            return;
        }
        let bitmap: &[u64; BITS / 64] = &self.bitmap;
        // Five grams from each 8-byte load: the loop does a load, a
        // multiplication and a bit test per position, and nothing else
        // until a gram's bit is set (most positions of most logs).
        let mut at = 0;
        while at + 8 <= bytes.len() {
            let word = u64::from_le_bytes(bytes[at..at + 8].try_into().expect("8 bytes"));
            for k in 0..5 {
                let gram = (word >> (8 * k)) as u32;
                let h = hash(gram);
                if bitmap[h >> 6] & (1 << (h & 63)) != 0 {
                    self.confirm(bytes, at + k, gram, h, &mut hit);
                }
            }
            at += 5;
        }
        for at in at..=bytes.len() - GRAM {
            let gram = gram_at(bytes, at);
            let h = hash(gram);
            if bitmap[h >> 6] & (1 << (h & 63)) != 0 {
                self.confirm(bytes, at, gram, h, &mut hit);
            }
        }
    }

    /// Reports the literals whose gram `gram` (of hash `h`) is at `at`.
    #[inline(never)]
    fn confirm(&self, bytes: &[u8], at: usize, gram: u32, h: usize, hit: &mut impl FnMut(usize, usize)) {
        for &(candidate, literal, offset) in &self.entries[self.starts[h] as usize..self.starts[h + 1] as usize] {
            let offset = offset as usize;
            if candidate != gram || offset > at {
                continue;
            }
            let start = at - offset;
            if bytes[start..].starts_with(&self.literals[literal as usize]) {
                hit(start, literal as usize);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hits(filter: &Prefilter, text: &str) -> Vec<(usize, usize)> {
        let mut found = Vec::new();
        filter.for_each(text, |start, literal| found.push((start, literal)));
        found.sort();
        found
    }

    #[test]
    fn both_filters_report_every_occurrence() {
        let literals = ["stream ", "not found", "stream not", "found"];
        let grams = Prefilter::new(&literals);
        assert!(matches!(grams, Prefilter::Grams(_)));
        let automaton = Prefilter::Automaton(AhoCorasick::new(literals).unwrap());
        for text in ["", "abc", "stream not found\nfound stream x", "xxstream stream not founds"] {
            let expected: Vec<(usize, usize)> = literals
                .iter()
                .enumerate()
                .flat_map(|(i, l)| text.match_indices(l).map(move |(at, _)| (at, i)).collect::<Vec<_>>())
                .collect::<std::collections::BTreeSet<_>>()
                .into_iter()
                .collect();
            assert_eq!(hits(&grams, text), expected, "{text:?}");
            assert_eq!(hits(&automaton, text), expected, "{text:?}");
        }
        assert!(matches!(Prefilter::new(&["ab", "stream"]), Prefilter::Automaton(_)));
    }
}
