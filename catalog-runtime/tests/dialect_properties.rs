//! Every dialect finds its own messages inside a log line, values whole.
//!
//! For each [`Dialect`], random templates in that dialect's syntax (literal
//! text with the dialect's escapes, placeholders of its conversions) are
//! rendered by the project's renderer with random values of the kinds its
//! formatter really produces: empty strings, multi-word text, the format's
//! own delimiters (`{}`, `%s`, `{0}`, `${x}`), quotes, backslashes,
//! non-ASCII, integers and floats at their limits. Each rendering is put
//! in a log line with text before it (and after it, where the message ends
//! by itself), searched with `find`, `find_all` and `find_lines`, and must
//! give the template back with the very same values.
//!
//! What no matcher can recover is kept out of the values, as documented in
//! the formats guide: a text value that holds the literal text that
//! follows it in the message (the message reads the same with the value cut
//! there), and the digits a float's precision drops.

use std::borrow::Cow;

use catalog_runtime::{Dialect, Matcher, Piece, Template, Value, ValueKind};
use proptest::prelude::*;

/// Texts a program writes, chosen to hit every dialect's delimiters.
const TEXTS: &[&str] = &[
    "",
    "x",
    "connector-7",
    "multi word text",
    "/home/user/.cargo/registry",
    "{}",
    "{0}",
    "%s",
    "%d%%",
    "${x}",
    "{braces}",
    "'single'",
    "\"double\"",
    "back\\slash",
    "tab\there",
    "é日本🎉",
    "a, b; c",
    "50%",
    "key=value",
    "-0.5",
    "  padded  ",
];

/// Literal words and the separators before them. None holds a character
/// that is syntax in any dialect (`%`, `{`, `}`, `'`, `$`, `\`, regex
/// specials); the dialects' escapes are added apart.
const WORDS: &[&str] =
    &["error", "stream", "failed", "listener", "encoding", "partition", "naïve", "日志", "not", "installed"];
const SEPARATORS: &[&str] = &[" ", ": ", ", ", " = ", " / ", " - ", " ; "];

/// What comes before a message in a line: text that holds no word of the
/// messages, and a timestamp and level that the matcher skips (a message
/// that starts with a placeholder starts where the log prefix ends).
const PREFIX: &str = "2026-12-01T10:00:00Z ERROR ";
const CONTEXT: &str = "host-7 said ";
const SUFFIX: &str = " (at worker.rs:10)";

/// One placeholder: its syntax (with `§` for the argument's number and `@`
/// for its name) and the kind of value it renders.
#[derive(Clone, Copy, Debug)]
struct Conversion {
    syntax: &'static str,
    value: Gen,
}

/// The values a conversion's formatter writes.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Gen {
    Text,
    /// Text with no space at either end (padding would take it).
    Trimmed,
    Int,
    /// Text of at least one character (a pattern's `(.+?)`).
    NonEmpty,
    /// Decimal digits as text (a pattern's `(\d+)`).
    Digits,
    /// Non-negative integers (`%u`, Node's `%i` of its `parseInt`).
    Natural,
    /// Any float that prints its shortest digits.
    Float,
    /// Floats exact at two decimals, for `.2` precisions.
    Cents,
    /// A JavaScript number (`%d` writes `Number(value)`).
    JsNumber,
    Bool,
}

const fn c(syntax: &'static str, value: Gen) -> Conversion {
    Conversion { syntax, value }
}

