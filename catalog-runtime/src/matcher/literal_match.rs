//! Matching templates made of literal text and simple placeholders without
//! a regex: the literal pieces are found with substring search; a plain text
//! placeholder (`%v`, `%s`, `%w`, ...: the regex `(.+?)`) takes the shortest
//! text that lets the rest match, exactly as the regex would; an integer
//! (`%d`) or a quoted string or rune (`%q`) has only one possible extent at
//! a given position, which is scanned directly. Most records are of this shape, and
//! this is several times faster than a capture-group search. A step budget
//! keeps the work per line bounded; past it, or for any other shape, the
//! caller uses the regex.

use std::ops::Range;

use memchr::memmem::Finder;

use super::word_edges::WordEdges;
use crate::format::{group_syntaxes, pieces_describe_regex, syntax, Dialect, Piece, Syntax, Template};

/// A template of literal runs separated by single placeholders.
#[derive(Debug)]
pub struct LiteralTemplate {
    /// `literals[0]` precedes the first placeholder, `literals[i]` follows
    /// placeholder `i`; the first and last may be empty. Built once: a
    /// finder is costly to set up for every line.
    literals: Vec<Finder<'static>>,
    /// The syntax of each placeholder: [`Syntax::Lazy`],
    /// [`Syntax::LazyNonEmpty`], [`Syntax::Integer`] or [`Syntax::Quoted`].
    placeholders: Vec<Syntax>,
    /// The match must end at the end of the text (the find regex ends in
    /// `$`): the message ends with a text placeholder or a line break.
    anchored_end: bool,
    /// Where the match must meet a word edge.
    word_edges: WordEdges,
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
        // A pattern's placeholders are its groups, read off the regex.
        let mut groups = match template.dialect {
            Dialect::Pattern if pieces_describe_regex(template) => group_syntaxes(&template.regex)?.into_iter(),
            Dialect::Pattern => return None,
            _ => Vec::new().into_iter(),
        };
        let mut literals: Vec<String> = vec![String::new()];
        let mut placeholders = Vec::new();
        for piece in template.pieces.iter() {
            match piece {
                Piece::Literal(text) => literals.last_mut().expect("never empty").push_str(text),
                Piece::Value { spec, .. } => {
                    let syntax = match template.dialect {
                        Dialect::Pattern => groups.next()?,
                        dialect => syntax(spec, dialect),
                    };
                    // Touching placeholders have no literal between them.
                    if syntax == Syntax::Other || (literals.len() > 1 && literals.last().is_some_and(String::is_empty))
                    {
                        return None;
                    }
                    placeholders.push(syntax);
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
        // An integer followed by a digit could end at several places: the
        // regex's backtracking would be needed. (For a pattern's Unicode
        // `\d`, any character beyond ASCII might be a digit.)
        let ambiguous = placeholders.iter().zip(&literals[1..]).any(|(syntax, next)| match syntax {
            Syntax::Integer => next.starts_with(|c: char| c.is_ascii_digit()),
            Syntax::Digits => next.starts_with(|c: char| c.is_ascii_digit() || !c.is_ascii()),
            _ => false,
        });
        if ambiguous {
            return None;
        }
        // Only a trailing text placeholder runs to the end of the line; an
        // integer or a quoted string ends by itself, and context may follow.
        // (A pattern that ends with any group runs to the end: see `find_regex`.)
        let ends_with_text = match placeholders.last() {
            Some(Syntax::Lazy | Syntax::LazyNonEmpty) => true,
            Some(_) => template.dialect == Dialect::Pattern,
            None => false,
        } && literals.last().is_some_and(String::is_empty);
        let anchored_end = ends_with_text || ends_with_break;
        let literals = literals.iter().map(|l| Finder::new(l.as_bytes()).into_owned()).collect();
        Some(LiteralTemplate { literals, placeholders, anchored_end, word_edges: WordEdges::of(template) })
    }

    /// The leftmost match in `text` (one line, after its log prefix), as the
    /// template's find regex would give.
    pub fn find(&self, text: &str) -> Outcome {
        if text.contains('\n') {
            return Outcome::Undecided; // `.` does not match a line break
        }
        let mut attempt = Attempt { text, spans: Vec::with_capacity(self.placeholders.len()), budget: BUDGET };
        let first = &self.literals[0];
        if !self.placeholders.is_empty() && first.needle().is_empty() {
            // Starts with a placeholder: anchored at the start.
            return match self.rest(&mut attempt, 0, 0) {
                Some(end) => Outcome::Match(0..end, attempt.spans),
                None if attempt.budget == 0 => Outcome::Undecided,
                None => Outcome::NoMatch,
            };
        }
        for start in occurrences(first, text.as_bytes()) {
            if !self.word_edges.may_start(text, start) {
                continue;
            }
            attempt.spans.clear();
            if let Some(end) = self.rest(&mut attempt, 0, start + first.needle().len()) {
                return Outcome::Match(start..end, attempt.spans);
            }
            if attempt.budget == 0 {
                return Outcome::Undecided;
            }
        }
        Outcome::NoMatch
    }

    /// Matches placeholders `value..` from `at`; the end of the match.
    fn rest(&self, attempt: &mut Attempt<'_>, value: usize, at: usize) -> Option<usize> {
        if attempt.budget == 0 {
            return None;
        }
        attempt.budget -= 1;
        let text = attempt.text;
        let values = self.placeholders.len();
        if value == values {
            let ends = if self.anchored_end { at == text.len() } else { self.word_edges.may_end(text, at) };
            return ends.then_some(at);
        }
        let next = self.literals[value + 1].needle();
        let last = value + 1 == values && next.is_empty();
        let end = match self.placeholders[value] {
            Syntax::Lazy | Syntax::LazyNonEmpty if last => {
                // The last placeholder runs to the end of the text.
                if self.placeholders[value] == Syntax::LazyNonEmpty && at == text.len() {
                    return None;
                }
                attempt.spans.push(at..text.len());
                return Some(text.len());
            }
            Syntax::Lazy => return self.lazy(attempt, value, at, 0),
            Syntax::LazyNonEmpty => return self.lazy(attempt, value, at, 1),
            Syntax::Integer => integer_end(text.as_bytes(), at)?,
            Syntax::Digits => match digits_end(text.as_bytes(), at) {
                Some(end) => end?,
                None => {
                    // A character beyond ASCII, which may be a digit: ask the regex.
                    attempt.budget = 0;
                    return None;
                }
            },
            Syntax::Quoted => quoted_end(text.as_bytes(), at)?,
            Syntax::Other => return None,
        };
        if !text.as_bytes()[end..].starts_with(next) {
            return None;
        }
        attempt.spans.push(at..end);
        let done = self.rest(attempt, value + 1, end + next.len());
        if done.is_none() {
            attempt.spans.pop();
        }
        done
    }

    /// A lazy placeholder `value` from `at`, followed by a non-empty literal:
    /// the shortest text (at least `min` bytes: none or one character) that
    /// lets the rest match.
    fn lazy(&self, attempt: &mut Attempt<'_>, value: usize, at: usize, min: usize) -> Option<usize> {
        let next = &self.literals[value + 1];
        // The literal starts a character, so it is never found inside the
        // first character: one byte on is one character on.
        let from = at + min;
        if from > attempt.text.len() {
            return None;
        }
        let text = attempt.text.as_bytes();
        for found in occurrences(next, &text[from..]) {
            let end = from + found;
            attempt.spans.push(at..end);
            if let Some(done) = self.rest(attempt, value + 1, end + next.needle().len()) {
                return Some(done);
            }
            attempt.spans.pop();
            if attempt.budget == 0 {
                return None;
            }
        }
        None
    }
}

/// One search of a line: the placeholders' spans so far and the steps left.
struct Attempt<'t> {
    text: &'t str,
    spans: Vec<Range<usize>>,
    budget: usize,
}

/// Every start of `literal` in `text`, overlapping ones included (the
/// regex tries every position; `find_iter` would skip from `aa` at 0 to 2).
fn occurrences<'a>(literal: &'a Finder<'static>, text: &'a [u8]) -> impl Iterator<Item = usize> + 'a {
    let mut from = 0;
    std::iter::from_fn(move || {
        let found = from + literal.find(text.get(from..)?)?;
        from = found + 1;
        Some(found)
    })
}

