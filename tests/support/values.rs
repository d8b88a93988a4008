//! Random field values for a catalog entry, within what its message can carry
//! unambiguously: the strategy behind the round-trip property tests.
//!
//! Text values are what programs write: empty, multi-word, the formats' own
//! delimiters (`{}`, `%s`, `{0}`, `${x}`), quotes, backslashes, non-ASCII.
//! One thing no matcher can undo is left out: a text value that holds the
//! literal text following it in the message (the message reads the same
//! with the value cut there), which is replaced by a plain word.

use std::borrow::Cow;

use error_catalog::{Count, Entry, Piece, Spec, Template, Value, ValueKind};
use proptest::prelude::*;

/// Texts chosen to hit every dialect's delimiters and the matcher's edges.
const TEXTS: &[&str] = &[
    "",
    "multi word text",
    "connector-7",
    "vendor/cargo/registry/src/",
    "{}",
    "{0}",
    "%s",
    "${x}",
    "{braces}",
    "'single'",
    "\"double\"",
    "back\\slash",
    "é日本🎉",
    "a, b; c",
    "50%",
    "key=value",
    "-0.5",
];

/// Values for every field of `metadata`, in field order.
pub fn values(metadata: &Entry) -> BoxedStrategy<Vec<Value<'static>>> {
    let template = metadata.template.clone();
    raw_values(metadata)
        .prop_map(move |mut values| {
            unambiguous(&template, &mut values);
            values
        })
        .boxed()
}

/// Replaces each text value that holds the literal text after it (or runs
/// into it) by a plain word.
pub fn unambiguous(template: &Template, values: &mut [Value<'static>]) {
    for (i, piece) in template.pieces.iter().enumerate() {
        let Piece::Value { field, .. } = piece else { continue };
        let field = usize::from(*field);
        let Some(Piece::Literal(next)) = template.pieces.get(i + 1) else { continue };
        if let Value::Str(text) = &values[field] {
            if format!("{text}{next}").find(next.as_ref()) != Some(text.len()) {
                values[field] = Value::Str(Cow::Owned(format!("WORD{field}")));
            }
        }
    }
}

fn raw_values(metadata: &Entry) -> BoxedStrategy<Vec<Value<'static>>> {
    let strategies: Vec<BoxedStrategy<Value<'static>>> = metadata
        .template
        .fields
        .iter()
        .enumerate()
        .map(|(index, field)| {
            value(field.kind, &metadata.template.first_spec(index).expect("every field is rendered by some piece"))
        })
        .collect();
    strategies.prop_map(|values| values).boxed()
}

/// A decimal with `digits` significant digits or decimals, read as Rust reads
/// it: rendering it back with that precision gives the same text.
fn decimal(mantissa: i64, exponent: i32) -> f64 {
    format!("{mantissa}e{exponent}").parse().expect("a decimal literal")
}

fn value(kind: ValueKind, spec: &Spec) -> BoxedStrategy<Value<'static>> {
    match kind {
        ValueKind::Int => match spec.verb {
            'c' | 'U' => any::<char>()
                .prop_filter("one line", |c| *c != '\n' && *c != '\r')
                .prop_map(|c| Value::Int(i64::from(u32::from(c))))
                .boxed(),
            _ => any::<i64>().prop_map(Value::Int).boxed(),
        },
        ValueKind::Float => {
            let precision = match spec.precision {
                Count::Fixed(p) => Some(i32::from(p)),
                _ if matches!(spec.verb, 'e' | 'E' | 'f' | 'F') => Some(6),
                _ => None,
            };
            match (precision, spec.verb) {
                (Some(p), 'e' | 'E') => (1_000_000i64..9_999_999, -30i32..30)
                    .prop_map(move |(m, e)| Value::Float(decimal(m / 10i64.pow(6 - p.min(6) as u32), e)))
                    .boxed(),
                (Some(p), _) => {
                    (-1_000_000_000i64..1_000_000_000).prop_map(move |m| Value::Float(decimal(m, -p))).boxed()
                }
                (None, _) => any::<f64>().prop_filter("finite", |f| f.is_finite()).prop_map(Value::Float).boxed(),
            }
        }
        ValueKind::Bool => any::<bool>().prop_map(Value::Bool).boxed(),
        ValueKind::Quoted => any::<String>().prop_map(|s| Value::Str(Cow::Owned(s))).boxed(),
        ValueKind::Text => {
            let max = match spec.precision {
                Count::Fixed(p) => usize::from(p).max(1),
                _ => 8,
            };
            let pattern = match spec.verb {
                'x' => format!("[0-9a-f]{{2,{}}}", max.max(2)),
                'X' => format!("[0-9A-F]{{2,{}}}", max.max(2)),
                // Upper-case words rarely spell the literal text around them,
                // which would make the message ambiguous.
                _ => format!("[A-Z][A-Z0-9]{{0,{}}}", max - 1),
            };
            let words = proptest::string::string_regex(&pattern).expect("a valid pattern");
            if matches!(spec.verb, 'x' | 'X') {
                return words.prop_map(|s| Value::Str(Cow::Owned(s))).boxed();
            }
            // A precision cuts the text: keep it within.
            let limit = match spec.precision {
                Count::Fixed(p) => usize::from(p),
                _ => usize::MAX,
            };
            let texts: Vec<&'static str> = TEXTS.iter().copied().filter(|t| t.chars().count() <= limit).collect();
            prop_oneof![
                2 => words,
                2 => proptest::sample::select(texts).prop_map(str::to_owned),
                1 => proptest::string::string_regex("[a-z]{1,6}( [a-z]{1,4}){0,3}")
                    .expect("a valid pattern")
                    .prop_map(move |s| s.chars().take(limit).collect::<String>().trim_end().to_owned()),
            ]
            .prop_map(|s| Value::Str(Cow::Owned(s)))
            .boxed()
        }
        kind => unimplemented!("no value strategy for {kind:?}: add one"),
    }
}