/// Each dialect's conversions, and its escapes (syntax → the text written).
fn syntax_of(dialect: Dialect) -> (Vec<Conversion>, Vec<(&'static str, &'static str)>) {
    use Gen::*;
    match dialect {
        Dialect::Go => (
            vec![
                c("%v", Text),
                c("%s", Text),
                c("%d", Int),
                c("%q", Text),
                c("%t", Bool),
                c("%g", Float),
                c("%.2f", Cents),
                c("%8v", Trimmed),
            ],
            vec![("%%", "%")],
        ),
        Dialect::Printf => (
            vec![c("%s", Text), c("%d", Int), c("%u", Natural), c("%.2f", Cents), c("%-6s", Trimmed), c("%o", Natural)],
            vec![("%%", "%")],
        ),
        Dialect::Python => (
            vec![c("%s", Text), c("%r", Text), c("%d", Int), c("%.2f", Cents), c("%5s", Trimmed), c("%(@)s", Text)],
            vec![("%%", "%")],
        ),
        Dialect::JsFormat => (
            vec![c("%s", Text), c("%d", JsNumber), c("%i", Natural), c("%f", JsNumber), c("%j", Text), c("%O", Text)],
            vec![("%%", "%")],
        ),
        Dialect::JsTemplate => (vec![c("${@}", Text), c("${ @ }", Text)], vec![("$", "$")]),
        Dialect::PythonBrace => (
            vec![
                c("{}", Text),
                c("{@}", Text),
                c("{!r}", Text),
                c("{:d}", Int),
                c("{:.2f}", Cents),
                c("{:>8}", Trimmed),
                c("{:x}", Natural),
            ],
            vec![("{{", "{"), ("}}", "}")],
        ),
        Dialect::Rust => (
            vec![
                c("{}", Text),
                c("{@}", Text),
                c("{:?}", Text),
                c("{:e}", Float),
                c("{:>8}", Trimmed),
                c("{:x}", Natural),
                c("{:#x}", Natural),
            ],
            vec![("{{", "{"), ("}}", "}")],
        ),
        Dialect::JavaFormat => (
            vec![c("%s", Text), c("%d", Int), c("%x", Natural), c("%.2f", Cents), c("%b", Bool), c("%-8s", Trimmed)],
            vec![("%%", "%")],
        ),
        Dialect::Slf4j => (vec![c("{}", Text)], vec![("\\{}", "{}")]),
        Dialect::MessageFormat => (vec![c("{§}", Text), c("{§,number,#}", Int)], vec![("''", "'"), ("'{'", "{")]),
        Dialect::CSharp => {
            (vec![c("{§}", Text), c("{§,-8}", Trimmed), c("{§:D}", Int)], vec![("{{", "{"), ("}}", "}")])
        }
        Dialect::Pattern => {
            (vec![c("(.*?)", Text), c("(.+?)", NonEmpty), c(r"(\d+)", Digits)], vec![(r"\.", "."), (r"\(", "(")])
        }
        Dialect::Plain => (vec![], vec![("%", "%"), ("{}", "{}")]),
        #[allow(unreachable_patterns)] // `Dialect` may grow
        other => panic!("no syntax for the new dialect {other:?}: add it here"),
    }
}

/// A template's text as a sequence of choices.
#[derive(Clone, Debug)]
enum Part {
    Literal(&'static str, &'static str),
    Escape(usize),
    Value(usize, u64),
}

fn parts() -> impl Strategy<Value = Vec<Part>> {
    let part = prop_oneof![
        4 => (0..SEPARATORS.len(), 0..WORDS.len()).prop_map(|(s, w)| Part::Literal(SEPARATORS[s], WORDS[w])),
        1 => (0..8usize).prop_map(Part::Escape),
        4 => (0..16usize, any::<u64>()).prop_map(|(c, seed)| Part::Value(c, seed)),
    ];
    prop::collection::vec(part, 1..7)
}

/// A value of `gen` from `seed`.
fn value(gen: Gen, seed: u64) -> Value<'static> {
    let pick = |n: usize| (seed as usize) % n;
    let ints = [0, 1, -1, 7, 42, -42, 255, 65535, i64::from(i32::MAX), i64::MAX, i64::MIN + 1, 1_000_000_007];
    match gen {
        Gen::Text => Value::Str(Cow::Borrowed(TEXTS[pick(TEXTS.len())])),
        Gen::Trimmed => Value::Str(Cow::Borrowed(TEXTS[pick(TEXTS.len())].trim_matches(' '))),
        Gen::NonEmpty => Value::Str(Cow::Borrowed(TEXTS[1 + pick(TEXTS.len() - 1)])),
        Gen::Digits => Value::Str(Cow::Owned((seed % 100_000).to_string())),
        Gen::Int => Value::Int(ints[pick(ints.len())]),
        Gen::Natural => Value::Int(ints[pick(ints.len())].abs()),
        Gen::Float => {
            let floats = [0.0, 1.5, -2.25, 1e21, 1.5e-7, 123456.789, -0.001, 6.02e23, f64::MAX, f64::MIN_POSITIVE];
            Value::Float(floats[pick(floats.len())])
        }
        Gen::Cents => Value::Float(((seed % 2_000_001) as f64 - 1_000_000.0) / 4.0),
        Gen::JsNumber => {
            let numbers = [-0.5, 0.0, 7.0, -42.0, 1.5e-7, 1e21, 123.456, 9007199254740991.0];
            Value::Float(numbers[pick(numbers.len())])
        }
        Gen::Bool => Value::Bool(seed.is_multiple_of(2)),
    }
}

