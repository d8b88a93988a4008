//! Every dialect finds its own messages inside a log line, values whole.
//!
//! A case is a [`Dialect`] and a list of [`Part`]s: literal words, the
//! dialect's escapes (`%%`, `{{`, `\{}`, `''`...) and placeholders of its
//! conversions, each with the value it renders (empty strings, multi-word
//! text, the formats' own delimiters, quotes, backslashes, non-ASCII,
//! numbers at their limits, or arbitrary text and numbers). The template is
//! compiled, rendered by the project's renderer, put in a log line with text
//! before it (and after it, where the message ends by itself) and searched
//! with `find`, `find_all`, `find_lines` and `parse`: each must give the
//! template back, the message's span, and the very same values.
//!
//! What no matcher can recover is kept out of the values, as the formats
//! guide says: a text value that holds the literal text after it in the
//! message (the message reads the same with the value cut there), a value
//! that breaks the line, and the digits a float's precision drops (such
//! conversions get values exact at their precision).
//!
//! The fuzz target `dialect_line` draws cases from the fuzzer's bytes; the
//! property tests (`tests/dialect_properties.rs`) draw them with proptest.

use std::borrow::Cow;

use arbitrary::{Arbitrary, Unstructured};
use catalog_runtime::{Dialect, Matcher, Piece, Template, Value, ValueKind};

/// Texts a program writes, chosen to hit every dialect's delimiters.
pub const TEXTS: &[&str] = &[
    "",
    "x",
    "connector-7",
    "multi word text",
    "vendor/cargo/registry/src/",
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
pub const WORDS: &[&str] =
    &["error", "stream", "failed", "listener", "encoding", "partition", "naïve", "日志", "not", "installed"];
/// What comes before a literal word.
pub const SEPARATORS: &[&str] = &[" ", ": ", ", ", " = ", " / ", " - ", " ; "];

/// What comes before a message in a line: a timestamp and level that the
/// matcher skips (a message that starts with a placeholder starts where the
/// log prefix ends), then text that holds no word of the messages.
const PREFIX: &str = "2026-12-01T10:00:00Z ERROR ";
const CONTEXT: &str = "host-7 said ";
const SUFFIX: &str = " (at worker.rs:10)";

/// A piece of a template, as drawn.
#[derive(Clone, Debug)]
pub enum Part {
    /// `SEPARATORS[.0 % len]` then `WORDS[.1 % len]`.
    Literal(usize, usize),
    /// The dialect's escape number `.0` (modulo their count).
    Escape(usize),
    /// The dialect's conversion number `.0` (modulo their count), rendering `.1`.
    Value(usize, Drawn),
}

/// A value as drawn, made to fit its conversion when the case is built.
#[derive(Clone, Debug)]
pub enum Drawn {
    /// One of [`TEXTS`], or of a list of numbers, by index.
    Pool(u64),
    /// Any text.
    Text(String),
    /// Any integer.
    Int(i64),
    /// Any float.
    Float(f64),
}

impl<'a> Arbitrary<'a> for Part {
    fn arbitrary(u: &mut Unstructured<'a>) -> arbitrary::Result<Self> {
        Ok(match u.int_in_range(0..=8u8)? {
            0..=3 => Part::Literal(u.arbitrary()?, u.arbitrary()?),
            4 => Part::Escape(u.arbitrary()?),
            _ => {
                let conversion = u.arbitrary()?;
                let drawn = match u.int_in_range(0..=5u8)? {
                    0..=2 => Drawn::Pool(u.arbitrary()?),
                    3 => Drawn::Text(u.arbitrary()?),
                    4 => Drawn::Int(u.arbitrary()?),
                    _ => Drawn::Float(u.arbitrary()?),
                };
                Part::Value(conversion, drawn)
            }
        })
    }
}

/// One placeholder: its syntax (with `§` for the argument's number and `@`
/// for its name) and the values its formatter writes.
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
    /// Text of at least one character (a pattern's `(.+?)`).
    NonEmpty,
    /// Decimal digits as text (a pattern's `(\d+)`).
    Digits,
    Int,
    /// Non-negative integers (`%u`, Node's `%i` of its `parseInt`).
    Natural,
    /// Any finite float, written with its shortest digits.
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

/// Each dialect's conversions, and its escapes (as written in the format).
fn syntax_of(dialect: Dialect) -> (Vec<Conversion>, &'static [&'static str]) {
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
            &["%%"],
        ),
        Dialect::Printf => (
            vec![c("%s", Text), c("%d", Int), c("%u", Natural), c("%.2f", Cents), c("%-6s", Trimmed), c("%o", Natural)],
            &["%%"],
        ),
        Dialect::Python => (
            vec![c("%s", Text), c("%r", Text), c("%d", Int), c("%.2f", Cents), c("%5s", Trimmed), c("%(@)s", Text)],
            &["%%"],
        ),
        Dialect::JsFormat => (
            vec![c("%s", Text), c("%d", JsNumber), c("%i", Natural), c("%f", JsNumber), c("%j", Text), c("%O", Text)],
            &["%%"],
        ),
        Dialect::JsTemplate => (vec![c("${@}", Text), c("${ @ }", Text)], &["$"]),
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
            &["{{", "}}"],
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
            &["{{", "}}"],
        ),
        Dialect::JavaFormat => (
            vec![c("%s", Text), c("%d", Int), c("%x", Natural), c("%.2f", Cents), c("%b", Bool), c("%-8s", Trimmed)],
            &["%%"],
        ),
        Dialect::Slf4j => (vec![c("{}", Text)], &["\\{}"]),
        Dialect::MessageFormat => (vec![c("{§}", Text), c("{§,number,#}", Int)], &["''", "'{'"]),
        Dialect::CSharp => (vec![c("{§}", Text), c("{§,-8}", Trimmed), c("{§:D}", Int)], &["{{", "}}"]),
        Dialect::Pattern => (vec![c("(.*?)", Text), c("(.+?)", NonEmpty), c(r"(\d+)", Digits)], &[r"\.", r"\("]),
        Dialect::Plain => (vec![], &["%", "{}"]),
        #[allow(unreachable_patterns)] // `Dialect` may grow
        other => panic!("no syntax for the dialect {other:?}: add it here"),
    }
}

