//! Random field values for a catalog entry, within what its message can carry
//! unambiguously: the strategy behind the round-trip property tests.

use std::borrow::Cow;

use error_catalog::{Count, Entry, Spec, Value, ValueKind};
use proptest::prelude::*;

/// Values for every field of `metadata`, in field order.
pub fn values(metadata: &Entry) -> BoxedStrategy<Vec<Value<'static>>> {
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
            proptest::string::string_regex(&pattern)
                .expect("a valid pattern")
                .prop_map(|s| Value::Str(Cow::Owned(s)))
                .boxed()
        }
    }
}
