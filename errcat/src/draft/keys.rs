//! The lines read so far, as their distinct masked messages ("keys") with
//! counts, places and one example each: all the miner keeps of the input,
//! so its memory is bounded by the number of keys (a cap, then a note), not
//! by the number of lines.
//!
//! Real logs repeat their messages word for word (two in five of the
//! messages of Loghub-2k's shared systems are another line's again), so a
//! line or message seen before is looked up before it is read again:
//! finding a line's prefix and level and masking its message are most of
//! its cost. What is remembered is bounded by its text ([`SEEN_BYTES`]).

use error_catalog::LogLevel;

use super::mask::{mask_into, tokens};
use rustc_hash::FxHashMap as HashMap;

/// Where a line was read: the index of its input and its line number.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Place {
    pub input: u32,
    pub line: u64,
}

/// One distinct masked message.
pub struct Key {
    /// Its tokens (split at single spaces, so an empty value keeps its place).
    pub tokens: Vec<Box<str>>,
    pub count: u64,
    pub first: Place,
    pub last: Place,
    /// The first line's message, as logged.
    pub example: Box<str>,
    /// Lines per level (in `LEVELS` order), and lines without one.
    pub levels: [u64; LEVELS.len() + 1],
}

/// The levels a line can have, in order of severity.
pub const LEVELS: [LogLevel; 7] = [
    LogLevel::Trace,
    LogLevel::Debug,
    LogLevel::Info,
    LogLevel::System,
    LogLevel::Warning,
    LogLevel::Error,
    LogLevel::Fatal,
];

/// The text of the lines and messages [`Keys`] remembers, at most: past
/// it, new ones are read and masked every time they are seen.
pub const SEEN_BYTES: usize = 16 << 20;

pub struct Keys {
    by_text: HashMap<Box<str>, usize>,
    pub keys: Vec<Key>,
    /// At most this many keys; lines with new keys past it are only counted.
    cap: usize,
    /// Lines not kept because the cap was reached.
    pub dropped: u64,
    masked: String,
    /// Whole lines seen, with their key and level slot: a line seen again
    /// needs neither its prefix found nor its level.
    seen_lines: HashMap<Box<str>, (usize, usize)>,
    /// Messages seen (after a log prefix), with their key.
    seen_messages: HashMap<Box<str>, usize>,
    seen_bytes: usize,
}

impl Keys {
    pub fn new(cap: usize) -> Self {
        Keys {
            by_text: HashMap::default(),
            keys: Vec::new(),
            cap,
            dropped: 0,
            masked: String::new(),
            seen_lines: HashMap::default(),
            seen_messages: HashMap::default(),
            seen_bytes: 0,
        }
    }

    /// Counts `line`, read at `place`, when the same line was counted
    /// before; `false` (and nothing counted) when not.
    pub fn add_seen_line(&mut self, line: &str, place: Place) -> bool {
        let Some(&(index, level_slot)) = self.seen_lines.get(line) else { return false };
        self.count(index, place, level_slot);
        true
    }

    /// Counts one message read at `place`, of `level` if it has one:
    /// `line` the whole line, whose message starts at byte `start`.
    pub fn add(&mut self, line: &str, start: usize, place: Place, level: Option<LogLevel>) {
        let message = &line[start..];
        let level_slot = level.and_then(|l| LEVELS.iter().position(|x| *x == l)).unwrap_or(LEVELS.len());
        let known = self.seen_messages.get(message).copied().or_else(|| {
            mask_into(message, &mut self.masked);
            self.by_text.get(self.masked.as_str()).copied()
        });
        let index = match known {
            Some(index) => {
                self.count(index, place, level_slot);
                index
            }
            None if self.keys.len() >= self.cap => {
                self.dropped += 1;
                return;
            }
            None => {
                let tokens = tokens(&self.masked);
                let mut levels = [0; LEVELS.len() + 1];
                levels[level_slot] = 1;
                self.keys.push(Key { tokens, count: 1, first: place, last: place, example: message.into(), levels });
                self.by_text.insert(self.masked.as_str().into(), self.keys.len() - 1);
                self.keys.len() - 1
            }
        };
        self.remember(line, start, index, level_slot);
    }

    fn count(&mut self, index: usize, place: Place, level_slot: usize) {
        let key = &mut self.keys[index];
        key.count += 1;
        key.last = place;
        key.levels[level_slot] += 1;
    }

    /// Remembers the line and its message (when it has a prefix), while
    /// [`SEEN_BYTES`] allow.
    fn remember(&mut self, line: &str, start: usize, index: usize, level_slot: usize) {
        if self.seen_bytes + 2 * line.len() > SEEN_BYTES {
            return;
        }
        if !self.seen_lines.contains_key(line) {
            self.seen_bytes += line.len();
            self.seen_lines.insert(line.into(), (index, level_slot));
        }
        let message = &line[start..];
        if start > 0 && !self.seen_messages.contains_key(message) {
            self.seen_bytes += message.len();
            self.seen_messages.insert(message.into(), index);
        }
    }

    /// Lines counted.
    pub fn lines(&self) -> u64 {
        self.keys.iter().map(|k| k.count).sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn place(line: u64) -> Place {
        Place { input: 0, line }
    }

    #[test]
    fn lines_that_differ_in_masked_values_share_a_key() {
        let mut keys = Keys::new(10);
        keys.add("read 12 bytes from 10.0.0.1", 0, place(1), Some(LogLevel::Error));
        keys.add("read 7 bytes from 10.0.0.2", 0, place(2), Some(LogLevel::Warning));
        keys.add("read many bytes", 0, place(3), None);
        assert_eq!(keys.keys.len(), 2);
        let first = &keys.keys[0];
        assert_eq!((first.count, first.first, first.last), (2, place(1), place(2)));
        assert_eq!(&*first.example, "read 12 bytes from 10.0.0.1");
        assert_eq!(first.levels[5] + first.levels[4], 2);
        assert_eq!(keys.lines(), 3);
    }

    #[test]
    fn lines_and_messages_seen_again_count_with_their_own_level_and_place() {
        let mut keys = Keys::new(10);
        let first = "[1] ERR read 12 bytes";
        keys.add(first, 8, place(1), Some(LogLevel::Error));
        assert!(keys.add_seen_line(first, place(2)), "the same line again");
        assert!(!keys.add_seen_line("[2] WRN read 12 bytes", place(3)), "another line");
        // The same message behind another prefix, then a message masked alike.
        keys.add("[2] WRN read 12 bytes", 8, place(3), Some(LogLevel::Warning));
        keys.add("read 7 bytes", 0, place(4), None);
        assert_eq!(keys.keys.len(), 1);
        let key = &keys.keys[0];
        assert_eq!((key.count, key.first, key.last), (4, place(1), place(4)));
        assert_eq!((key.levels[5], key.levels[4], key.levels[LEVELS.len()]), (2, 1, 1));
        assert_eq!(&*key.example, "read 12 bytes");
    }

    #[test]
    fn new_keys_past_the_cap_are_counted_not_kept() {
        let mut keys = Keys::new(1);
        keys.add("one thing", 0, place(1), None);
        keys.add("another thing", 0, place(2), None);
        keys.add("one thing", 0, place(3), None);
        assert_eq!((keys.keys.len(), keys.dropped, keys.keys[0].count), (1, 1, 2));
    }

    #[test]
    fn an_empty_value_keeps_its_token() {
        let mut keys = Keys::new(4);
        keys.add("user  logged in", 0, place(1), None);
        assert_eq!(keys.keys[0].tokens.len(), 4);
    }
}
