//! `Display` then `parse` of the generated corpus enum on arbitrary field values.

use std::borrow::Cow;
use std::sync::Once;

use arbitrary::{Result, Unstructured};
use catalog_runtime::{CatalogEnum, Value};
use catalog_runtime::{Count, Piece, Spec, ValueKind};
use corpus_crate::{CorpusError, CORPUS_DIR, CORPUS_PRESENT};

use crate::dialect_line::{unambiguous, TEXTS};

/// From the bytes: one of the generated corpus enums (`CorpusError` of the
/// nats-server corpus, the three seed records when it was absent at build
/// time, said on stderr; the JavaScript, Python, Rust and Java corpora's
/// enums, each in its own dialect, when they were present), a record of it,
/// then a value for each of its fields within what its message can carry
/// unambiguously (any integer, string to quote, boolean; decimals that read
/// back exactly at the placeholder's precision; for text, words of capitals
/// and digits, hex digits, or what programs write: empty, multi-word, the
/// formats' delimiters, quotes, non-ASCII, unless it holds the literal text
/// after it), and the kinds beyond `i64`, `f64` and `String`: integers
/// above `i64::MAX` (a `uint64`) and up to `i128`'s bounds, float32s, bytes
/// that are not UTF-8 for `%q` (a `ByteString` field) and for `%x`/`%X`
/// text (a `String` field holds them escaped). An integer beyond `i128` (a
/// Python integer) fits no generated field: `from_values` refuses it. The
/// variant built from them renders a message with `Display`; then, as that
/// test checks:
///
/// - `parse(message)` gives a record at least as specific (most literal
///   characters, then record order) that renders the same message, with
///   the same values when it is this record, unless two placeholders touch;
/// - `find_span` on the message after a nats-server log prefix gives the
///   same, spanning exactly the message (without a trailing line break); or
///   a more specific record inside the message (a `%q` value may hold
///   another record's message), and then this record is still found at the
///   message, with the same values.
pub fn display_parse(data: &[u8]) {
    static NOTE: Once = Once::new();
    if !CORPUS_PRESENT {
        NOTE.call_once(|| eprintln!("note: the corpus is absent ({CORPUS_DIR}): fuzzing the 3 seed records"));
    }
    let Some((&which, data)) = data.split_first() else { return };
    use corpus_crate::languages::{CargoError, DjangoError, KafkaError, NodeError};
    let enums: [fn(&[u8]); 5] = [
        display_parse_of::<CorpusError>,
        display_parse_of::<NodeError>,
        display_parse_of::<DjangoError>,
        display_parse_of::<CargoError>,
        display_parse_of::<KafkaError>,
    ];
    enums[usize::from(which) % enums.len()](data);
}

fn display_parse_of<E: CatalogEnum + std::fmt::Display>(data: &[u8]) {
    let mut input = Unstructured::new(data);
    let Ok((index, mut values)) = draw::<E>(&mut input) else {
        return;
    };
    let entries = E::entries();
    unambiguous(&entries[index].template, &mut values);
    let metadata = &entries[index];
    let beyond = metadata.template.fields.iter().position(|f| f.kind == ValueKind::Int);
    if let Some(field) = beyond.filter(|_| input.arbitrary::<u8>().is_ok_and(|b| b == 0)) {
        // Beyond `i128`: the documented limit of a generated integer field.
        let mut too_big = values.clone();
        too_big[field] = Value::BigInt(Cow::Borrowed("170141183460469231731687303715884105728"));
        assert!(E::from_values(index, too_big).is_none(), "an integer beyond i128 fits {}", metadata.name);
    }
    let rank = |index: usize| (std::cmp::Reverse(entries[index].template.literal_len), index);
    let touching = metadata
        .template
        .pieces
        .windows(2)
        .any(|pair| matches!((&pair[0], &pair[1]), (Piece::Value { .. }, Piece::Value { .. })));
    let error = E::from_values(index, values.clone());
    assert!(error.is_some(), "values {values:?} do not fit {}", metadata.name);
    let error = error.unwrap();
    let message = error.to_string();

    let same = |winner: &E| {
        let name = &winner.metadata().name;
        assert!(rank(winner.index()) <= rank(index), "{} beaten by {name} on {message:?}", metadata.name);
        assert_eq!(winner.to_string(), message, "{name} renders differently what {} rendered", metadata.name);
        if winner.index() == index && !touching {
            assert_eq!(winner.values(), error.values(), "values of {name} from {message:?}");
        }
    };

    let parsed = E::parse(&message);
    assert!(parsed.is_some(), "{} renders {message:?}, which does not parse", metadata.name);
    same(&parsed.unwrap());

    let prefix = format!("[{}] 2026/11/29 17:20:00.123456 [ERR] ", 1 + index);
    let line = format!("{prefix}{message}");
    let whole = prefix.len()..prefix.len() + message.trim_end_matches(['\n', '\r']).len();
    let found = E::find_span(&line);
    assert!(found.is_some(), "{} renders {message:?}, not found in {line:?}", metadata.name);
    let (found, span) = found.unwrap();
    if span == whole || found.index() == index {
        assert_eq!(span, whole, "{} found in {line:?}", found.metadata().name);
        same(&found);
    } else {
        // A more specific message inside a value (`%q` of text that contains
        // another record's message): it wins, and this record is still
        // found where it is, with the values it was rendered with.
        let name = &found.metadata().name;
        assert!(rank(found.index()) < rank(index), "{} beaten by {name} inside {line:?}", metadata.name);
        assert!(span.start >= whole.start && span.end <= whole.end, "{name} found at {span:?} in {line:?}");
        let own = E::matcher().find_map(&line, |m| (m.index == index).then_some(m));
        assert!(own.is_some(), "{} is not found in {line:?}", metadata.name);
        let own = own.unwrap();
        assert_eq!(own.span, whole, "{} found in {line:?}", metadata.name);
        let own = E::from_values(index, own.values).expect("found values fit");
        assert_eq!(own.to_string(), message, "{} found in {line:?}", metadata.name);
        if !touching {
            assert_eq!(own.values(), error.values(), "values of {} from {line:?}", metadata.name);
        }
    }
}