/// The end of the integer `[-+ ]?[0-9]+` at `at`, if there is one. A sign
/// is taken when present; the digits run as far as they go.
fn integer_end(text: &[u8], at: usize) -> Option<usize> {
    let digits = at + usize::from(matches!(text.get(at), Some(b'-' | b'+' | b' ')));
    let end = digits + text[digits.min(text.len())..].iter().take_while(|b| b.is_ascii_digit()).count();
    (end > digits).then_some(end)
}

/// The end of the ASCII digits at `at` (`Some(None)` when there is none),
/// or `None` when a character beyond ASCII, which `\d` may take, follows
/// them or is the first.
fn digits_end(text: &[u8], at: usize) -> Option<Option<usize>> {
    let end = at + text[at..].iter().take_while(|b| b.is_ascii_digit()).count();
    match text.get(end) {
        Some(b) if !b.is_ascii() => None,
        _ => Some((end > at).then_some(end)),
    }
}

/// The end of the Go-quoted string at `at` (what `%q` writes: escapes
/// `\a \b \f \n \r \t \v \\ \' \"`, `\xHH`, `\uHHHH`, `\UHHHHHHHH`, `\OOO`), if
/// there is one: just after its first unescaped quote. A rune literal
/// (`'x'`, `'\''`: `%q` of an integer) holds exactly one character or escape.
fn quoted_end(text: &[u8], at: usize) -> Option<usize> {
    let quote = *text.get(at)?;
    if quote != b'"' && quote != b'\'' {
        return None;
    }
    let rune = quote == b'\'';
    let mut i = at + 1;
    let mut elements = 0;
    loop {
        if rune && elements == 1 {
            return (text.get(i) == Some(&b'\'')).then_some(i + 1);
        }
        elements += 1;
        match *text.get(i)? {
            b if b == quote => return (!rune).then_some(i + 1),
            b'\n' => return None,
            b'\\' => {
                let (digits, is_digit): (usize, fn(&u8) -> bool) = match *text.get(i + 1)? {
                    b'a' | b'b' | b'f' | b'n' | b'r' | b't' | b'v' | b'\\' | b'\'' | b'"' => (0, |_| true),
                    b'x' => (2, u8::is_ascii_hexdigit),
                    b'u' => (4, u8::is_ascii_hexdigit),
                    b'U' => (8, u8::is_ascii_hexdigit),
                    b'0'..=b'7' => (2, |b| (b'0'..=b'7').contains(b)),
                    _ => return None,
                };
                let escape = text.get(i + 2..i + 2 + digits)?;
                if !escape.iter().all(is_digit) {
                    return None;
                }
                i += 2 + digits;
            }
            // One character: its UTF-8 bytes (the text is a `str`).
            b => i += utf8_len(b),
        }
    }
}

