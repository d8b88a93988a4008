//! Matching templates made only of literal text and plain text placeholders
//! (`%v`, `%s`, `%w`, ...: the regex `(.+?)`) without a regex: the literal
//! pieces are found with substring search, and the lazy placeholders take
//! the shortest text that lets the rest match, exactly as the regex would.
//! Most records are of this shape, and this is several times faster than a
//! capture-group search. A step budget keeps the work per line bounded; past
//! it, or for any other shape, the caller uses the regex.

use std::ops::Range;

use memchr::memmem;

use crate::format::{Count, Dialect, Piece, Template, ValueKind};

/// A template of literal runs separated by single `(.+?)` placeholders.
#[derive(Debug)]
pub struct LiteralTemplate {
    /// `literals[0]` precedes the first placeholder, `literals[i]` follows
    /// placeholder `i`; the first and last may be empty.
    literals: Vec<Box<str>>,
    /// The match must end at the end of the text (the find regex ends in `$`).
    anchored_end: bool,
}

/// What a match attempt gave.
#[derive(Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The span of the match and of each placeholder, in order.
    Match(Range<usize>, Vec<Range<usize>>),
    NoMatch,
    /// The step budget ran out: ask the regex.
    Undecided,
}

const BUDGET: usize = 4096;

impl LiteralTemplate {
    /// The template in this form, if it has it (with the semantics of the
    /// matcher's find regex: a trailing line break is dropped).
    pub fn new(template: &Template) -> Option<Self> {
        if matches!(template.dialect, Dialect::Pattern) {
            return None;
        }
        let mut literals: Vec<String> = vec![String::new()];
        for piece in template.pieces.iter() {
            match piece {
                Piece::Literal(text) => literals.last_mut().expect("never empty").push_str(text),
                Piece::Value { field, spec } => {
                    let plain = template.fields[usize::from(*field)].kind == ValueKind::Text
                        && !matches!(spec.verb, 'x' | 'X')
                        && spec.width == Count::None
                        && spec.precision == Count::None
                        && spec.flags.0 == 0;
                    // Touching placeholders have no literal between them.
                    if !plain || (literals.len() > 1 && literals.last().is_some_and(String::is_empty)) {
                        return None;
                    }
                    literals.push(String::new());
                }
            }
        }
        let last = literals.last_mut().expect("never empty");
        let ends_with_break = last.ends_with(['\n', '\r']);
        last.truncate(last.trim_end_matches(['\n', '\r']).len());
        if literals.iter().any(|l| l.contains(['\n', '\r'])) {
            return None;
        }
        if literals.len() == 1 && literals[0].is_empty() {
            return None;
        }
        let anchored_end = literals.len() > 1 && literals.last().is_some_and(String::is_empty) || ends_with_break;
        Some(LiteralTemplate { literals: literals.into_iter().map(String::into_boxed_str).collect(), anchored_end })
    }

    /// The leftmost match in `text` (one line, after its log prefix), with
    /// lazy placeholders, as the template's find regex would give.
    pub fn find(&self, text: &str) -> Outcome {
        if text.contains('\n') {
            return Outcome::Undecided; // `.` does not match a line break
        }
        let mut budget = BUDGET;
        let first = self.literals[0].as_bytes();
        let values = self.literals.len() - 1;
        if values > 0 && first.is_empty() {
            // Starts with a placeholder: anchored at the start.
            let mut spans = Vec::with_capacity(values);
            return match self.rest(text, 0, 0, &mut spans, &mut budget) {
                Some(end) => Outcome::Match(0..end, spans),
                None if budget == 0 => Outcome::Undecided,
                None => Outcome::NoMatch,
            };
        }
        for start in memmem::find_iter(text.as_bytes(), first) {
            let mut spans = Vec::with_capacity(values);
            if let Some(end) = self.rest(text, 0, start + first.len(), &mut spans, &mut budget) {
                return Outcome::Match(start..end, spans);
            }
            if budget == 0 {
                return Outcome::Undecided;
            }
        }
        Outcome::NoMatch
    }

    /// Matches placeholders `value..` from `at`; the end of the match.
    fn rest(
        &self,
        text: &str,
        value: usize,
        at: usize,
        spans: &mut Vec<Range<usize>>,
        budget: &mut usize,
    ) -> Option<usize> {
        if *budget == 0 {
            return None;
        }
        *budget -= 1;
        let values = self.literals.len() - 1;
        if value == values {
            return (!self.anchored_end || at == text.len()).then_some(at);
        }
        let next = self.literals[value + 1].as_bytes();
        if value + 1 == values && next.is_empty() {
            // The last placeholder runs to the end of the text.
            return (at < text.len()).then(|| {
                spans.push(at..text.len());
                text.len()
            });
        }
        // The shortest placeholder first: at least one character.
        let from = at + 1;
        if from > text.len() {
            return None;
        }
        for found in memmem::find_iter(&text.as_bytes()[from..], next) {
            let end = from + found;
            spans.push(at..end);
            if let Some(done) = self.rest(text, value + 1, end + next.len(), spans, budget) {
                return Some(done);
            }
            spans.pop();
            if *budget == 0 {
                return None;
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::compile;
    use proptest::prelude::*;

    /// What the regex gives: the reference.
    fn by_regex(message: &str, text: &str) -> Outcome {
        let template = compile(message, Dialect::Go).unwrap();
        let regex = regex::Regex::new(&crate::matcher::find_regex(&template)).unwrap();
        match regex.captures(text) {
            Some(c) => {
                let spans = (1..c.len()).map(|i| c.get(i).unwrap().range()).collect();
                Outcome::Match(c.get(0).unwrap().range(), spans)
            }
            None => Outcome::NoMatch,
        }
    }

    #[test]
    fn shapes() {
        let shape = |m: &str| LiteralTemplate::new(&compile(m, Dialect::Go).unwrap()).is_some();
        assert!(shape("stream %s not found: %v"));
        assert!(shape("%v: closed"));
        assert!(shape("plain text"));
        assert!(shape("read %v\n"));
        assert!(!shape("%q quoted"));
        assert!(!shape("count %d"));
        assert!(!shape("%5s padded"));
        assert!(!shape("%s%s touching"));
    }

    #[test]
    fn lazy_placeholders_take_the_shortest_text_that_lets_the_rest_match() {
        let t = LiteralTemplate::new(&compile("a %v b %v", Dialect::Go).unwrap()).unwrap();
        assert_eq!(t.find("x a 1 b 2 b 3"), Outcome::Match(2..13, vec![4..5, 8..13]));
        let t = LiteralTemplate::new(&compile("%v: x", Dialect::Go).unwrap()).unwrap();
        let spans: Vec<Range<usize>> = std::iter::once(0..4).collect();
        assert_eq!(t.find("a: b: x"), Outcome::Match(0..7, spans));
        assert_eq!(t.find(": x"), Outcome::NoMatch);
    }

    fn message() -> impl Strategy<Value = String> {
        prop::collection::vec(prop_oneof![Just("%v"), Just("a"), Just("b"), Just(": "), Just("ab")], 1..6)
            .prop_map(|parts| parts.concat())
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 3000, ..ProptestConfig::default() })]

        #[test]
        fn agrees_with_the_regex(message in message(), text in "[ab: xé]{0,14}") {
            let template = compile(&message, Dialect::Go).unwrap();
            if let Some(fast) = LiteralTemplate::new(&template) {
                prop_assert_eq!(fast.find(&text), by_regex(&message, &text), "{:?} on {:?}", message, text);
            }
        }
    }
}
