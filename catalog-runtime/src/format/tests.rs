//! Whole-format tests: rendering tables, regex round trips, the corpus.

use std::borrow::Cow;

use super::template::QUOTED;

use super::*;
use crate::model::Value;
use crate::test_support as support;

fn int(v: i64) -> Value<'static> {
    Value::Int(v)
}
fn float(v: f64) -> Value<'static> {
    Value::Float(v)
}
fn text(s: &'static str) -> Value<'static> {
    Value::Str(Cow::Borrowed(s))
}

fn render_all(template: &Template, values: &[Value<'_>]) -> String {
    let mut out = String::new();
    render_template(&mut out, template, values).unwrap();
    out
}

/// Captures of `^(?s:regex)$` on `message`, one per value piece.
fn captures<'m>(template: &Template, message: &'m str) -> Option<Vec<&'m str>> {
    let regex = ::regex::Regex::new(&format!("^(?s:{})$", template.regex)).unwrap();
    let captures = regex.captures(message)?;
    assert_eq!(captures.len() - 1, template.pieces.iter().filter(|p| matches!(p, Piece::Value { .. })).count());
    Some(captures.iter().skip(1).map(|c| c.map_or("", |c| c.as_str())).collect())
}

/// The kind to read a value back as: the value's own kind for numbers, the
/// field's for strings (`%v` of a float is text, but holds a float's text).
fn kind_of(value: &Value<'_>, field: ValueKind) -> ValueKind {
    match value {
        Value::Int(_) | Value::Uint(_) | Value::BigInt(_) => ValueKind::Int,
        Value::Float(_) | Value::Float32(_) => ValueKind::Float,
        Value::Bool(_) => ValueKind::Bool,
        Value::Str(_) | Value::Bytes(_) => field,
    }
}

fn same(a: &Value<'_>, b: &Value<'_>) -> bool {
    match (a, b) {
        (Value::Float(a), Value::Float(b)) => a.to_bits() == b.to_bits() || (a.is_nan() && b.is_nan()),
        // C's unsigned conversions and Go's `%U` write a negative value's
        // bits, which read back as the unsigned value.
        (Value::Uint(a), Value::Int(b)) => *a as i64 == *b,
        _ => a == b,
    }
}

