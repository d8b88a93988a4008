//! A fast hash for the miner's maps of words and keys (the words of log
//! lines, a few bytes each, hashed millions of times: SipHash was a fifth of
//! a draft's time). Not for maps an attacker could fill to collide: every
//! map here is bounded by the cap on keys, and a collision costs time only.

use std::hash::{BuildHasherDefault, Hasher};

/// FxHash (as in rustc): a multiply and rotate per word.
#[derive(Default, Clone, Copy)]
pub struct FxHasher(u64);

const SEED: u64 = 0x51_7c_c1_b7_27_22_0a_95;

impl FxHasher {
    fn add(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(SEED);
    }
}

impl Hasher for FxHasher {
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for chunk in &mut chunks {
            self.add(u64::from_le_bytes(chunk.try_into().expect("8 bytes")));
        }
        let mut last = [0u8; 8];
        let rest = chunks.remainder();
        last[..rest.len()].copy_from_slice(rest);
        self.add(u64::from_le_bytes(last) ^ (rest.len() as u64) << 56);
    }

    fn write_u8(&mut self, i: u8) {
        self.add(u64::from(i));
    }

    fn write_usize(&mut self, i: usize) {
        self.add(i as u64);
    }

    fn finish(&self) -> u64 {
        self.0
    }
}

pub type HashMap<K, V> = std::collections::HashMap<K, V, BuildHasherDefault<FxHasher>>;
pub type HashSet<K> = std::collections::HashSet<K, BuildHasherDefault<FxHasher>>;

#[cfg(test)]
mod tests {
    use std::hash::{BuildHasher, BuildHasherDefault};

    use super::*;

    #[test]
    fn different_words_hash_apart_and_equal_ones_alike() {
        let build = BuildHasherDefault::<FxHasher>::default();
        let words = ["", "a", "ab", "abcdefgh", "abcdefghi", "abcdefgh\0", "é日本🎉"];
        let hashes: Vec<u64> = words.iter().map(|w| build.hash_one(w)).collect();
        for (i, a) in hashes.iter().enumerate() {
            assert_eq!(*a, build.hash_one(words[i]));
            for b in &hashes[i + 1..] {
                assert_ne!(a, b);
            }
        }
    }
}
