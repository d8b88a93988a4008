//! A message found inside a line starts and ends at word edges: a record
//! whose message begins (ends) with a word character does not match where
//! the line has a word character right before (after) it. Without this, a
//! one-word record (`consumer`) matches every line that holds a longer word
//! (`... and 3 consumers`). A placeholder at the edge is not concerned: its
//! value may be glued to anything. Word characters are ASCII letters, digits
//! and `_`, as the find regex's `(?-u:\b)` has them, so that the regex and
//! the literal matcher agree: Unicode's `\b` made the regexes' lazy DFAs
//! build twice the states (a dense nats-server log took 7% more
//! instructions in all, callgrind), for letters beyond ASCII glued to a
//! record's first or last word, which logs seldom hold.

use crate::format::{Piece, Template};

/// Where a template's literal text meets a word edge.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct WordEdges {
    /// The message begins with a word character.
    pub(super) start: bool,
    /// The message ends with a word character (a trailing line break, which
    /// the line's end stands for, aside).
    pub(super) end: bool,
}

impl WordEdges {
    pub(super) fn of(template: &Template) -> WordEdges {
        let literal = |piece: Option<&Piece>| match piece {
            Some(Piece::Literal(text)) => Some(text.trim_end_matches(['\n', '\r']).to_owned()),
            _ => None,
        };
        let first = literal(template.pieces.first());
        let last = literal(template.pieces.last());
        // A trailing line break ends the message at the line's end.
        let ends_with_break =
            matches!(template.pieces.last(), Some(Piece::Literal(text)) if text.ends_with(['\n', '\r']));
        WordEdges {
            start: first.and_then(|text| text.chars().next()).is_some_and(is_word),
            end: !ends_with_break && last.and_then(|text| text.chars().next_back()).is_some_and(is_word),
        }
    }

    /// Whether a match may start at `at` in `text`.
    pub(super) fn may_start(self, text: &str, at: usize) -> bool {
        !self.start || !text[..at].chars().next_back().is_some_and(is_word)
    }

    /// Whether a match may end at `at` in `text`.
    pub(super) fn may_end(self, text: &str, at: usize) -> bool {
        !self.end || !text[at..].chars().next().is_some_and(is_word)
    }

    /// The edges that a prefilter hit of `literal` must meet for one of
    /// `owners` (the templates that require it) to start or end there: a
    /// template's start is bound only where its message begins with the
    /// literal, its end only where it ends with it. A template that holds
    /// the literal elsewhere too starts at another hit of it, looked at
    /// on its own.
    pub(super) fn of_literal<'t>(literal: &str, owners: impl Iterator<Item = &'t Template>) -> WordEdges {
        let mut bound = WordEdges { start: true, end: true };
        for owner in owners {
            let edges = WordEdges::of(owner);
            let text = |piece: Option<&'t Piece>| match piece {
                Some(Piece::Literal(text)) => text.as_ref(),
                _ => "",
            };
            bound.start &= edges.start && text(owner.pieces.first()).starts_with(literal);
            bound.end &= edges.end && text(owner.pieces.last()).ends_with(literal);
        }
        bound
    }

    /// Whether a hit of a literal at `start..end` of `bytes` meets these
    /// edges (a byte beyond ASCII is no word character).
    pub(super) fn may_hold(self, bytes: &[u8], start: usize, end: usize) -> bool {
        let word = |byte: Option<&u8>| byte.is_some_and(|&b| b.is_ascii_alphanumeric() || b == b'_');
        let glued_before = self.start && word(start.checked_sub(1).and_then(|before| bytes.get(before)));
        let glued_after = self.end && word(bytes.get(end));
        !glued_before && !glued_after
    }

    /// The assertions of the find regex before and after its body.
    pub(super) fn regex_asserts(self) -> (&'static str, &'static str) {
        let assert = |edge: bool| if edge { r"(?-u:\b)" } else { "" };
        (assert(self.start), assert(self.end))
    }
}

/// A word character of `(?-u:\b)`.
fn is_word(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::{compile, Dialect};

    fn edges(message: &str) -> WordEdges {
        WordEdges::of(&compile(message, Dialect::Go).unwrap())
    }

    #[test]
    fn only_a_literal_word_character_at_an_edge_is_bound() {
        assert_eq!(edges("consumer"), WordEdges { start: true, end: true });
        assert_eq!(edges("%s consumer"), WordEdges { start: false, end: true });
        assert_eq!(edges("consumer %s"), WordEdges { start: true, end: false });
        assert_eq!(edges("[consumer]"), WordEdges { start: false, end: false });
        assert_eq!(edges("read %v\n"), WordEdges { start: true, end: false });
        assert_eq!(edges("Überlauf"), WordEdges { start: false, end: true });
    }

    #[test]
    fn a_literal_is_bound_where_every_template_requiring_it_begins_or_ends_with_it() {
        let templates = |messages: &[&str]| -> Vec<Template> {
            messages.iter().map(|message| compile(message, Dialect::Go).unwrap()).collect()
        };
        let alone = templates(&["consumer"]);
        assert_eq!(WordEdges::of_literal("consumer", alone.iter()), WordEdges { start: true, end: true });
        let shared = templates(&["consumer", "consumer %s lost", "%s lagging consumer"]);
        assert_eq!(WordEdges::of_literal("consumer", shared[..2].iter()), WordEdges { start: true, end: false });
        assert_eq!(WordEdges::of_literal("consumer", shared.iter()), WordEdges { start: false, end: false });
        let bound = WordEdges { start: true, end: true };
        assert!(!bound.may_hold(b"3 consumers", 2, 10));
        assert!(!bound.may_hold(b"subconsumer", 3, 11));
        assert!(bound.may_hold(b"3 consumer.", 2, 10));
        assert!(bound.may_hold("üconsumer".as_bytes(), "ü".len(), "üconsumer".len()), "ü is no ASCII word character");
    }

    #[test]
    fn only_ascii_word_characters_glue() {
        let bound = edges("consumer");
        assert!(!bound.may_start("subconsumer", "sub".len()));
        assert!(bound.may_start("über consumer", "über ".len()));
        assert!(bound.may_start("üconsumer", "ü".len()));
        assert!(!bound.may_end("consumer_", "consumer".len()));
        assert!(bound.may_end("consumerß", "consumer".len()));
        assert!(bound.may_end("consumer", "consumer".len()));
    }
}
