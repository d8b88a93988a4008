//! Messages of the language corpora as the real runtimes render them, found
//! in a log line. `golden/corpora/<corpus>.jsonl` holds renderings of the
//! records of `../shared/corpus/<corpus>` with varied values (empty, multi-word,
//! the dialects' own delimiters, quotes, braces, backslashes, non-ASCII,
//! numbers at their limits) by Node's `util.format` and template literals,
//! CPython's `%`, `str.format` and f-strings, `rustc`'s `format!`, Java's
//! `String.format` and SLF4J's `MessageFormatter`, and Go's `fmt`; written by
//! `tools/golden/corpora.py` (see there for how to regenerate), checked in so
//! that CI needs none of those runtimes.
//!
//! For each rendering, with the corpus loaded as `errcat --data` loads it:
//! * **record**: `find` in a line with text before and after the message
//!   finds this record, or one at least as literal whose template renders
//!   the values it found as exactly this text;
//! * **values**: the values found are the values rendered (numbers compared
//!   as numbers, text exactly). Another reading of the same text is counted
//!   apart, not as a failure, when the found record renders the values it
//!   found as exactly this text and the text cannot tell the readings
//!   apart: another record's, placeholders that touch (`{}{}`), or values
//!   that differ only in kind (Go's `%x` of 7 and of "\x07" both write `07`).
//!   The generator keeps other ambiguity out: no value holds the literal text
//!   that follows its placeholder;
//! * **display**: the record's template renders the golden values as exactly
//!   the runtime's text.
//!
//! A failure reports the counts per corpus, the failures by cause and the
//! first of them.

use crate::corpus;

use std::borrow::Cow;
use std::collections::{BTreeMap, HashMap};
use std::fmt::Write as _;

use catalog_runtime::{Catalog, Entry, Match, Piece, Value, ValueKind};
use serde_json::Value as Json;

/// What a log line holds before and after the message: a log prefix that
/// the matcher skips, then context of the program's own (a thread name),
/// and context after the message (a source position).
const PREFIX: &str = "2026-12-01T10:00:00Z ERROR ";
const BEFORE: &str = "[worker-3] ";
const AFTER: &str = " (at src/x.rs:10)";

/// The line the message is searched in. Two placements are the matching
/// rules, not the text's: a message that begins with a placeholder begins
/// where the log prefix ends (nothing else tells where its value starts),
/// and one that ends with a text placeholder runs to the end of the line
/// (nothing tells where its value stops), so those get no context there.
fn in_a_line(entry: &Entry, text: &str) -> String {
    let pieces = &entry.template.pieces;
    let starts_with_value = matches!(pieces.first(), Some(Piece::Value { .. }));
    let ends_with_text = match pieces.last() {
        Some(Piece::Value { field, .. }) => entry.template.fields[usize::from(*field)].kind == ValueKind::Text,
        _ => false,
    };
    let before = if starts_with_value { "" } else { BEFORE };
    let after = if ends_with_text { "" } else { AFTER };
    format!("{PREFIX}{before}{text}{after}")
}

struct Golden {
    id: String,
    style: String,
    values: Vec<Value<'static>>,
    text: String,
}

fn golden_value(json: &Json) -> Value<'static> {
    let [kind, v] = json.as_array().expect("[kind, value]").as_slice() else { panic!("[kind, value]: {json}") };
    match kind.as_str().expect("a kind") {
        "text" => Value::Str(Cow::Owned(v.as_str().expect("text").to_owned())),
        "int" => match (v.as_i64(), v.as_u64()) {
            (Some(n), _) => Value::Int(n),
            (None, Some(n)) => Value::Uint(n),
            _ => panic!("an integer: {v}"),
        },
        "bigint" => Value::BigInt(Cow::Owned(v.as_str().expect("decimal text").to_owned())),
        "float" => Value::Float(v.as_f64().expect("a float")),
        "bool" => Value::Bool(v.as_bool().expect("a bool")),
        other => panic!("unknown kind {other:?}"),
    }
}

