//! The format compiler against the real formatters: `tests/golden/*.jsonl`
//! hold what Go's `fmt`, glibc's `printf` and Python 3's `%` print for many
//! format strings and values (written by `tools/golden/generate.sh`, checked
//! in so that no Go or C compiler is needed here). For each row:
//!
//! - **render**: the template renders the row's values as the real formatter did;
//! - **parse**: the template's regex matches the real output, and each field
//!   reads back as the value that was formatted (when the format keeps all of
//!   it; when it rounds or cuts, the values read back render the same output).
//!
//! A row that no template can get right is a documented limitation (see
//! [`limitation`] and docs/formats.md); any other mismatch fails the test.

use std::borrow::Cow;
use std::collections::BTreeMap;

use catalog_runtime::{Count, Dialect, Matcher, Piece, Spec, Template, Value, ValueKind};
use serde_json::Value as Json;

/// One row of a table.
struct Row {
    format: String,
    args: Vec<Arg>,
    /// `None` when the formatter's output is not UTF-8 (lines are text).
    out: Option<String>,
}

struct Arg {
    /// The argument's type in the source language (`int64`, `float32`, `string`...).
    ty: String,
    /// Numbers and booleans as text.
    value: String,
    /// Strings and byte slices.
    bytes: Option<Vec<u8>>,
}

fn unhex(hex: &str) -> Vec<u8> {
    (0..hex.len()).step_by(2).map(|i| u8::from_str_radix(&hex[i..i + 2], 16).expect("hex")).collect()
}

fn rows(file: &str) -> Vec<Row> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden").join(file);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    text.lines()
        .map(|line| {
            let json: Json = serde_json::from_str(line).unwrap_or_else(|e| panic!("{line}: {e}"));
            let args = json["args"].as_array().expect("args").iter().map(|arg| Arg {
                ty: arg["type"].as_str().expect("type").to_owned(),
                value: arg["value"].as_str().unwrap_or_default().to_owned(),
                bytes: arg["hex"].as_str().map(unhex),
            });
            Row {
                format: json["format"].as_str().expect("format").to_owned(),
                args: args.collect(),
                out: json["out"].as_str().map(str::to_owned),
            }
        })
        .collect()
}

/// The value an argument is given to a template as: the natural [`Value`]
/// of its type.
fn value_of(arg: &Arg) -> Value<'static> {
    let ty = arg.ty.as_str();
    match ty {
        "string" | "bytes" => {
            let bytes = arg.bytes.clone().expect("hex");
            // Bytes that are text are held as text.
            match String::from_utf8(bytes) {
                Ok(text) => Value::Str(Cow::Owned(text)),
                Err(e) => Value::Bytes(Cow::Owned(e.into_bytes())),
            }
        }
        "bool" => Value::Bool(arg.value == "true"),
        "float32" => Value::Float32(parse_float(&arg.value) as f32),
        "float64" | "double" | "float" => Value::Float(parse_float(&arg.value)),
        _ => Value::integer(&arg.value).expect("an integer"),
    }
}

fn parse_float(text: &str) -> f64 {
    match text {
        "NaN" => f64::NAN,
        "-NaN" => -f64::NAN,
        "+Inf" => f64::INFINITY,
        "-Inf" => f64::NEG_INFINITY,
        _ => text.parse().expect("a float"),
    }
}

/// The kind a field is read back as to compare it with the formatted value:
/// a text field (`%v`, Go `%x`, Python `%r`...) formatting a number or a
/// boolean is read as that type, as a generated field of that type reads it.
fn kind_for(field: ValueKind, spec: &Spec, value: &Value<'_>) -> ValueKind {
    match (field, value) {
        // `%T` holds a type name; Python's `%c` of a one-character string.
        _ if spec.verb == 'T' => field,
        (ValueKind::Int, Value::Str(_)) => ValueKind::Text,
        (ValueKind::Text | ValueKind::Quoted, Value::Int(_) | Value::Uint(_) | Value::BigInt(_)) => ValueKind::Int,
        (ValueKind::Text, Value::Float(_) | Value::Float32(_)) => ValueKind::Float,
        (ValueKind::Text, Value::Bool(_)) => ValueKind::Bool,
        (kind, _) => kind,
    }
}