/// A generated case: the template's text, the values of its fields.
#[derive(Debug)]
struct Case {
    format: String,
    values: Vec<Value<'static>>,
    gens: Vec<Gen>,
}

fn case(dialect: Dialect, parts: &[Part]) -> Case {
    let (conversions, escapes) = syntax_of(dialect);
    let mut format = String::new();
    let mut values = Vec::new();
    let mut gens = Vec::new();
    // Placeholders never touch: a literal stands between any two.
    let mut after_value = false;
    for part in parts {
        match part {
            Part::Literal(separator, word) => {
                format.push_str(separator);
                format.push_str(word);
                after_value = false;
            }
            Part::Escape(n) if !escapes.is_empty() => {
                if after_value {
                    format.push(' ');
                }
                format.push_str(escapes[n % escapes.len()].0);
                format.push(' ');
                after_value = false;
            }
            Part::Value(n, seed) if !conversions.is_empty() && !after_value => {
                let conversion = conversions[n % conversions.len()];
                let arg = values.len();
                let syntax = conversion.syntax.replace('§', &arg.to_string()).replace('@', &format!("name{arg}"));
                format.push_str(&syntax);
                values.push(value(conversion.value, *seed));
                gens.push(conversion.value);
                after_value = true;
            }
            Part::Escape(_) | Part::Value(..) => {}
        }
    }
    // Python's `%` takes a tuple or a mapping, not both: a message with
    // positional conversions names none.
    if dialect == Dialect::Python && format.matches("%(").count() < values.len() {
        for arg in 0..values.len() {
            format = format.replace(&format!("%(name{arg})"), "%");
        }
    }
    // Every record has a word of its own (a lone placeholder is every line).
    if !parts.iter().any(|part| matches!(part, Part::Literal(..))) {
        format.insert_str(0, "error ");
    }
    Case { format, values, gens }
}