fn read_golden(name: &str) -> Vec<Golden> {
    let path = format!("{}/tests/golden/corpora/{name}.jsonl", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|err| panic!("{path}: {err} (checked in)"));
    text.lines()
        .map(|line| {
            let json: Json = serde_json::from_str(line).unwrap_or_else(|err| panic!("{path}: {err}: {line}"));
            let text = |key: &str| json[key].as_str().unwrap_or_else(|| panic!("{path}: no {key}: {line}")).to_owned();
            Golden {
                id: text("id"),
                style: text("style"),
                values: json["values"].as_array().expect("values").iter().map(golden_value).collect(),
                text: text("text"),
            }
        })
        .collect()
}

/// Integers as decimal text, so that `Int`, `Uint` and `BigInt` compare.
fn integer(value: &Value<'_>) -> Option<String> {
    match value {
        Value::Int(n) => Some(n.to_string()),
        Value::Uint(n) => Some(n.to_string()),
        Value::BigInt(n) => Some(n.to_string()),
        _ => None,
    }
}

fn number(value: &Value<'_>) -> Option<f64> {
    match value {
        Value::Float(f) => Some(*f),
        Value::Float32(f) => Some(f64::from(*f)),
        #[allow(clippy::cast_precision_loss)]
        Value::Int(n) => Some(*n as f64),
        #[allow(clippy::cast_precision_loss)]
        Value::Uint(n) => Some(*n as f64),
        Value::BigInt(n) => n.parse().ok(),
        _ => None,
    }
}

/// Golden value `want` read back as `got`: text exactly, numbers as numbers.
fn same(want: &Value<'_>, got: &Value<'_>) -> bool {
    match (want, got) {
        (Value::Str(w), Value::Str(g)) => w == g,
        (Value::Bool(w), Value::Bool(g)) => w == g,
        (Value::Float(_), _) | (_, Value::Float(_) | Value::Float32(_)) => {
            number(want).zip(number(got)).is_some_and(|(w, g)| w == g)
        }
        _ => integer(want).zip(integer(got)).is_some_and(|(w, g)| w == g),
    }
}

fn show(value: &Value<'_>) -> String {
    match value {
        Value::Str(s) => format!("{s:?}"),
        Value::BigInt(s) => format!("bigint {s}"),
        other => format!("{other:?}"),
    }
}

fn show_values(values: &[Value<'_>]) -> String {
    let shown: Vec<String> = values.iter().map(show).collect();
    format!("[{}]", shown.join(", "))
}

/// Where the field's first placeholder stands, and which it is.
fn placeholder(entry: &Entry, field: usize) -> String {
    let pieces = &entry.template.pieces;
    let Some(at) = pieces.iter().position(|p| matches!(p, Piece::Value { field: f, .. } if usize::from(*f) == field))
    else {
        return "no placeholder".into();
    };
    let verb = entry.template.first_spec(field).map_or('?', |spec| spec.verb);
    let place = if at + 1 == pieces.len() {
        "at the end"
    } else if at == 0 {
        "at the start"
    } else if matches!(pieces[at + 1], Piece::Value { .. }) {
        "before another placeholder"
    } else {
        "inside"
    };
    format!("{} '{verb}' {place}", entry.template.dialect.name())
}

/// Why value `got` is not `want`.
fn value_cause(want: &Value<'_>, got: &Value<'_>) -> &'static str {
    match (want, got) {
        (Value::Str(w), Value::Str(g)) => {
            if w.is_empty() {
                "an empty value read as text"
            } else if g.is_empty() {
                "a value read as empty"
            } else if w.starts_with(g.as_ref()) {
                if g.chars().count() == 1 {
                    "text cut to one character"
                } else {
                    "text cut short"
                }
            } else if g.ends_with(AFTER) {
                "text takes the rest of the line"
            } else if g.starts_with(w.as_ref()) {
                "text runs on past the value"
            } else if g.ends_with(w.as_ref()) {
                "text takes the line before the value"
            } else {
                "other text"
            }
        }
        (_, Value::Str(_)) => "a number or bool read as text",
        (Value::Str(_), _) => "text read as a number or bool",
        (Value::Float(_), Value::Int(_) | Value::Uint(_) | Value::BigInt(_)) => "a float read as an integer",
        _ => "another number",
    }
}