/// The value of `gen` from what was drawn.
fn value(gen: Gen, drawn: &Drawn) -> Value<'static> {
    let text = |drawn: &Drawn| match drawn {
        Drawn::Text(text) => text.clone(),
        Drawn::Pool(n) => TEXTS[(*n as usize) % TEXTS.len()].to_owned(),
        Drawn::Int(n) => n.to_string(),
        Drawn::Float(f) => f.to_string(),
    };
    let number = |drawn: &Drawn| match drawn {
        Drawn::Pool(n) => {
            let ints = [0, 1, -1, 7, 42, -42, 255, 65535, i64::from(i32::MAX), i64::MAX, i64::MIN + 1, 1_000_000_007];
            ints[(*n as usize) % ints.len()]
        }
        Drawn::Int(n) => *n,
        Drawn::Float(f) => *f as i64,
        Drawn::Text(text) => text.len() as i64,
    };
    let float = |drawn: &Drawn, pool: &[f64]| match drawn {
        Drawn::Float(f) if f.is_finite() => *f,
        Drawn::Pool(n) => pool[(*n as usize) % pool.len()],
        _ => number(drawn) as f64,
    };
    match gen {
        Gen::Text => Value::Str(Cow::Owned(text(drawn))),
        Gen::Trimmed => Value::Str(Cow::Owned(text(drawn).trim().to_owned())),
        Gen::NonEmpty => Value::Str(Cow::Owned(Some(text(drawn)).filter(|t| !t.is_empty()).unwrap_or("x".into()))),
        Gen::Digits => Value::Str(Cow::Owned(number(drawn).unsigned_abs().to_string())),
        Gen::Int => Value::Int(number(drawn)),
        Gen::Natural => Value::Int(number(drawn).checked_abs().unwrap_or(i64::MAX)),
        Gen::Float => Value::Float(float(
            drawn,
            &[0.0, 1.5, -2.25, 1e21, 1.5e-7, 123456.789, -0.001, 6.02e23, f64::MAX, f64::MIN_POSITIVE],
        )),
        Gen::Cents => Value::Float((number(drawn) % 4_000_000_000_000) as f64 / 4.0),
        Gen::JsNumber => {
            Value::Float(float(drawn, &[-0.5, 0.0, 7.0, -42.0, 1.5e-7, 1e21, 123.456, 9007199254740991.0]))
        }
        Gen::Bool => Value::Bool(number(drawn) & 1 == 0),
    }
}