/// A record index and values for its fields.
fn draw<E: CatalogEnum>(input: &mut Unstructured<'_>) -> Result<(usize, Vec<Value<'static>>)> {
    let entries = E::entries();
    let index = input.choose_index(entries.len())?;
    let metadata = &entries[index];
    let values = (0..metadata.template.fields.len())
        .map(|field| {
            value(
                input,
                metadata.template.fields[field].kind,
                &metadata.template.first_spec(field).expect("every field is rendered by some piece"),
            )
        })
        .collect::<Result<_>>()?;
    Ok((index, values))
}

/// A decimal read as Rust reads it: rendered back at its precision it gives the same text.
fn decimal(mantissa: i64, exponent: i32) -> f64 {
    format!("{mantissa}e{exponent}").parse().expect("a decimal literal")
}

fn value(input: &mut Unstructured<'_>, kind: ValueKind, spec: &Spec) -> Result<Value<'static>> {
    Ok(match kind {
        ValueKind::Int => match spec.verb {
            'c' | 'U' => {
                let c: char = input.arbitrary()?;
                let c = if c == '\n' || c == '\r' { ' ' } else { c };
                Value::Int(i64::from(u32::from(c)))
            }
            _ => match input.int_in_range(0u8..=3)? {
                0 => Value::Uint(input.int_in_range(1u64 << 63..=u64::MAX)?),
                1 => Value::BigInt(Cow::Owned(input.arbitrary::<i128>()?.to_string())),
                _ => Value::Int(input.arbitrary()?),
            },
        },
        ValueKind::Float => {
            let precision = match spec.precision {
                Count::Fixed(p) => Some(i32::from(p)),
                _ if matches!(spec.verb, 'e' | 'E' | 'f' | 'F') => Some(6),
                _ => None,
            };
            match (precision, spec.verb) {
                (Some(p), 'e' | 'E') => {
                    let mantissa = input.int_in_range(1_000_000i64..=9_999_998)?;
                    let exponent = input.int_in_range(-30i32..=29)?;
                    Value::Float(decimal(mantissa / 10i64.pow(6 - p.min(6) as u32), exponent))
                }
                (Some(p), _) => Value::Float(decimal(input.int_in_range(-1_000_000_000i64..=999_999_999)?, -p)),
                (None, _) if input.arbitrary()? => {
                    let f: f32 = input.arbitrary()?;
                    Value::Float32(if f.is_finite() { f } else { 0.0 })
                }
                (None, _) => {
                    let f: f64 = input.arbitrary()?;
                    Value::Float(if f.is_finite() { f } else { 0.0 })
                }
            }
        }
        ValueKind::Bool => Value::Bool(input.arbitrary()?),
        ValueKind::Quoted => match String::from_utf8(input.arbitrary::<Vec<u8>>()?) {
            Ok(text) => Value::Str(Cow::Owned(text)),
            Err(e) => Value::Bytes(Cow::Owned(e.into_bytes())),
        },
        ValueKind::Text if matches!(spec.verb, 'x' | 'X') && input.arbitrary()? => {
            let mut bytes: Vec<u8> = input.arbitrary()?;
            bytes.push(0xff);
            Value::Bytes(Cow::Owned(bytes))
        }
        ValueKind::Text if !matches!(spec.verb, 'x' | 'X') && input.arbitrary()? => {
            let limit = match spec.precision {
                Count::Fixed(p) => usize::from(p),
                _ => usize::MAX,
            };
            let text: &str = input.choose(TEXTS)?;
            Value::Str(Cow::Owned(text.chars().take(limit).collect()))
        }
        ValueKind::Text => {
            let max = match spec.precision {
                Count::Fixed(p) => usize::from(p).max(1),
                _ => 8,
            };
            let (first, rest): (&[u8], &[u8]) = match spec.verb {
                'x' => (b"0123456789abcdef", b"0123456789abcdef"),
                'X' => (b"0123456789ABCDEF", b"0123456789ABCDEF"),
                // Capitals rarely spell the literal text around them, which
                // would make the message ambiguous.
                _ => (b"ABCDEFGHIJKLMNOPQRSTUVWXYZ", b"ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"),
            };
            let min = if matches!(spec.verb, 'x' | 'X') { 2 } else { 1 };
            let len = input.int_in_range(min..=max.max(min))?;
            let mut text = String::with_capacity(len);
            text.push(char::from(*input.choose(first)?));
            for _ in 1..len {
                text.push(char::from(*input.choose(rest)?));
            }
            Value::Str(Cow::Owned(text))
        }
        kind => unimplemented!("no value generator for {kind:?}: add one"),
    })
}