/// Replaces each text value that the message could not tell apart from
/// the literal text after it (it holds that literal, or its start runs into
/// it) by one that it can: the message would read the same either way.
fn recoverable(template: &Template, values: &mut [Value<'static>]) {
    for (i, piece) in template.pieces.iter().enumerate() {
        let Piece::Value { field, .. } = piece else { continue };
        let field = usize::from(*field);
        let next = match template.pieces.get(i + 1) {
            Some(Piece::Literal(text)) => text.as_ref(),
            _ => "",
        };
        if let Value::Str(text) = &values[field] {
            let rendered = template.render(values).unwrap_or_default();
            let tricky = !next.is_empty() && format!("{text}{next}").find(next) != Some(text.len());
            let breaks_line = text.contains(['\n', '\r']) || rendered.contains(['\n', '\r']);
            if tricky || breaks_line {
                values[field] = Value::Str(Cow::Owned(format!("value{field}")));
            }
        }
    }
}

/// Whether the message ends with a placeholder that runs to the end of the
/// line (text of any length): nothing can follow it on the line.
fn ends_open(template: &Template) -> bool {
    match template.pieces.last() {
        Some(Piece::Value { field, .. }) => {
            template.dialect == Dialect::Pattern || template.fields[usize::from(*field)].kind == ValueKind::Text
        }
        _ => false,
    }
}

/// The same value (floats as numbers: `-0` is `0`).
fn same(a: &Value<'_>, b: &Value<'_>) -> bool {
    match (a, b) {
        (Value::Float(x), Value::Float(y)) => x == y || (x.is_nan() && y.is_nan()),
        _ => a == b,
    }
}

fn check(dialect: Dialect, parts: &[Part]) -> Result<(), TestCaseError> {
    let Case { format, mut values, gens } = case(dialect, parts);
    let template = Template::compile(&format, dialect).map_err(|e| TestCaseError::fail(format!("{format:?}: {e}")))?;
    prop_assert_eq!(template.fields.len(), values.len(), "{:?}: one field per placeholder", format);
    for (field, gen) in template.fields.iter().zip(&gens) {
        let expected = match gen {
            Gen::Text | Gen::Trimmed | Gen::NonEmpty | Gen::Digits => ValueKind::Text,
            Gen::Int | Gen::Natural => ValueKind::Int,
            Gen::Float | Gen::Cents | Gen::JsNumber => ValueKind::Float,
            Gen::Bool => ValueKind::Bool,
        };
        // A Go `%q` field is quoted text.
        let kind = if field.kind == ValueKind::Quoted { ValueKind::Text } else { field.kind };
        prop_assert_eq!(kind, expected, "{:?}: the kind of {}", format, field.name);
    }
    recoverable(&template, &mut values);
    let message = template.render(&values).map_err(|e| TestCaseError::fail(e.to_string()))?;
    let open = ends_open(&template);
    let starts_with_value = matches!(template.pieces.first(), Some(Piece::Value { .. }));
    let before = if starts_with_value { PREFIX.to_owned() } else { format!("{PREFIX}{CONTEXT}") };
    let after = if open { "" } else { SUFFIX };
    let line = format!("{before}{message}{after}");

    // A decoy: a shorter record made of one literal word of the message.
    let decoy = template.pieces.iter().find_map(|piece| match piece {
        Piece::Literal(text) => text.split(' ').find(|w| w.len() > 2).map(str::to_owned),
        Piece::Value { .. } => None,
    });
    let mut templates = vec![template.clone()];
    if let Some(word) = &decoy {
        templates.push(Template::compile(word, Dialect::Plain).expect("plain text compiles"));
    }
    let matcher = Matcher::new(&templates);

    let found = matcher.find(&line);
    let found = found.ok_or_else(|| {
        TestCaseError::fail(format!("{dialect:?} {format:?} (regex {:?}): not found in {line:?}", template.regex))
    })?;
    prop_assert_eq!(found.index, 0, "{:?} {:?}: another record won in {:?}", dialect, format, line);
    prop_assert_eq!(&line[found.span.clone()], message.as_str(), "{:?} {:?}: the span", dialect, format);
    prop_assert_eq!(found.values.len(), values.len());
    for (got, want) in found.values.iter().zip(&values) {
        prop_assert!(same(got, want), "{:?} {:?} in {:?}: {:?} found, {:?} written", dialect, format, line, got, want);
    }
    prop_assert_eq!(template.render(&found.values).ok(), Some(message.clone()), "Display of the values found");

    // The same through the other searches.
    let all = matcher.find_all(&line);
    prop_assert_eq!(all.first().map(|m| (m.index, m.span.clone())), Some((0, found.span.clone())));
    let text = format!("first line\n{line}\nlast line\n");
    let mut by_lines = Vec::new();
    matcher.find_lines(&text, |_, m| by_lines.push((m.index, m.values.iter().map(|v| v.to_string()).collect())));
    let expected: Vec<(usize, Vec<String>)> = vec![(0, found.values.iter().map(|v| v.to_string()).collect())];
    prop_assert_eq!(by_lines, expected, "find_lines");
    // And the whole message alone.
    let parsed = matcher.parse(&message).map(|m| (m.index, m.values.iter().map(|v| v.to_string()).collect::<Vec<_>>()));
    prop_assert_eq!(parsed.map(|p| p.0), Some(0), "parse of {:?}", message);
    Ok(())
}

macro_rules! dialect_tests {
    ($($name:ident: $dialect:expr,)*) => {
        proptest! {
            #![proptest_config(ProptestConfig::with_cases(600))]
            $(
                #[test]
                fn $name(parts in parts()) {
                    check($dialect, &parts)?;
                }
            )*
        }

        /// Every dialect has its test above.
        #[test]
        fn every_dialect_is_tested() {
            let tested = [$($dialect),*];
            for dialect in Dialect::ALL {
                assert!(tested.contains(&dialect), "{dialect:?} has no property test");
            }
        }
    };
}

dialect_tests! {
    go: Dialect::Go,
    plain: Dialect::Plain,
    printf: Dialect::Printf,
    python: Dialect::Python,
    pattern: Dialect::Pattern,
    js_format: Dialect::JsFormat,
    js_template: Dialect::JsTemplate,
    python_brace: Dialect::PythonBrace,
    rust: Dialect::Rust,
    java_format: Dialect::JavaFormat,
    slf4j: Dialect::Slf4j,
    message_format: Dialect::MessageFormat,
    csharp: Dialect::CSharp,
}