fn same(parsed: &Value<'_>, expected: &Value<'_>) -> bool {
    match (parsed, expected) {
        (Value::Float(a), Value::Float(b)) => a.to_bits() == b.to_bits() || (a.is_nan() && b.is_nan()),
        // A float32 is printed in its shortest float32 form, which reads
        // back as the nearest float64; narrowed, it is the float32 again.
        (Value::Float(a), Value::Float32(b)) => (*a as f32).to_bits() == b.to_bits() || (a.is_nan() && b.is_nan()),
        _ => parsed == expected,
    }
}

/// Whether the spec keeps the whole value (else it rounds or cuts it: the
/// values read back need only render the same output).
fn keeps_the_value(spec: &Spec, dialect: Dialect, value: &Value<'_>) -> bool {
    let c_like = dialect != Dialect::Go;
    let precision = spec.precision != Count::None;
    if spec.verb == 'T' {
        return false; // the type's name
    }
    match value {
        Value::Float(_) | Value::Float32(_) => match spec.verb {
            'e' | 'E' | 'f' | 'F' => false,
            'g' | 'G' if c_like => false,
            'd' => false,
            _ => !precision,
        },
        Value::Str(s) => {
            // Padding and the value's own spaces (or, for Go, zeros) look alike.
            let padded = spec.width != Count::None;
            let zero_padded = padded && !c_like && spec.flags.zero();
            let ambiguous = (padded && (s.starts_with(' ') || s.ends_with(' '))) || zero_padded;
            !precision && !ambiguous
        }
        Value::Bytes(_) => {
            let zero_padded = spec.width != Count::None && spec.flags.zero();
            !precision && !zero_padded
        }
        // Go's `%c` and `%q` of an invalid code point write U+FFFD.
        Value::Int(v) if !c_like && "cq".contains(spec.verb) => {
            u32::try_from(*v).ok().and_then(char::from_u32).is_some()
        }
        Value::Uint(_) if !c_like && "cq".contains(spec.verb) => false,
        // Go's `%U` writes the bits of a negative value as unsigned.
        Value::Int(v) if !c_like && spec.verb == 'U' => *v >= 0,
        _ => true,
    }
}

/// Why a row cannot be checked, when it is a documented limitation (also
/// listed in docs/formats.md).
fn limitation(dialect: Dialect, row: &Row) -> Option<&'static str> {
    if row.out.is_none() {
        return Some("output not UTF-8 (C's %s of invalid UTF-8, Go's %s of invalid UTF-8): lines are text");
    }
    let format = row.format.as_str();
    let ty = row.args[0].ty.as_str();
    let sized = !matches!(ty, "int" | "float64" | "float32" | "string" | "bool" | "uint64" | "bytes");
    if dialect == Dialect::Go && (format.contains("%T") || format.contains("%#v")) && sized {
        return Some("Go %T and %#v of a sized type (int8, uint16...): a value does not carry its Go type");
    }
    if dialect == Dialect::Go && format.contains("%T") && matches!(ty, "string" | "bytes") {
        return Some("Go %T of a string: a %T field holds the type name, so a string value renders as itself");
    }
    if dialect == Dialect::Python && (format.contains("%.3r") || format.contains("%.3a")) && ty == "string" {
        return Some("Python %.Nr of a string cuts its repr: the cut text is no literal to read back");
    }
    let edge_spaces = |arg: &Arg| arg.bytes.as_ref().is_some_and(|b| b.starts_with(b" ") || b.ends_with(b" "));
    let width =
        format.trim_start_matches(['[', '%', '-', '0', '+', ' ', '#']).starts_with(|c: char| c.is_ascii_digit());
    if width && row.args.iter().any(edge_spaces) {
        return Some(
            "text with its own leading or trailing spaces, written with a width: padding and its spaces look alike",
        );
    }
    let out = row.out.as_deref().unwrap_or_default();
    let rounded_hex = format.contains('.') && format.ends_with(['a', 'A', ']']) && format.contains(['a', 'A']);
    if dialect == Dialect::Printf
        && rounded_hex
        && (out.contains("0x2")
            || out.contains("0X2")
            || out.contains("0x0.")
            || out.contains("0X0.")
            || out.contains("0x0p")
            || out.contains("0X0P"))
        && !out.contains("0x0p+0")
        && !out.contains("0X0P+0")
        && !out.contains("0x0.000p+0")
    {
        return Some("glibc's %.Na rounds to an unnormalized mantissa (0x2p+0, 0x0.0p-1022): the value read back is exact, but prints in normal form");
    }
    None
}