#[derive(Default)]
struct Report {
    renderings: usize,
    right_record: usize,
    this_record: usize,
    values: usize,
    other_reading: usize,
    display: usize,
    /// Failures per cause, with the first two of each.
    causes: BTreeMap<String, (usize, Vec<String>)>,
    failures: Vec<String>,
    /// Values right but for a text field ending the message that took the
    /// rest of the line too (the context rule of docs/formats.md).
    rest_of_line: usize,
    /// Display left apart: Python's `repr` of a value that is not a string.
    display_repr: usize,
    readings: Vec<String>,
}

impl Report {
    fn fail(&mut self, cause: String, detail: String) {
        let (count, examples) = self.causes.entry(cause).or_default();
        *count += 1;
        if examples.len() < 2 {
            examples.push(detail.clone());
        }
        if self.failures.len() < 20 {
            self.failures.push(detail);
        }
    }

    fn summary(&self, name: &str) -> String {
        let n = self.renderings;
        let pct = |k: usize| {
            #[allow(clippy::cast_precision_loss)]
            let p = 100.0 * k as f64 / n.max(1) as f64;
            format!("{k}/{n} ({p:.2}%)")
        };
        let mut out = format!(
            "{name}: {n} renderings in a line; right record {} (this very record {}); all values {} \
             (and {} with another reading of the same text; {} more if a text field ending the message \
             may take the rest of the line); Display {} (and {} Python reprs of values that are not \
             strings, which a text field writes quoted)",
            pct(self.right_record),
            self.this_record,
            pct(self.values),
            self.other_reading,
            self.rest_of_line,
            pct(self.display),
            self.display_repr
        );
        if !self.causes.is_empty() {
            out.push_str("\n  failures by cause:");
            let mut causes: Vec<(&String, &(usize, Vec<String>))> = self.causes.iter().collect();
            causes.sort_by(|a, b| b.1 .0.cmp(&a.1 .0).then(a.0.cmp(b.0)));
            for (cause, (count, examples)) in causes {
                let _ = write!(out, "\n    {count:>5}  {cause}");
                for example in examples {
                    let _ = write!(out, "\n             e.g. {example}");
                }
            }
            out.push_str("\n  first failures:");
            for failure in &self.failures {
                let _ = write!(out, "\n    {failure}");
            }
        }
        out
    }
}