/// Renders `values` with `format`, compares with `expected`, checks that the
/// regex matches it, and (with `round_trip`) that each capture reads back as
/// its value.
fn check_with(dialect: Dialect, format: &str, values: &[Value<'_>], expected: &str, round_trip: bool) {
    let template = compile(format, dialect).unwrap_or_else(|e| panic!("{format:?}: {e}"));
    let rendered = render_all(&template, values);
    assert_eq!(rendered, expected, "{dialect:?} {format:?} {values:?}");
    let caught = captures(&template, &rendered)
        .unwrap_or_else(|| panic!("{format:?}: regex {} does not match {rendered:?}", template.regex));
    if !round_trip {
        return;
    }
    let specs = template.pieces.iter().filter_map(|piece| match piece {
        Piece::Value { field, spec } => Some((usize::from(*field), spec)),
        Piece::Literal(_) => None,
    });
    for ((field, spec), text) in specs.zip(caught) {
        let value = &values[field];
        let kind = kind_of(value, template.fields[field].kind);
        let parsed = parse_value(kind, spec, dialect, text);
        assert!(
            parsed.as_ref().is_some_and(|parsed| same(parsed, value)),
            "{format:?}: {text:?} read back as {parsed:?}, not {value:?}"
        );
    }
}

fn check(dialect: Dialect, format: &str, values: &[Value<'_>], expected: &str) {
    check_with(dialect, format, values, expected, true);
}

/// Lossy renderings (precision, hex-encoding): no round trip.
fn check_render(dialect: Dialect, format: &str, values: &[Value<'_>], expected: &str) {
    check_with(dialect, format, values, expected, false);
}

/// Values of another kind than the verb expects: written plainly, and the
/// regex need not match.
fn render_only(dialect: Dialect, format: &str, values: &[Value<'_>], expected: &str) {
    let template = compile(format, dialect).unwrap();
    assert_eq!(render_all(&template, values), expected, "{dialect:?} {format:?} {values:?}");
}

#[test]
fn go_integers() {
    let go = |format, v, expected| check(Dialect::Go, format, &[int(v)], expected);
    go("%d", 12345, "12345");
    go("%d", -12345, "-12345");
    go("%+d", 12345, "+12345");
    go("%+d", -12345, "-12345");
    go("% d", 12345, " 12345");
    go("%08d", -12, "-0000012");
    go("%+08d", 12, "+0000012");
    go("%-8d|", 12, "12      |");
    go("%-08d|", 12, "12      |");
    go("%8d|", -12, "     -12|");
    go("%.3d", 7, "007");
    go("%8.3d", -7, "    -007");
    go("%08.3d", 7, "     007");
    go("%.0d", 0, "");
    go("%5.0d|", 0, "     |");
    go("%d", i64::MIN, "-9223372036854775808");
    go("%b", 5, "101");
    go("%#b", 5, "0b101");
    go("%b", -5, "-101");
    go("%o", 8, "10");
    go("%#o", 8, "010");
    go("%#o", 0, "0");
    go("%O", 8, "0o10");
    go("%O", -8, "-0o10");
    go("%#O", 8, "0o010");
    go("%c", 'x' as i64, "x");
    go("%3c|", 'x' as i64, "  x|");
    go("%-3c|", '☺' as i64, "☺  |");
    go("%03c", 'x' as i64, "00x");
    go("%U", 0x263a, "U+263A");
    go("%#U", 0x263a, "U+263A '☺'");
    go("%#U", 0xa, "U+000A");
    go("%.6U", 0x263a, "U+00263A");
    go("%08U", 1, "  U+0001");
    go("%U", -1, "U+FFFFFFFFFFFFFFFF");
    // From Go's own fmt tests.
    go("%.0c", '⌘' as i64, "⌘");
    go("%#.2U", 'x' as i64, "U+0078 'x'");
    go("%# U", 'x' as i64, "U+0078 'x'");
    go("%#14.6U", '⌘' as i64, "  U+002318 '⌘'");
    go("%#-014.6U", '⌘' as i64, "U+002318 '⌘'  ");
    go("%20.8d", -1234, "           -00001234");
    go("%020.8d", -1234, "           -00001234");
    go("%-20.8d", 1234, "00001234            ");
    go("%-#20.8o", 0o1234, "00001234            ");
    go("%06.0d", 0, "      ");
    go("%#b", -6, "-0b110");
    let lossy = |format, v, expected| check_render(Dialect::Go, format, &[int(v)], expected);
    lossy("%c", -1, "\u{fffd}");
    lossy("%c", 0xd800, "\u{fffd}");
    // x, X and v are text verbs, but an integer is written as Go writes it.
    lossy("%x", 255, "ff");
    lossy("%X", 0xabc, "ABC");
    lossy("%#x", -255, "-0xff");
    lossy("%#08x", 255, "0x000000ff");
    lossy("%-#20.8x", 0x1234abc, "0x01234abc          ");
    lossy("%#X", 0, "0X0");
    lossy("% x", 255, " ff");
    lossy("%v", -7, "-7");
    lossy("%+v", 7, "7");
    lossy("% 4v", 7, "   7");
    lossy("%05v", -7, "-0007");
    lossy("%s", 7, "7");
    // `%q` of an integer is a quoted rune.
    render_only(Dialect::Go, "%5t|%e|%q", &[int(7), int(8), int(9)], "    7|8|'\\t'");
}

#[test]
fn go_floats() {
    let go = |format, v, expected| check(Dialect::Go, format, &[float(v)], expected);
    go("%v", 1e21, "1e+21");
    go("%v", 100000.0, "100000");
    go("%v", 1e6, "1e+06");
    go("%v", 1234567.0, "1.234567e+06");
    go("%v", 123456.789, "123456.789");
    go("%v", 0.1, "0.1");
    go("%v", 1.0, "1");
    go("%v", -0.0, "-0");
    go("%v", 0.0001, "0.0001");
    go("%v", 0.00001, "1e-05");
    go("%v", 5e-324, "5e-324");
    go("%v", f64::MAX, "1.7976931348623157e+308");
    go("%+v", 1.5, "1.5");
    go("%#v", 1.0, "1");
    go("%e", 1e6, "1.000000e+06");
    go("%e", 0.0, "0.000000e+00");
    go("%e", 1e-300, "1.000000e-300");
    go("%E", 1.5, "1.500000E+00");
    go("%+.3e", 0.0, "+0.000e+00");
    go("%#.0e", 1.0, "1.e+00");
    go("%f", 1234.5678, "1234.567800");
    go("%.3f", 1234.568, "1234.568");
    go("%.0f", 2.0, "2");
    go("%F", 1.5, "1.500000");
    go("%.3f", -0.0, "-0.000");
    go("%#.0f", 1.0, "1.");
    go("%g", 1234.5678, "1234.5678");
    go("%g", 1e6, "1e+06");
    go("%G", 1e-10, "1E-10");
    go("%.3g", 100.0, "100");
    go("%.3g", 1.0, "1");
    go("%.3g", 0.000123, "0.000123");
    go("%#g", 1.0, "1.00000");
    go("%#g", 1e6, "1.00000e+06");
    go("%#g", 0.0, "0.00000");
    go("%#.4g", 1.0, "1.000");
    go("%08.2f", -1.5, "-0001.50");
    go("%08.2f", 1.5, "00001.50");
    go("%+08.2f", 1.5, "+0001.50");
    go("% 08.2f", 1.5, " 0001.50");
    go("%-8.2f|", 1.5, "1.50    |");
    go("% f", 1.0, " 1.000000");
    go("%+f", 1.0, "+1.000000");
    go("%v", f64::INFINITY, "+Inf");
    go("%v", f64::NEG_INFINITY, "-Inf");
    go("%f", f64::NAN, "NaN");
    go("%+f", f64::NAN, "+NaN");
    go("% f", f64::NAN, " NaN");
    go("%010f", f64::INFINITY, "      +Inf");
    go("%-10f|", f64::NEG_INFINITY, "-Inf      |");
    // From Go's own fmt tests.
    go("%+.3g", 0.0, "+0");
    go("% .3g", 1.0, " 1");
    go("%+07.2f", -1.0, "-001.00");
    go("%-07.2f", -1.0, "-1.00  ");
    go("%+-07.2f", 1.0, "+1.00  ");
    go("%#g", 1e-323, "1.00000e-323");
    go("%#g", 123456.0, "123456.");
    go("%#g", 1234567.0, "1.234567e+06");
    go("%#.4g", 0.012, "0.01200");
    go("%#.4g", 0.0, "0.000");
    go("%#9.4g", 1.0, "    1.000");
    go("%g", 1.23456789e20, "1.23456789e+20");
    go("% 20F", f64::INFINITY, "                 Inf");
    go("% -20g", f64::NAN, " NaN                ");
    go("%+020e", f64::INFINITY, "                +Inf");
    go("%-020E", f64::NAN, "NaN                 ");
    let lossy = |format, v, expected| check_render(Dialect::Go, format, &[float(v)], expected);
    lossy("%e", 1234.5678, "1.234568e+03");
    lossy("%.3e", 1234.5678, "1.235e+03");
    lossy("%.0e", 15.0, "2e+01");
    lossy("%E", 1234.5678, "1.234568E+03");
    lossy("%.3f", 1234.5678, "1234.568");
    lossy("%.0f", 2.5, "2"); // ties to even
    lossy("%.0f", 3.5, "4");
    lossy("%.2f", 0.125, "0.12");
    lossy("%#.0g", 1100000.0, "1.e+06");
    lossy("%20f", 12345678901.234568, "  12345678901.234568");
    lossy("%f", -1e-9, "-0.000000");
    lossy("%f", 1234.5678e-8, "0.000012");
    lossy("%.3g", 1234.5678, "1.23e+03");
    lossy("%.0g", 123.0, "1e+02");
    lossy("%.3g", 0.0001234, "0.000123");
    render_only(Dialect::Go, "%d|%5t|%s", &[float(1.5), float(2.5), float(-0.5)], "1.5|  2.5|-0.5");
}

#[test]
fn go_bools_and_strings() {
    let go = |format, values: &[Value<'_>], expected| check(Dialect::Go, format, values, expected);
    go("%t", &[Value::Bool(true)], "true");
    go("%6t|", &[Value::Bool(false)], " false|");
    go("%-6t|", &[Value::Bool(true)], "true  |");
    go("%06t", &[Value::Bool(true)], "00true");
    go("%q", &[text("abc")], r#""abc""#);
    go("%q", &[text("\"\n")], r#""\"\n""#);
    go("%q", &[text("\x07\x7f")], r#""\a\x7f""#);
    go("%q", &[text("\u{80}")], r#""\u0080""#);
    go("%q", &[text("😀 ☺")], r#""😀 ☺""#);
    go("%+q", &[text("☺")], r#""\u263a""#);
    go("%+q", &[text("\u{1F600}")], r#""\U0001f600""#);
    go("%#q", &[text("abc")], "`abc`");
    go("%#q", &[text("a`b")], r#""a`b""#);
    go("%#+q", &[text("☺")], "`☺`");
    go("%#q", &[text("a\tb")], "`a\tb`");
    go("%#q", &[text("a\nb")], r#""a\nb""#);
    go("%08q", &[text("abc")], r#"000"abc""#);
    go("%-8q|", &[text("abc")], r#""abc"   |"#);
    go("%s", &[text("abc")], "abc");
    go("%5s", &[text("abc")], "  abc");
    go("%-5s|", &[text("abc")], "abc  |");
    // Zero padding and the text's own zeros look alike: not read back.
    check_with(Dialect::Go, "%05s", &[text("abc")], "00abc", false);
    go("%.5s", &[text("abc")], "abc");
    go(
        "%v|%w|%T|%p",
        &[text("x y"), text("EOF"), text("*errors.errorString"), text("0xc000010000")],
        "x y|EOF|*errors.errorString|0xc000010000",
    );
    // `%#v` of a string is Go-quoted; the Go syntax of another value (a
    // struct) reads back as its text, which renders quoted.
    go("%+v %#v", &[text("{A:1}"), text("a \"b\"")], r#"{A:1} "a \"b\"""#);
    check_with(Dialect::Go, "%#v", &[text("main.T{A:1}")], "\"main.T{A:1}\"", true);
    // `%x` of a string is the hex of its bytes (also when they are hex digits).
    go("%x", &[text("deadbeef")], "6465616462656566");
    go("%X", &[text("\u{de}\u{ad}")], "C39EC2AD");
    go("% x", &[text("ab")], "61 62");
    go("%#x", &[Value::Bytes(Cow::Borrowed(b"\xff"))], "0xff");
    go("%q", &[Value::Bytes(Cow::Borrowed(b"\xc3(ab"))], r#""\xc3(ab""#);
    let lossy = |format, values: &[Value<'_>], expected| check_render(Dialect::Go, format, values, expected);
    lossy("%.5q", &[text("abcdefghijklmnopqrstuvwxyz")], r#""abcde""#);
    lossy("%10.1q", &[text("日本語日本語")], r#"       "日""#);
    lossy("%.2s", &[text("日本語")], "日本");
    // Found by the format_compiler fuzz target: text cut to nothing wrote
    // a message its own regex did not match.
    lossy("[%.0s|%-*.v]", &[text("abc"), int(4), text("de")], "[|    ]");
    lossy("%.1q", &[text("日本語")], r#""日""#);
    lossy("%.1x", &[text("日本語")], "e6");
    go("%q|%#q", &[text("\u{10ffff}"), text("\u{10ffff}")], "\"\\U0010ffff\"|`\u{10ffff}`");
    lossy("%x", &[text("hello")], "68656c6c6f");
    lossy("%X", &[text("hello")], "68656C6C6F");
    lossy("% x", &[text("hello")], "68 65 6c 6c 6f");
    lossy("%#x", &[text("hello")], "0x68656c6c6f");
    lossy("% #x", &[text("hi")], "0x68 0x69");
    lossy("%.2x", &[text("hello")], "6865");
    render_only(Dialect::Go, "%d|%t|%e|%3c", &[text("x"), text("y"), text("z"), text("w")], "x|y|z|  w");
    render_only(Dialect::Go, "%v %s %q", &[Value::Bool(true), Value::Bool(false), int(5)], "true false '\\x05'");
}

#[test]
fn go_messages() {
    check(Dialect::Go, "100%% sure: %d%%", &[int(5)], "100% sure: 5%");
    check(Dialect::Go, "%-5%|%d", &[int(5)], "%|5");
    // Values are indexed by field (in order of first use), not by argument.
    check(Dialect::Go, "%[2]d %[1]d", &[int(2), int(1)], "2 1");
    check(Dialect::Go, "%[2]d %d %[1]d", &[int(2), int(3), int(1)], "2 3 1");
    check(Dialect::Go, "%[1]s=%[1]q", &[text("x")], r#"x="x""#);
    // The width of an explicit index (`%[2]*`) is the argument it names, as
    // in Go: fmt.Sprintf("%[2]*[1]d|%d", 8, 7) == "      8|7" (the fields
    // are arg1, the width, then arg0).
    check(Dialect::Go, "%[2]*[1]d|%d", &[int(7), int(8)], "      8|7");
    // A `*` width is a field, read back from the padded text.
    check(Dialect::Go, "%*d|", &[int(3), int(7)], "  7|");
    check(Dialect::Go, "%-*d|", &[int(3), int(7)], "7  |");

    let template = compile("unable to persist session %q (seq=%v): %v", Dialect::Go).unwrap();
    let fields: Vec<(&str, ValueKind, u16)> =
        template.fields.iter().map(|f| (f.name.as_ref(), f.kind, f.arg)).collect();
    assert_eq!(fields, [("arg0", ValueKind::Quoted, 0), ("arg1", ValueKind::Text, 1), ("arg2", ValueKind::Text, 2)]);
    assert_eq!(template.regex, format!(r"unable to persist session ({QUOTED}) \(seq=(.*?)\): (.*?)"));
    assert_eq!(template.literal_len, ("unable to persist session  (seq=): ".len()) as u32);

    let template = compile("%[2]d %[1]d %d %[1]q", Dialect::Go).unwrap();
    let fields: Vec<(&str, ValueKind, u16)> =
        template.fields.iter().map(|f| (f.name.as_ref(), f.kind, f.arg)).collect();
    // arg0 is used with %d and %q: its kind falls back to text.
    assert_eq!(fields, [("arg1", ValueKind::Int, 1), ("arg0", ValueKind::Text, 0)]);
    assert_eq!(template.pieces.len(), 7);

    let template = compile("%[2]*[1]d", Dialect::Go).unwrap();
    let field = |arg: u16| Field { name: format!("arg{arg}").into(), kind: ValueKind::Int, arg };
    assert_eq!(template.fields.as_ref(), [field(1), field(0)]);
    // A `*` width's padding is captured: the width is read back from it.
    assert_eq!(template.regex, r"( *(?:[-+ ]?[0-9]+) *)");

    let template = compile("%-5d|%5s|%05s|%05d|%-5q", Dialect::Go).unwrap();
    assert_eq!(template.regex, format!(r#"([-+ ]?[0-9]+) *\| *(.*?)\| *(.*?)\| *([-+ ]?[0-9]+)\|({QUOTED}) *"#));
}

#[test]
fn plain_messages() {
    let message = "require %HOMEDRIVE% and %HOMEPATH% (50% off) [x]";
    let template = compile(message, Dialect::Plain).unwrap();
    assert_eq!(template.pieces.as_ref(), [Piece::Literal(message.into())]);
    assert!(template.fields.is_empty());
    assert_eq!(template.literal_len, message.len() as u32);
    check(Dialect::Plain, message, &[], message);
    assert!(compile("", Dialect::Plain).unwrap().pieces.is_empty());
}

#[test]
fn c_printf() {
    let c = |format, values: &[Value<'_>], expected| check(Dialect::Printf, format, values, expected);
    c(
        "%d|%i|%ld|%lld|%hhd|%hd|%zd|%jd|%td|%qd",
        &[int(1), int(2), int(3), int(4), int(5), int(6), int(7), int(8), int(9), int(10)],
        "1|2|3|4|5|6|7|8|9|10",
    );
    c("%-5d|", &[int(42)], "42   |");
    c("%05d", &[int(-42)], "-0042");
    c("%+d % d", &[int(5), int(5)], "+5  5");
    c("%.0d|%5.0d|", &[int(0), int(0)], "|     |");
    c("%08.3d", &[int(7)], "     007");
    c("%'d", &[int(1234567)], "1234567");
    c("%u|%lu|%+u|% u", &[int(-1), int(5), int(5), int(5)], "18446744073709551615|5|5|5");
    c("%o|%#o|%#o|%o", &[int(8), int(8), int(0), int(-1)], "10|010|0|1777777777777777777777");
    c("%#08o", &[int(8)], "00000010");
    c("%c|%5c|%-3c|%05c", &[int(65), int(66), int(67), int(68)], "A|    B|C  |    D");
    c(
        "%s|%.3s|%5s|%-5s|%05s|%p",
        &[text("abc"), text("abc"), text("ab"), text("ab"), text("ab"), text("0x7ffc")],
        "abc|abc|   ab|ab   |   ab|0x7ffc",
    );
    c("%x|%X|%#x", &[text("ff"), text("FF"), text("0xff")], "ff|FF|0xff");
    // A `*` width is a field of its own.
    check_render(Dialect::Printf, "[%.0s|%-*.s]", &[text("abc"), int(5), text("de")], "[|     ]");
    check_render(Dialect::Python, "[%.0r|%-*.a]", &[text("abc"), int(3), text("de")], "[|   ]");
    c(
        "%e|%E|%f|%F|%.2f|%5.2f|%+.1f",
        &[float(12345.5), float(0.5), float(1.0), float(2.5), float(2.25), float(2.25), float(2.0)],
        "1.234550e+04|5.000000E-01|1.000000|2.500000|2.25| 2.25|+2.0",
    );
    c(
        "%g|%g|%g|%G|%g|%.3g|%#.3g|%#g|%.0g|%#g",
        &[
            float(0.0001),
            float(1e-5),
            float(100000.0),
            float(1e-10),
            float(1e6),
            float(100.0),
            float(100.0),
            float(1.0),
            float(0.0),
            float(0.0),
        ],
        "0.0001|1e-05|100000|1E-10|1e+06|100|100.|1.00000|0|0.00000",
    );
    c(
        "%#.0e|%#.0f|%010.3f|%-8.1f|",
        &[float(1.0), float(1.0), float(-1.5), float(1.5)],
        "1.e+00|1.|-00001.500|1.5     |",
    );
    c(
        "%a|%a|%A|%a|%a|%a|%#a",
        &[float(1.0), float(0.5), float(3.0), float(0.0), float(5e-324), float(-0.1), float(1.0)],
        "0x1p+0|0x1p-1|0X1.8P+1|0x0p+0|0x0.0000000000001p-1022|-0x1.999999999999ap-4|0x1.p+0",
    );
    c("%010a|%La", &[float(1.0), float(-2.0)], "0x00001p+0|-0x1p+1");
    c(
        "%f|%F|%e|%10f|%-5f|%+f",
        &[
            float(f64::INFINITY),
            float(f64::INFINITY),
            float(f64::NEG_INFINITY),
            float(f64::INFINITY),
            float(f64::NAN),
            float(f64::INFINITY),
        ],
        "inf|INF|-inf|       inf|nan  |+inf",
    );
    c("ab%ncd%d|100%%", &[int(5)], "abcd5|100%");
    c("%*d|%.*f|%-*s|", &[int(3), int(1), int(2), float(1.5), int(2), text("x")], "  1|1.50|x |");
    let lossy = |format, values: &[Value<'_>], expected| check_render(Dialect::Printf, format, values, expected);
    lossy(
        "%x|%X|%#x|%#X|%#08x|%x",
        &[int(255), int(255), int(0), int(255), int(255), int(-1)],
        "ff|FF|0|0XFF|0x0000ff|ffffffffffffffff",
    );
    lossy(
        "%g|%.2a|%.0a|%.1a",
        &[float(123456789.0), float(1.0 / 3.0), float(1.5), float(1.96875)],
        "1.23457e+08|0x1.55p-2|0x2p+0|0x2.0p+0",
    );
    lossy("%x", &[text("hi")], "6869");
    render_only(Dialect::Printf, "%d|%f|%s|%c", &[text("x"), text("y"), int(3), float(1.5)], "x|y|3|1.5");

    let template = compile("%d %s %c %x %f %a %p", Dialect::Printf).unwrap();
    let kinds: Vec<ValueKind> = template.fields.iter().map(|f| f.kind).collect();
    use ValueKind::{Float, Int, Text};
    assert_eq!(kinds, [Int, Text, Int, Text, Float, Float, Text]);
}

#[test]
fn python_percent() {
    let py = |format, values: &[Value<'_>], expected| check(Dialect::Python, format, values, expected);
    py("%(name)s is %(age)d; %(name)r", &[text("bob"), int(42)], "bob is 42; 'bob'");
    py("%(age)05d", &[int(42)], "00042");
    py("%r|%a|%s|%5s|%05s", &[text("x"), text("é"), text("x"), text("x"), text("x")], "'x'|'\\xe9'|x|    x|    x");
    py(
        "%#o|%#x|%.0d|%05.3d|%+x|%u|%#05x|%c",
        &[int(8), int(0), int(0), int(5), int(255), int(-1), int(255), int(65)],
        "0o10|0x0|0|00005|+ff|-1|0x0ff|A",
    );
    py("%F|%g|%ld", &[float(f64::INFINITY), float(1e-5), int(3)], "INF|1e-05|3");
    check_render(Dialect::Python, "%x|%#x|%X", &[int(-255), int(-255), int(255)], "-ff|-0xff|FF");
    let template = compile("%(a)s %(b)d %(a)s", Dialect::Python).unwrap();
    let fields: Vec<(&str, u16)> = template.fields.iter().map(|f| (f.name.as_ref(), f.arg)).collect();
    assert_eq!(fields, [("a", 0), ("b", 1)]);
}

#[test]
fn missing_values_are_errors() {
    let template = compile("%d and %d", Dialect::Go).unwrap();
    let mut out = String::new();
    assert!(render_template(&mut out, &template, &[int(1)]).is_err());
}

mod round_trip {
    use proptest::prelude::*;
    use proptest::sample::{select, subsequence};

    use super::*;

    fn flags(allowed: &'static str) -> impl Strategy<Value = String> {
        let chars: Vec<char> = allowed.chars().collect();
        let len = chars.len();
        subsequence(chars, 0..=len).prop_shuffle().prop_map(|flags| flags.into_iter().collect())
    }

    fn count(max: u16) -> impl Strategy<Value = String> {
        prop_oneof![Just(String::new()), (0..=max).prop_map(|n| n.to_string())]
    }

    fn precision(range: std::ops::RangeInclusive<u16>) -> impl Strategy<Value = String> {
        prop_oneof![Just(String::new()), range.prop_map(|n| format!(".{n}"))]
    }

    type Case = (Dialect, String, Value<'static>);

    fn case(
        dialect: Dialect,
        flags: impl Strategy<Value = String>,
        width: impl Strategy<Value = String>,
        precision: impl Strategy<Value = String>,
        verb: impl Strategy<Value = &'static str>,
        value: impl Strategy<Value = Value<'static>>,
    ) -> impl Strategy<Value = Case> {
        (flags, width, precision, verb, value).prop_map(move |(flags, width, precision, verb, value)| {
            (dialect, format!("%{flags}{width}{precision}{verb}"), value)
        })
    }

    /// A float with at most `digits` significant digits and a decimal exponent near `exp`.
    fn decimal(digits: u32, exp: std::ops::Range<i32>) -> impl Strategy<Value = Value<'static>> {
        let max = 10i64.pow(digits) - 1;
        (-max..=max, exp).prop_map(|(k, e)| Value::Float(format!("{k}e{e}").parse().unwrap()))
    }

    fn any_float() -> impl Strategy<Value = Value<'static>> {
        prop_oneof![
            8 => any::<f64>().prop_filter("finite", |v| v.is_finite()).prop_map(Value::Float),
            1 => select(vec![f64::INFINITY, f64::NEG_INFINITY, f64::NAN, -0.0, 0.0]).prop_map(Value::Float),
        ]
    }

    fn any_int() -> impl Strategy<Value = Value<'static>> {
        prop_oneof![any::<i64>(), -1000i64..1000].prop_map(Value::Int)
    }

    /// Non-empty text without newlines or surrounding spaces (padding eats them).
    fn plain_text() -> impl Strategy<Value = Value<'static>> {
        "[^\n ]([^\n]{0,10}[^\n ])?".prop_map(|s| Value::Str(Cow::Owned(s)))
    }

    fn hex_text(upper: bool, spaced: bool) -> impl Strategy<Value = Value<'static>> {
        proptest::collection::vec(any::<u8>(), 1..8).prop_map(move |bytes| {
            let hex: Vec<String> =
                bytes.iter().map(|b| if upper { format!("{b:02X}") } else { format!("{b:02x}") }).collect();
            Value::Str(Cow::Owned(hex.join(if spaced { " " } else { "" })))
        })
    }

    fn go_cases() -> impl Strategy<Value = Case> {
        let go = Dialect::Go;
        prop_oneof![
            case(go, flags("+- #0"), count(25), precision(0..=25), select(vec!["d", "b", "o", "O", "U"]), any_int()),
            case(
                go,
                flags("-0"),
                count(5),
                Just(String::new()),
                Just("c"),
                any::<char>()
                    .prop_filter("no newline", |&c| c != '\n')
                    .prop_map(|c| Value::Int(i64::from(u32::from(c))))
            ),
            case(go, flags("+- #0"), count(30), Just(String::new()), select(vec!["v", "g", "G"]), any_float()),
            (0..=6i32, flags("+- #0"), count(30), select(vec!["f", "F"])).prop_flat_map(|(n, flags, width, verb)| {
                decimal(15, -n..-n + 1).prop_map(move |v| (Dialect::Go, format!("%{flags}{width}.{n}{verb}"), v))
            }),
            (0..=6u32, flags("+- #0"), count(30), select(vec!["e", "E"]), -300..300i32).prop_flat_map(
                |(n, flags, width, verb, e)| {
                    decimal(n + 1, e..e + 1).prop_map(move |v| (Dialect::Go, format!("%{flags}{width}.{n}{verb}"), v))
                }
            ),
            (1..=6u32, flags("+- #0"), count(30), select(vec!["g", "G"]), -300..300i32).prop_flat_map(
                |(n, flags, width, verb, e)| {
                    decimal(n, e..e + 1).prop_map(move |v| (Dialect::Go, format!("%{flags}{width}.{n}{verb}"), v))
                }
            ),
            case(go, flags("-0"), count(8), Just(String::new()), Just("t"), any::<bool>().prop_map(Value::Bool)),
            case(
                go,
                flags("+-#0"),
                count(20),
                Just(String::new()),
                Just("q"),
                any::<String>().prop_map(|s| Value::Str(Cow::Owned(s)))
            ),
            case(
                go,
                flags("-+# "),
                count(20),
                prop_oneof![Just(String::new()), Just(".20".to_owned())],
                select(vec!["s", "v", "w", "T", "p"]),
                plain_text()
            ),
            (flags("-#"), count(20), any::<bool>(), any::<bool>()).prop_flat_map(|(flags, width, upper, spaced)| {
                let verb = if upper { 'X' } else { 'x' };
                let space = if spaced { " " } else { "" };
                hex_text(upper, spaced).prop_map(move |v| (Dialect::Go, format!("%{space}{flags}{width}{verb}"), v))
            }),
        ]
    }

    fn c_cases() -> impl Strategy<Value = Case> {
        let dialect = select(vec![Dialect::Printf, Dialect::Python]);
        prop_oneof![
            (
                dialect.clone(),
                flags("+- #0"),
                count(25),
                precision(0..=25),
                select(vec!["d", "i", "u", "o", "ld", "hhu"]),
                any_int()
            )
                .prop_map(|(d, flags, width, precision, verb, v)| (
                    d,
                    format!("%{flags}{width}{precision}{verb}"),
                    v
                )),
            (dialect.clone(), flags("-0"), count(5), any::<char>().prop_filter("no newline", |&c| c != '\n'))
                .prop_map(|(d, flags, width, c)| (d, format!("%{flags}{width}c"), Value::Int(i64::from(u32::from(c))))),
            (dialect.clone(), 0..=6i32, flags("+- #0"), count(30), select(vec!["f", "F"])).prop_flat_map(
                |(d, n, flags, width, verb)| {
                    decimal(15, -n..-n + 1).prop_map(move |v| (d, format!("%{flags}{width}.{n}{verb}"), v))
                }
            ),
            (dialect.clone(), 0..=6u32, flags("+- #0"), count(30), select(vec!["e", "E"]), -300..300i32).prop_flat_map(
                |(d, n, flags, width, verb, e)| {
                    decimal(n + 1, e..e + 1).prop_map(move |v| (d, format!("%{flags}{width}.{n}{verb}"), v))
                }
            ),
            (dialect.clone(), 1..=6u32, flags("+- #0"), count(30), select(vec!["g", "G"]), -300..300i32).prop_flat_map(
                |(d, n, flags, width, verb, e)| {
                    decimal(n, e..e + 1).prop_map(move |v| (d, format!("%{flags}{width}.{n}{verb}"), v))
                }
            ),
            case(Dialect::Printf, flags("+- #0"), count(30), Just(String::new()), select(vec!["a", "A"]), any_float()),
            (dialect.clone(), flags("-0 +#"), count(20), select(vec!["s", "p"]), plain_text())
                .prop_map(|(d, flags, width, verb, v)| (d, format!("%{flags}{width}{verb}"), v)),
            case(Dialect::Python, flags("-0"), count(20), Just(String::new()), select(vec!["r", "a"]), plain_text()),
            (dialect, flags("-#"), count(20), any::<bool>()).prop_flat_map(|(d, flags, width, upper)| {
                let verb = if upper { 'X' } else { 'x' };
                hex_text(upper, false).prop_map(move |v| (d, format!("%{flags}{width}{verb}"), v))
            }),
        ]
    }

    fn round_trip((dialect, spec, value): Case) -> Result<(), TestCaseError> {
        let format = format!("<{spec}>");
        let template = compile(&format, dialect).map_err(|e| TestCaseError::fail(e.to_string()))?;
        let rendered = render_all(&template, std::slice::from_ref(&value));
        let caught = captures(&template, &rendered);
        prop_assert!(caught.is_some(), "{:?} {} does not match {:?}", template.regex, format, rendered);
        let Some(Piece::Value { spec, .. }) = template.pieces.get(1) else { panic!("{format}: no value") };
        let kind = kind_of(&value, template.fields[0].kind);
        let parsed = parse_value(kind, spec, dialect, caught.unwrap()[0]);
        prop_assert!(
            parsed.as_ref().is_some_and(|parsed| same(parsed, &value)),
            "{:?} {}: {:?} read back as {:?}",
            dialect,
            format,
            rendered,
            parsed
        );
        Ok(())
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]

        #[test]
        fn go(case in go_cases()) {
            round_trip(case)?;
        }

        #[test]
        fn c_and_python(case in c_cases()) {
            round_trip(case)?;
        }
    }
}

/// Every `errorMessage` of the nats-server corpus compiles, and its regex
/// matches the message rendered with sample values.
#[test]
fn nats_server_corpus() {
    let Some(dir) = support::corpus("nats-server", "nats_server_corpus") else {
        return;
    };
    let entries = std::fs::read_dir(&dir).expect("the corpus directory lists");
    let mut count = 0;
    for entry in entries {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|ext| ext != "json") {
            continue;
        }
        let json: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        let record = &json["record"];
        let message = record["errorMessage"].as_str().unwrap();
        let source = record["sourceCode"].as_str().unwrap_or("");
        let dialect = if source.contains("errors.New(") { Dialect::Plain } else { Dialect::Go };
        let template = compile(message, dialect).unwrap_or_else(|e| panic!("{}: {message:?}: {e}", path.display()));
        let values: Vec<Value<'_>> = template
            .fields
            .iter()
            .map(|field| match field.kind {
                ValueKind::Int => int(42),
                ValueKind::Float => float(1.5),
                ValueKind::Bool => Value::Bool(true),
                ValueKind::Quoted => text("a \"quoted\"\tvalue"),
                ValueKind::Text => text("some text"),
            })
            .collect();
        let rendered = render_all(&template, &values);
        assert!(captures(&template, &rendered).is_some(), "{message:?}: {} vs {rendered:?}", template.regex);
        if let Some(pattern) = record["messagePattern"].as_str() {
            compile_pattern(pattern).unwrap_or_else(|e| panic!("{pattern:?}: {e}"));
        }
        count += 1;
    }
    assert!(count > 2000, "{count} records");
}

/// A text field that is also another placeholder's `*` count (Go's
/// `%[2]*[1]d %f`, where the float takes the width's argument) gets the
/// sample `7`, which both can write (found by fuzzing: `"sample"` did not
/// match the float's regex).
#[test]
fn sample_of_a_star_count_reused_by_a_value() {
    let template = compile("%[2]*[1]d %-08.3f", Dialect::Go).unwrap();
    let samples = template.sample_values();
    let message = template.render(&samples).unwrap();
    assert!(captures(&template, &message).is_some(), "{:?} does not match {message:?}", template.regex);
}

#[test]
fn a_zero_padded_character_is_padded_as_its_formatter_pads_it() {
    // Python's `'{:03c}'.format(65)` is `00A`; Java refuses `%03c`, which
    // is read as `%3c` (spaces).
    for (format, dialect, rendered) in
        [("<{:03c}>", Dialect::PythonBrace, "<00A>"), ("<%03c>", Dialect::JavaFormat, "<  A>")]
    {
        let template = compile(format, dialect).unwrap();
        assert_eq!(render_all(&template, &[int(65)]), rendered, "{format}");
        assert_eq!(captures(&template, rendered).as_deref(), Some(&["A"][..]), "{format}");
    }
}
