//! The buffer scanner (`Matcher::find_lines`) against a naive reference: every
//! template tried on every line, the best-ranked match kept.

use catalog_runtime::{Catalog, Dialect, Matcher, Template};
use proptest::prelude::*;

use crate::corpus as support;

/// The definition of the matching semantics: every template tried on its
/// own (a matcher of that template alone, so no other template's literals
/// steer the search), the best-ranked match kept.
struct Reference {
    templates: Vec<Template>,
    alone: Vec<Matcher>,
}

impl Reference {
    fn new(templates: Vec<Template>) -> Reference {
        let alone = templates.iter().map(|template| Matcher::new([template])).collect();
        Reference { templates, alone }
    }

    fn naive(&self, line: &str) -> Option<(usize, std::ops::Range<usize>)> {
        let rank = |i: usize| (std::cmp::Reverse(self.templates[i].literal_len), i);
        let found = self.alone.iter().enumerate().filter_map(|(i, alone)| Some((i, alone.find(line)?.span)));
        found.min_by_key(|(i, _)| rank(*i))
    }

    /// Each line of `text` (`find` leaves out its `\r`, as `find_lines` does).
    fn lines(&self, text: &str) -> Vec<(usize, usize, std::ops::Range<usize>)> {
        text.split('\n').enumerate().filter_map(|(n, line)| self.naive(line).map(|(i, span)| (n, i, span))).collect()
    }
}

/// (line number, template, span) for every matching line, via `find_lines`;
/// `find_numbered_lines` gives the same, numbered as counted here.
fn scanned<I: AsRef<Template>>(matcher: &Matcher<I>, text: &str) -> Vec<(usize, usize, std::ops::Range<usize>)> {
    let mut out = Vec::new();
    matcher.find_lines(text, |range, found| {
        let line = text[..range.start].matches('\n').count();
        out.push((line, found.index, found.span));
    });
    let mut numbered = Vec::new();
    let line_breaks =
        matcher.find_numbered_lines(text, |number, _, found| numbered.push((number, found.index, found.span)));
    assert_eq!(numbered, out, "numbered lines");
    assert_eq!(line_breaks, text.matches('\n').count(), "line breaks");
    let mut from_bytes = Vec::new();
    let line_breaks_in_bytes = matcher
        .find_numbered_lines_in(text.as_bytes(), |number, _, found| from_bytes.push((number, found.index, found.span)));
    assert_eq!((from_bytes, line_breaks_in_bytes), (out.clone(), Some(line_breaks)), "the same text as bytes");
    out
}

/// `find_lines` on the whole text and `find` on each line give the naive
/// reference's results.
fn agrees_with_the_reference(reference: &Reference, matcher: &Matcher, text: &str) -> Result<(), TestCaseError> {
    let expected = reference.lines(text);
    prop_assert_eq!(scanned(matcher, text), expected.clone());
    for (n, line) in text.split('\n').enumerate() {
        let by_find = matcher.find(line).map(|m| (n, m.index, m.span));
        prop_assert_eq!(by_find, expected.iter().find(|e| e.0 == n).cloned());
    }
    Ok(())
}

const MESSAGES: &[&str] = &[
    "stream %s not found",
    "stream %s not found in account %q",
    "consumer %q on stream %s failed: %v",
    "failed: %v",
    "%s: connection closed",
    "limit of %d reached",
    "limit of %d reached for %s",
    "read %v bytes of %d: %v\n",
    "not found",
    // Messages that context may follow (a closing `]`, ` - User "alice"`).
    "wildcards not allowed in topic: %q",
    "not allowed",
    "retry %d",
    "retry %d of %q",
];

/// Built once: the regexes compile on first use and stay compiled.
static SMALL: std::sync::LazyLock<(Reference, Matcher)> = std::sync::LazyLock::new(|| {
    let templates: Vec<Template> = MESSAGES.iter().map(|m| Template::compile(m, Dialect::Go).unwrap()).collect();
    let matcher = Matcher::new(&templates);
    (Reference::new(templates), matcher)
});

fn pieces() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("stream ".to_owned()),
        Just(" not found".to_owned()),
        Just(" in account ".to_owned()),
        Just("\"a b\"".to_owned()),
        Just("consumer ".to_owned()),
        Just(" failed: ".to_owned()),
        Just(": connection closed".to_owned()),
        Just("limit of ".to_owned()),
        Just(" reached".to_owned()),
        Just(" for ".to_owned()),
        Just("read ".to_owned()),
        Just(" bytes of ".to_owned()),
        Just("[1] 2026/11/29 17:20:00.123456 [ERR] ".to_owned()),
        "[a-z0-9 ]{0,6}",
        "-?[0-9]{1,3}",
        Just("\r".to_owned()),
        Just("<<- [PUBLISH wildcards not allowed in topic: ".to_owned()),
        Just("\"s/+/t\"".to_owned()),
        Just("]".to_owned()),
        Just(" - User \"alice\"".to_owned()),
        Just("retry ".to_owned()),
        Just(" of ".to_owned()),
        Just("; retrying in 5s".to_owned()),
    ]
}

