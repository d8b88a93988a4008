//! A message whose last value holds the literal that follows it (`start of
//! %s.` of `templates/base.html`): in every dialect, found in a line with
//! text before and after it, the message ends at the literal's occurrence
//! that ends the line or comes before white space (where context begins),
//! not at its first occurrence, through `find`, `find_all`, `find_lines`
//! and `parse`.
//!
//! What a line cannot tell, and so is not drawn here: a value that holds
//! the literal followed by white space (`a. b` in `%s.`: the message may as
//! well end after `a`, with ` b.` for context), and a value *between* two
//! values that holds the literal after it (`-1` in `{}-{}`): any split
//! renders the same text, and the first occurrence is taken.

use catalog_runtime::{Dialect, Matcher, Template, Value};
use proptest::prelude::*;

/// The literals that may end a message and also occur in its last value.
const LAST_LITERALS: [&str; 11] = [".", "'", "\"", ")", "]", ">", ":", ",", "'.", ").", "\">"];
/// Pieces of values: no white space first (a literal before white space
/// ends the message), no literal text of the template's own words.
const VALUE_BITS: [&str; 9] = ["x1", "путь", "a/b", "C-3", "é", "日本", "0", "a b", "**"];
/// The literal text between values and before the first.
const WORDS: [&str; 3] = ["alpha ", " beta ", " gamma "];
/// Text after the message: nothing, or context that begins with white space.
const CONTEXTS: [&str; 4] = ["", " (at src/x.rs:10)", "\tretrying", " [worker-3]"];

/// How a dialect writes text placeholder `i`.
fn placeholder(dialect: Dialect, i: usize) -> String {
    match dialect {
        Dialect::Go | Dialect::Printf | Dialect::Python | Dialect::JsFormat | Dialect::JavaFormat => "%s".into(),
        Dialect::JsTemplate => format!("${{v{i}}}"),
        Dialect::PythonBrace | Dialect::Rust | Dialect::Slf4j => "{}".into(),
        Dialect::MessageFormat | Dialect::CSharp => format!("{{{i}}}"),
        Dialect::Pattern => "(.*?)".into(),
        other => unreachable!("{other:?} has no text placeholder here"),
    }
}

/// How a dialect writes literal text.
fn literal(dialect: Dialect, text: &str) -> String {
    match dialect {
        Dialect::MessageFormat => text.replace('\'', "''"),
        Dialect::Pattern => regex::escape(text),
        _ => text.to_owned(),
    }
}

/// Every dialect but `plain`, which has no placeholders.
fn dialects() -> Vec<Dialect> {
    Dialect::ALL.iter().copied().filter(|&dialect| dialect != Dialect::Plain).collect()
}

/// A value of a few bits; the last value's bits have the last literal
/// between them, before them or after them.
fn value(holding: &'static str) -> impl Strategy<Value = String> {
    prop::collection::vec((prop::sample::select(&VALUE_BITS[..]), any::<bool>()), 0..4).prop_map(move |bits| {
        bits.iter()
            .map(|(bit, literal_first)| if *literal_first { format!("{holding}{bit}") } else { bit.to_string() })
            .collect()
    })
}

/// (dialect, format, its last literal, values, line before the message,
/// context after it).
type Case = (Dialect, String, &'static str, Vec<String>, &'static str, &'static str);

fn case() -> impl Strategy<Value = Case> {
    (prop::sample::select(dialects()), 1..4usize, prop::sample::select(&LAST_LITERALS[..]), any::<bool>())
        .prop_flat_map(|(dialect, count, last, ends_with_it)| {
            let mut format = String::new();
            for i in 0..count {
                format.push_str(&literal(dialect, WORDS[i.min(WORDS.len() - 1)]));
                format.push_str(&placeholder(dialect, i));
            }
            format.push_str(&literal(dialect, last));
            // Earlier values hold the last literal too (it is not theirs);
            // the last may end with it.
            let mut values: Vec<BoxedStrategy<String>> = (0..count - 1).map(|_| value(last).boxed()).collect();
            values.push(value(last).prop_map(move |v| if ends_with_it { v + last } else { v }).boxed());
            let before = prop::sample::select(
                &["", "2026-12-01T10:00:00Z ERROR ", "[7] 2026/11/29 17:20:00.123456 [ERR] x: "][..],
            );
            (Just(dialect), Just(format), Just(last), values, before, prop::sample::select(&CONTEXTS[..]))
        })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 3000, ..ProptestConfig::default() })]

    #[test]
    fn a_last_value_holding_the_last_literal_is_read_whole((dialect, format, last, values, before, after) in case()) {
        let template = Template::compile(&format, dialect).unwrap();
        // A text placeholder writes its value as it is.
        let message: String = (0..values.len())
            .map(|i| format!("{}{}", WORDS[i.min(WORDS.len() - 1)], values[i]))
            .chain(std::iter::once(last.to_owned()))
            .collect();
        let values: Vec<Value> = values.into_iter().map(|v| Value::Str(v.into())).collect();
        if let Ok(rendered) = template.render(&values) {
            prop_assert_eq!(&rendered, &message);
        }
        let decoy = Template::compile("alpha", Dialect::Plain).unwrap();
        let matcher = Matcher::new([&decoy, &template]);
        let line = format!("{before}{message}{after}");
        let span = before.len()..before.len() + message.len();
        let found = matcher.find(&line);
        prop_assert!(found.is_some(), "{:?} {:?} not found in {:?}", dialect, format, line);
        let found = found.unwrap();
        prop_assert_eq!((found.index, &found.span, &found.values), (1, &span, &values), "{:?} {:?} in {:?}", dialect, format, line);
        let all = matcher.find_all(&line);
        prop_assert_eq!(all.first(), Some(&found));
        let mut scanned = Vec::new();
        let text = format!("ok\n{line}\nok\n");
        matcher.find_lines(&text, |range, m| scanned.push((range, m)));
        prop_assert_eq!(scanned.len(), 1);
        prop_assert_eq!(&scanned[0].1, &found);
        let parsed = matcher.parse(&message);
        prop_assert_eq!(parsed.map(|m| (m.index, m.values)), Some((1, values)));
    }
}