/// A case: the format, its values, and the kind each placeholder's value is.
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
                format.push_str(SEPARATORS[separator % SEPARATORS.len()]);
                format.push_str(WORDS[word % WORDS.len()]);
                after_value = false;
            }
            Part::Escape(n) if !escapes.is_empty() => {
                if after_value {
                    format.push(' ');
                }
                format.push_str(escapes[n % escapes.len()]);
                format.push(' ');
                after_value = false;
            }
            Part::Value(n, drawn) if !conversions.is_empty() && !after_value => {
                let conversion = conversions[n % conversions.len()];
                let arg = values.len();
                let syntax = conversion.syntax.replace('§', &arg.to_string()).replace('@', &format!("name{arg}"));
                format.push_str(&syntax);
                values.push(value(conversion.value, drawn));
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

/// Replaces each text value that the message could not tell apart from the
/// literal text after it (it holds that literal, or runs into it), or that
/// breaks the line, by a plain word: the message would read the same.
pub(crate) fn unambiguous(template: &Template, values: &mut [Value<'static>]) {
    for (i, piece) in template.pieces.iter().enumerate() {
        let Piece::Value { field, .. } = piece else { continue };
        let field = usize::from(*field);
        let next = match template.pieces.get(i + 1) {
            Some(Piece::Literal(text)) => text.as_ref(),
            _ => "",
        };
        if let Value::Str(text) = &values[field] {
            let tricky = !next.is_empty() && format!("{text}{next}").find(next) != Some(text.len());
            if tricky || text.contains(['\n', '\r']) {
                // Of the same shape: digits stay digits (a pattern's `(\d+)`).
                let plain = if !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit()) {
                    "7".to_owned()
                } else {
                    format!("value{field}")
                };
                values[field] = Value::Str(Cow::Owned(plain));
            }
        }
    }
}

/// Whether the message ends with text of any length, which runs to the end
/// of the line: nothing may follow it there.
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

/// Checks one case (see the module documentation); panics on a failure.
pub fn check(dialect: Dialect, parts: &[Part]) {
    let Case { format, mut values, gens } = case(dialect, parts);
    let template = Template::compile(&format, dialect).unwrap_or_else(|e| panic!("{dialect:?} {format:?}: {e}"));
    assert_eq!(template.fields.len(), values.len(), "{format:?}: one field per placeholder");
    for (field, gen) in template.fields.iter().zip(&gens) {
        let expected = match gen {
            Gen::Text | Gen::Trimmed | Gen::NonEmpty | Gen::Digits => ValueKind::Text,
            Gen::Int | Gen::Natural => ValueKind::Int,
            Gen::Float | Gen::Cents | Gen::JsNumber => ValueKind::Float,
            Gen::Bool => ValueKind::Bool,
        };
        // A Go `%q` field is quoted text.
        let kind = if field.kind == ValueKind::Quoted { ValueKind::Text } else { field.kind };
        assert_eq!(kind, expected, "{format:?}: the kind of {}", field.name);
    }
    unambiguous(&template, &mut values);
    let message = template.render(&values).unwrap_or_else(|e| panic!("{format:?}: {e}"));
    let starts_with_value = matches!(template.pieces.first(), Some(Piece::Value { .. }));
    let before = if starts_with_value { PREFIX.to_owned() } else { format!("{PREFIX}{CONTEXT}") };
    let after = if ends_open(&template) { "" } else { SUFFIX };
    let line = format!("{before}{message}{after}");

    // A decoy: a shorter record made of one literal word of the message.
    let decoy = template.pieces.iter().find_map(|piece| match piece {
        Piece::Literal(text) => text.split(' ').find(|w| w.chars().count() > 2).map(str::to_owned),
        _ => None,
    });
    let mut templates = vec![template.clone()];
    if let Some(word) = &decoy {
        templates.push(Template::compile(word, Dialect::Plain).expect("plain text compiles"));
    }
    let matcher = Matcher::new(&templates);
    let context = || format!("{dialect:?} {format:?} (regex {:?}) in {line:?}", template.regex);

    let found = matcher.find(&line).unwrap_or_else(|| panic!("not found: {}", context()));
    assert_eq!(found.index, 0, "another record won: {}", context());
    assert_eq!(&line[found.span.clone()], message, "the span: {}", context());
    assert_eq!(found.values.len(), values.len(), "{}", context());
    for (got, want) in found.values.iter().zip(&values) {
        assert!(same(got, want), "{got:?} found, {want:?} written: {}", context());
    }
    assert_eq!(template.render(&found.values).ok().as_deref(), Some(message.as_str()), "Display: {}", context());

    // The same through the other searches.
    let all = matcher.find_all(&line);
    assert_eq!(all.first().map(|m| (m.index, m.span.clone())), Some((0, found.span.clone())), "{}", context());
    let shown = |values: &[Value<'_>]| values.iter().map(ToString::to_string).collect::<Vec<_>>();
    let text = format!("first line\n{line}\nlast line\n");
    let mut by_lines = Vec::new();
    matcher.find_lines(&text, |_, m| by_lines.push((m.index, shown(&m.values))));
    assert_eq!(by_lines, [(0, shown(&found.values))], "find_lines: {}", context());
    let parsed = matcher.parse(&message).unwrap_or_else(|| panic!("parse of the message alone: {}", context()));
    assert_eq!((parsed.index, shown(&parsed.values)), (0, shown(&found.values)), "parse: {}", context());
}

/// The fuzz target: a dialect and parts drawn from `data`.
pub fn dialect_line(data: &[u8]) {
    let mut u = Unstructured::new(data);
    let Ok(dialect) = u.choose(Dialect::ALL).copied() else { return };
    let Ok(parts) = u.arbitrary_iter::<Part>().and_then(|parts| parts.take(12).collect::<Result<Vec<_>, _>>()) else {
        return;
    };
    check(dialect, &parts);
}