fn text() -> impl Strategy<Value = String> {
    prop::collection::vec(prop::collection::vec(pieces(), 0..8).prop_map(|p| p.concat()), 0..12)
        .prop_map(|lines| lines.join("\n"))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    #[test]
    fn find_lines_agrees_with_the_naive_reference(text in text()) {
        let (reference, matcher) = &*SMALL;
        agrees_with_the_reference(reference, matcher, &text)?;
    }

    /// Bytes are refused exactly when they are not UTF-8, whether the odd
    /// byte is in what the vector scan reads or in its scalar tail, and
    /// text beyond ASCII that is UTF-8 is taken.
    #[test]
    fn bytes_are_refused_exactly_when_not_utf8(
        text in text(),
        at in any::<prop::sample::Index>(),
        odd in prop_oneof![
            Just("\u{e9}".as_bytes().to_vec()),
            Just("\u{1f600}".as_bytes().to_vec()),
            (0x80u8..=0xff).prop_map(|b| vec![b]),
        ],
    ) {
        let (_, matcher) = &*SMALL;
        let mut bytes = text.into_bytes();
        let at = at.index(bytes.len() + 1);
        bytes.splice(at..at, odd);
        let utf8 = std::str::from_utf8(&bytes).is_ok();
        prop_assert_eq!(matcher.find_numbered_lines_in(&bytes, |_, _, _| {}).is_some(), utf8);
    }
}

/// A multi-system catalog of `messagePattern`s: short literals shared by
/// many templates, templates that are almost all wildcards, lines that
/// several templates match, and patterns of other shapes (kept as regexes).
const PATTERNS: &[&str] = &[
    r"Received block (.*?) of size (.*?) from (.*?)",
    r"Received (.*?)",
    r"(.*?) to (.*?)",
    r"(.*?): (.*?)",
    r"(.+?)\.",
    r"Connection to (.*?) closed\.",
    r"PacketResponder (.*?) for block (.*?) terminating",
    r"session (\w+) expired",
    r"(?:open|close) failed for (\d+)",
    r"[a-z]+ done",
    r"Received",
    r"Failed password for (.*?) from (.*?) port (\d+) ssh2",
    r"port (\d+)",
];

static PATTERN_CATALOG: std::sync::LazyLock<(Reference, Matcher)> = std::sync::LazyLock::new(|| {
    let templates: Vec<Template> = PATTERNS.iter().map(|p| Template::compile(p, Dialect::Pattern).unwrap()).collect();
    let matcher = Matcher::new(&templates);
    (Reference::new(templates), matcher)
});

fn pattern_pieces() -> impl Strategy<Value = String> {
    const WORDS: &[&str] = &[
        "Received ",
        "block ",
        " of size ",
        " from ",
        " to ",
        ": ",
        ".",
        "Connection to ",
        " closed",
        "open failed for ",
        "close failed for ",
        "12",
        "session ",
        " expired",
        "PacketResponder ",
        " for block ",
        " terminating",
        " done",
        "081109 203615 148 INFO dfs.DataNode$PacketResponder: ",
        "\r",
        "Failed password for ",
        " port ",
        " ssh2",
        "٣",
    ];
    prop_oneof![4 => prop::sample::select(WORDS).prop_map(str::to_owned), 1 => "[a-z0-9 ]{0,6}"]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    #[test]
    fn pattern_catalogs_agree_with_the_naive_reference(
        lines in prop::collection::vec(prop::collection::vec(pattern_pieces(), 0..8).prop_map(|p| p.concat()), 0..12)
    ) {
        let text = lines.join("\n");
        let (reference, matcher) = &*PATTERN_CATALOG;
        agrees_with_the_reference(reference, matcher, &text)?;
    }
}

#[test]
fn the_corpus_agrees_with_the_naive_reference() {
    let Some(dir) = support::corpus("nats-server", "the_corpus_agrees_with_the_naive_reference") else {
        return;
    };
    let catalog = Catalog::load(&dir).expect("the corpus loads");
    let reference = Reference::new(catalog.entries().iter().map(|e| e.template.clone()).collect());
    let matcher = catalog.matcher();
    // Each record's message with sample values, inside log lines, among noise
    // lines made of words the messages use.
    let mut lines = Vec::new();
    for (index, entry) in catalog.entries().iter().enumerate().step_by(3) {
        let values: Vec<_> = entry.template.sample_values();
        lines.push(format!(
            "[9] 2026/11/29 17:20:00.000001 [ERR] {}",
            catalog.render(index, &values).expect("a value per field")
        ));
        let words: Vec<&str> = entry.record().error_message.split(' ').collect();
        lines.push(format!("[9] 2026/11/29 17:20:00.000002 [INF] {}", words[..words.len() / 2].join(" ")));
    }
    let text = lines.join("\n");
    assert_eq!(scanned(matcher, &text), reference.lines(&text));
}