/// The length of the UTF-8 sequence that starts with `first`.
fn utf8_len(first: u8) -> usize {
    match first {
        0xf0.. => 4,
        0xe0.. => 3,
        0xc0.. => 2,
        _ => 1,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::compile;
    use proptest::prelude::*;

    /// What the regex gives: the reference.
    fn by_regex(message: &str, text: &str) -> Outcome {
        regex_outcome(&compile(message, Dialect::Go).unwrap(), text)
    }

    fn regex_outcome(template: &Template, text: &str) -> Outcome {
        let regex = regex::Regex::new(&crate::matcher::find_regex(template)).unwrap();
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
        assert!(shape("%+v detail"));
        assert!(shape("%q quoted"));
        assert!(shape("count %d."));
        assert!(!shape("count %d0")); // where the integer ends is a choice
        assert!(!shape("%#q backquoted"));
        assert!(!shape("%x hex"));
        assert!(!shape("%5s padded"));
        assert!(!shape("%s%s touching"));
    }

    #[test]
    fn integers_and_quoted_strings_have_one_extent() {
        let t = LiteralTemplate::new(&compile("n=%d q=%q end", Dialect::Go).unwrap()).unwrap();
        let text = r#"x n=-12 q="a\"b\x41\u00e9\101" end"#;
        assert_eq!(t.find(text), Outcome::Match(2..text.len(), vec![4..7, 10..text.len() - 4]));
        assert_eq!(t.find(r#"n=12 q="bad \z escape" end"#), Outcome::NoMatch);
        assert_eq!(t.find(r#"n=1a q="x" end"#), Outcome::NoMatch);
        assert_eq!(t.find(r#"n=1 q="x" end n=2 q="y" end"#), Outcome::Match(0..13, vec![2..3, 6..9]));
    }

    #[test]
    fn lazy_placeholders_take_the_shortest_text_that_lets_the_rest_match() {
        let t = LiteralTemplate::new(&compile("a %v b %v", Dialect::Go).unwrap()).unwrap();
        assert_eq!(t.find("x a 1 b 2 b 3"), Outcome::Match(2..13, vec![4..5, 8..13]));
        let t = LiteralTemplate::new(&compile("%v: x", Dialect::Go).unwrap()).unwrap();
        let spans: Vec<Range<usize>> = std::iter::once(0..4).collect();
        assert_eq!(t.find("a: b: x"), Outcome::Match(0..7, spans));
        // `%v` of an empty string writes nothing.
        assert_eq!(t.find(": x"), Outcome::Match(0..3, std::iter::once(0..0).collect()));
    }

    const PLACEHOLDERS: [&str; 3] = ["%v", "%d", "%q"];
    const LITERALS: [&str; 6] = ["a", "b", ": ", "ab", "\"", " "];
    /// Pieces of integers and quoted strings, valid and broken.
    const VALUE_BITS: [&str; 18] = [
        "a",
        " ",
        "x",
        "é",
        "-",
        "+",
        "7",
        "12",
        "\"",
        "\\",
        "\\\"",
        "\\x4",
        "\\x41",
        "\\10",
        "\\101",
        "\\u00e",
        "\\u00e9",
        "\\U0001F600",
    ];

    fn pick(choices: &'static [&'static str]) -> impl Strategy<Value = &'static str> {
        prop::sample::select(choices)
    }

    /// A line with a rendering of the message's parts in it: each placeholder
    /// replaced by a few value bits, a literal sometimes replaced by noise.
    fn message_and_line() -> impl Strategy<Value = (String, String)> {
        let part = prop_oneof![pick(&PLACEHOLDERS), pick(&LITERALS)];
        prop::collection::vec(part, 1..7).prop_flat_map(|parts| {
            let rendered: Vec<BoxedStrategy<String>> = parts
                .iter()
                .map(|part| {
                    if part.starts_with('%') {
                        let bits = prop::collection::vec(pick(&VALUE_BITS), 0..5).prop_map(|bits| bits.concat());
                        (bits, any::<bool>())
                            .prop_map(|(bits, quoted)| if quoted { format!("\"{bits}\"") } else { bits })
                            .boxed()
                    } else {
                        prop_oneof![8 => Just(part.to_string()), 1 => pick(&VALUE_BITS).prop_map(str::to_owned)].boxed()
                    }
                })
                .collect();
            let noise = || prop::collection::vec(pick(&VALUE_BITS), 0..3).prop_map(|bits| bits.concat());
            (Just(parts.concat()), noise(), rendered, noise())
                .prop_map(|(message, before, line, after)| (message, format!("{before}{}{after}", line.concat())))
        })
    }

    #[test]
    fn pattern_groups() {
        let pattern = |p: &str| LiteralTemplate::new(&crate::format::compile_pattern(p).unwrap());
        assert!(pattern(r"Received block (.*?) of size (.+?) from (.*?)").is_some());
        assert!(pattern(r"a\.b").is_some());
        assert!(pattern(r"n=(\d+) end").is_some());
        assert!(pattern(r"n=(\d+)1").is_none());
        let t = pattern(r"n=(\d+) end").unwrap();
        assert_eq!(t.find("n=12 end"), Outcome::Match(0..8, std::iter::once(2..4).collect()));
        assert_eq!(t.find("n=x end"), Outcome::NoMatch);
        assert_eq!(t.find("n=1٣ end"), Outcome::Undecided);
        assert!(pattern(r"(?:a|b) (.*?)").is_none());
        let t = pattern(r"x (.+?) y (.+?)").unwrap();
        assert_eq!(t.find("x  y y 1"), Outcome::Match(0..8, vec![2..4, 7..8]));
        assert_eq!(t.find("x a y "), Outcome::NoMatch);
        let t = pattern(r"(.*?): (.*?)").unwrap();
        assert_eq!(t.find(": "), Outcome::Match(0..2, vec![0..0, 2..2]));
    }

    /// A pattern of literal text and groups, with a line made of its parts.
    fn pattern_and_line() -> impl Strategy<Value = (String, String)> {
        const GROUPS: [&str; 3] = ["(.*?)", "(.+?)", r"(\d+)"];
        const PATTERN_LITERALS: [&str; 7] = ["a", "b", ": ", "ab", " to ", "é", "1"];
        let part = prop_oneof![pick(&GROUPS), pick(&PATTERN_LITERALS)];
        let line_bits: &'static [&'static str] = &["a", "b", ":", " ", "é", "to", " to ", "ab", "x", "12", "7", "٣"];
        (prop::collection::vec(part, 1..7), prop::collection::vec(prop::sample::select(line_bits), 0..12)).prop_map(
            |(parts, bits)| {
                (
                    parts.iter().map(|p| if p.starts_with('(') { p.to_string() } else { regex::escape(p) }).collect(),
                    bits.concat(),
                )
            },
        )
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 20000, ..ProptestConfig::default() })]

        #[test]
        fn agrees_with_the_regex_on_patterns((pattern, text) in pattern_and_line()) {
            let template = crate::format::compile_pattern(&pattern).unwrap();
            if let Some(fast) = LiteralTemplate::new(&template) {
                // `Undecided` hands the line to the regex: never wrong.
                let outcome = fast.find(&text);
                if outcome != Outcome::Undecided {
                    prop_assert_eq!(outcome, regex_outcome(&template, &text), "{:?} on {:?}", pattern, text);
                }
            }
        }

        #[test]
        fn agrees_with_the_regex((message, text) in message_and_line()) {
            let template = compile(&message, Dialect::Go).unwrap();
            if let Some(fast) = LiteralTemplate::new(&template) {
                prop_assert_eq!(fast.find(&text), by_regex(&message, &text), "{:?} on {:?}", message, text);
            }
        }
    }
}