#[derive(Default)]
struct Tally {
    rows: usize,
    rendered: usize,
    parsed: usize,
    limited: BTreeMap<&'static str, usize>,
    failures: Vec<String>,
}

fn check(file: &str, dialect: Dialect) -> Tally {
    let mut tally = Tally::default();
    for row in rows(file) {
        tally.rows += 1;
        if let Some(reason) = limitation(dialect, &row) {
            *tally.limited.entry(reason).or_default() += 1;
            continue;
        }
        let out = row.out.as_deref().expect("UTF-8 output");
        let template = match Template::compile(&row.format, dialect) {
            Ok(template) => template,
            Err(e) => {
                tally.failures.push(format!("{:?}: does not compile: {e}", row.format));
                continue;
            }
        };
        let args: Vec<Value<'static>> = row.args.iter().map(value_of).collect();
        let values: Vec<Value<'static>> =
            template.fields.iter().map(|field| args[usize::from(field.arg)].clone()).collect();
        let describe = || format!("{dialect:?} {:?} of {values:?} printed {out:?}", row.format);

        match template.render(&values) {
            Ok(rendered) if rendered == out => tally.rendered += 1,
            Ok(rendered) => tally.failures.push(format!("{}: rendered {rendered:?}", describe())),
            Err(e) => tally.failures.push(format!("{}: render failed: {e}", describe())),
        }

        // Classified at all, with the template's own field kinds.
        if Matcher::new([&template]).parse(out).is_none() {
            tally.failures.push(format!("{}: the template {:?} does not match it", describe(), template.regex));
            continue;
        }
        // Read back with each field of the formatted value's type.
        let mut typed = template.clone();
        let fields: Vec<_> = (typed.fields.iter().zip(&values).enumerate())
            .map(|(index, (field, value))| {
                let mut field = field.clone();
                if let Some(spec) = template.first_spec(index) {
                    field.kind = kind_for(field.kind, &spec, value);
                }
                field
            })
            .collect();
        typed.fields = Cow::Owned(fields);
        let Some(found) = Matcher::new([&typed]).parse(out) else {
            tally.failures.push(format!("{}: does not read back as {:?}", describe(), typed.fields));
            continue;
        };
        let spec_of = |field: usize| {
            typed.pieces.iter().find_map(|piece| match piece {
                Piece::Value { field: f, spec } if usize::from(*f) == field => Some(*spec),
                _ => None,
            })
        };
        // A `*` count is only known from the padded text: compared by rendering.
        let exact = (0..values.len())
            .all(|field| spec_of(field).is_some_and(|spec| keeps_the_value(&spec, dialect, &values[field])));
        let ok = if exact {
            found.values.iter().zip(&values).all(|(parsed, expected)| same(parsed, expected))
        } else {
            typed.render(&found.values).is_ok_and(|again| again == out)
        };
        if ok {
            tally.parsed += 1;
        } else {
            tally.failures.push(format!("{}: read back as {:?}", describe(), found.values));
        }
    }
    tally
}

fn report(name: &str, tally: &Tally) {
    let checked = tally.rows - tally.limited.values().sum::<usize>();
    eprintln!(
        "{name}: {} rows, {checked} checked: rendering {}/{checked}, parse-back {}/{checked}",
        tally.rows, tally.rendered, tally.parsed
    );
    for (reason, count) in &tally.limited {
        eprintln!("  {count} not checked: {reason}");
    }
    for failure in tally.failures.iter().take(400) {
        eprintln!("  FAIL {failure}");
    }
}

/// Checks every row of `file`; `limited` is the number of rows left out as
/// documented limitations (docs/formats.md), pinned so that a change cannot quietly
/// move rows out of the check.
fn run(name: &str, file: &str, dialect: Dialect, limited: usize) {
    let tally = check(file, dialect);
    report(name, &tally);
    assert!(tally.rows > 500, "{file}: only {} rows", tally.rows);
    assert!(tally.failures.is_empty(), "{name}: {} failures (listed above)", tally.failures.len());
    let left_out: usize = tally.limited.values().sum();
    assert_eq!(left_out, limited, "{name}: rows left out as limitations (listed above; update docs/formats.md too)");
}

#[test]
fn go_fmt() {
    run("Go", "go.jsonl", Dialect::Go, 101);
}

#[test]
fn c_printf() {
    run("C", "c.jsonl", Dialect::Printf, 32);
}

#[test]
fn python_percent() {
    run("Python", "python.jsonl", Dialect::Python, 23);
}