/// Whether a text value holds the literal text that follows its placeholder,
/// or runs into it (`-1` before `-` in `{}-{}`): the message then reads the
/// same with the value cut there, and no matcher can tell the two apart.
fn runs_into_next(entry: &Entry, values: &[Value<'_>]) -> bool {
    let pieces = &entry.template.pieces;
    pieces.iter().enumerate().any(|(i, piece)| match (piece, pieces.get(i + 1)) {
        (Piece::Value { field, .. }, Some(Piece::Literal(next))) => match values.get(usize::from(*field)) {
            Some(Value::Str(text)) => format!("{text}{next}").find(next.as_ref()) != Some(text.len()),
            _ => false,
        },
        _ => false,
    })
}

/// Whether a Python `%r` (or `{!r}`) field holds the repr of a value that is
/// not a string (`['a', 'b']`, `{'k': 1}`, `<object>`): a text field holds
/// the text, and writes it back as a string's repr, quoted.
fn repr_of_a_non_string(entry: &Entry, values: &[Value<'_>]) -> bool {
    let python = matches!(entry.template.dialect.name(), "python" | "python-brace");
    python
        && (0..values.len()).any(|field| {
            entry.template.first_spec(field).is_some_and(|spec| spec.verb == 'r')
                && matches!(&values[field], Value::Str(text) if text.starts_with(['[', '{', '(', '<']))
        })
}

/// How `find` in a line fared where the message alone does (or does not).
fn alone(catalog: &Catalog, index: usize, text: &str) -> &'static str {
    match catalog.parse(text) {
        Some(m) if m.index == index => "parse of the message alone: this record",
        Some(_) => "parse of the message alone: another record",
        None => "parse of the message alone: no record",
    }
}

fn check(name: &str, test: &str) {
    let goldens = read_golden(name);
    let Some(dir) = corpus::corpus(name, test) else {
        return;
    };
    assert!(goldens.len() >= 400, "{name}: only {} golden renderings", goldens.len());
    let catalog = Catalog::load(&dir).expect("the corpus loads without errors");
    let entries = catalog.entries();
    let by_id: HashMap<&str, usize> =
        (0..entries.len()).map(|index| (entries[index].record().id.as_ref(), index)).collect();
    let mut report = Report::default();
    for golden in &goldens {
        report.renderings += 1;
        let Some(&index) = by_id.get(golden.id.as_str()) else {
            report.fail("record: not in the corpus".into(), format!("{}: no such record", golden.id));
            continue;
        };
        let entry = &entries[index];
        let dialect = entry.template.dialect.name();
        let text = golden.text.as_str();
        // (c) Display.
        match entry.template.render(&golden.values) {
            Ok(rendered) if rendered == text => report.display += 1,
            Ok(_) if repr_of_a_non_string(entry, &golden.values) => report.display_repr += 1,
            Ok(rendered) => report.fail(
                format!("display: {dialect} (golden {}) renders other text", golden.style),
                format!(
                    "{} {}: {} rendered {rendered:?}, the runtime wrote {text:?}",
                    golden.id,
                    entry.name,
                    show_values(&golden.values)
                ),
            ),
            Err(err) => report.fail(
                format!(
                    "display: {dialect} (golden {}): {} values for {} fields",
                    golden.style, err.values, err.fields
                ),
                format!("{} {}: {} for {:?}", golden.id, entry.name, show_values(&golden.values), text),
            ),
        }
        // (a) The record, (b) the values, found in a line.
        let line = in_a_line(entry, text);
        let renders_text =
            |found: &Match<'_>| entries[found.index].template.render(&found.values).is_ok_and(|r| r == text);
        let Some(found) = catalog.find(&line) else {
            report.fail(
                format!("record: not found in the line ({dialect}; {})", alone(&catalog, index, text)),
                format!("{} {}: nothing found in {line:?}", golden.id, entry.name),
            );
            continue;
        };
        let other = &entries[found.index];
        let same_template = other.record().error_message == entry.record().error_message
            && other.template.dialect == entry.template.dialect;
        let at_least_as_literal = other.template.literal_len >= entry.template.literal_len;
        // A more literal record whose message is a part of this text, from
        // its start (`Executing {}.` in `Executing db.example.org`, `Shutting
        // down {}` ending with text in `Shutting down (at ...)`): the line is
        // its message too, followed by context, so it wins by the ranking.
        let message_start = line.find(text).unwrap_or(0);
        let prefix_reading = at_least_as_literal
            && found.span.start == message_start
            && other.template.render(&found.values).is_ok_and(|r| r == line[found.span.clone()]);
        let right =
            found.index == index || same_template || (at_least_as_literal && renders_text(&found)) || prefix_reading;
        if !right {
            let cause = if other.template.literal_len < entry.template.literal_len {
                "a less literal record found instead"
            } else {
                "a more literal record found, which does not render the text"
            };
            report.fail(
                format!("record: {cause} ({dialect}; {})", alone(&catalog, index, text)),
                format!(
                    "{} {}: found {} ({:?}) with {} in {line:?}",
                    golden.id,
                    entry.name,
                    other.name,
                    other.record().error_message,
                    show_values(&found.values)
                ),
            );
            continue;
        }
        report.right_record += 1;
        report.this_record += usize::from(found.index == index);
        let exact = found.values.len() == golden.values.len()
            && found.values.iter().zip(&golden.values).all(|(got, want)| same(want, got));
        // Another reading of the same text: that of another record (at least
        // as literal, as above), of placeholders that touch (`{}{}`), or of
        // values that differ only in kind (Go's `%x` of 7 and of "\x07").
        let touching =
            other.template.pieces.windows(2).any(|w| matches!(w, [Piece::Value { .. }, Piece::Value { .. }]));
        let kinds_only =
            found.values.len() == golden.values.len()
                && found.values.iter().zip(&golden.values).all(|(got, want)| {
                    same(want, got) || matches!(want, Value::Str(_)) != matches!(got, Value::Str(_))
                });
        let other_reading =
            !(found.index == index || same_template) || touching || kinds_only || runs_into_next(entry, &golden.values);
        if exact {
            report.values += 1;
        } else if (other_reading && renders_text(&found)) || prefix_reading {
            report.other_reading += 1;
            if report.readings.len() < 5 {
                report.readings.push(format!(
                    "{} {}: {} read as {} ({})",
                    golden.id,
                    entry.name,
                    show_values(&golden.values),
                    show_values(&found.values),
                    other.name
                ));
            }
        } else if found.values.len() != golden.values.len() {
            report.fail(
                format!("values: {} values found for {} ({dialect})", found.values.len(), golden.values.len()),
                format!(
                    "{} {}: {} found as {}",
                    golden.id,
                    entry.name,
                    show_values(&golden.values),
                    show_values(&found.values)
                ),
            );
        } else {
            let last = entry.template.pieces.last().and_then(|piece| match piece {
                Piece::Value { field, .. } => Some(usize::from(*field)),
                _ => None,
            });
            let rest_of_line = (0..golden.values.len()).all(|f| match (&golden.values[f], &found.values[f]) {
                (Value::Str(want), Value::Str(got)) if Some(f) == last => **got == format!("{want}{AFTER}"),
                (want, got) => same(want, got),
            });
            report.rest_of_line += usize::from(rest_of_line);
            let field = (0..golden.values.len()).find(|&f| !same(&golden.values[f], &found.values[f])).unwrap_or(0);
            let (want, got) = (&golden.values[field], &found.values[field]);
            let parsed = catalog.parse(text).is_some_and(|m| {
                m.index == index && m.values.iter().zip(&golden.values).all(|(got, want)| same(want, got))
            });
            let alone = if parsed { "right when the message is parsed alone" } else { "wrong when parsed alone too" };
            report.fail(
                format!("values: {}: {} ({alone})", placeholder(entry, field), value_cause(want, got)),
                format!(
                    "{} {}: field {field} {} found as {} in {line:?}",
                    golden.id,
                    entry.name,
                    show(want),
                    show(got)
                ),
            );
        }
    }
    let summary = report.summary(name);
    eprintln!("{summary}");
    for reading in &report.readings {
        eprintln!("  another reading: {reading}");
    }
    let n = report.renderings;
    // The targets: the right record for every rendering, every value
    // exact for at least 99% and, counting the readings the text cannot
    // tell apart from this one (listed above), for at least 99.8%, and
    // `Display` of the golden values writes the runtime's text.
    let at_least = |k: usize, per_ten_thousand: usize| k * 10_000 >= n * per_ten_thousand;
    assert!(
        report.right_record == n
            && at_least(report.values, 9_900)
            && at_least(report.values + report.other_reading, 9_980)
            && report.display + report.display_repr == n,
        "{summary}"
    );
}

#[test]
fn nodejs_renderings_are_found_in_a_line() {
    check("nodejs-node", "nodejs_renderings_are_found_in_a_line");
}

#[test]
fn django_renderings_are_found_in_a_line() {
    check("django", "django_renderings_are_found_in_a_line");
}

#[test]
fn cargo_renderings_are_found_in_a_line() {
    check("cargo", "cargo_renderings_are_found_in_a_line");
}

#[test]
fn kafka_renderings_are_found_in_a_line() {
    check("kafka", "kafka_renderings_are_found_in_a_line");
}

#[test]
fn nats_server_renderings_are_found_in_a_line() {
    check("nats-server", "nats_server_renderings_are_found_in_a_line");
}
