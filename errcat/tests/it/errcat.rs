//! The `errcat` command, run as a user runs it: every subcommand on the example
//! log and the seed dataset, bad inputs, closed pipes, and (when present) the
//! nats-server corpus of `../shared`.

use std::collections::HashMap;
use std::fs;
use std::io::{BufRead, BufReader, Read, Write};
use std::path::Path;
use std::process::Stdio;

use assert_cmd::Command;
use flate2::write::GzEncoder;
use serde_json::{json, Value};

/// The repository's root: errcat runs there, on its files (the examples,
/// the seed dataset, the test data).
const ROOT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/..");
/// The example log, relative to [`ROOT`].
const LOG: &str = "examples/nats-server.log";
/// The seed dataset the embedded catalog is built from.
const DATA: &str = "data/nats-io/nats-server";
/// A dataset with one error of each kind.
const BAD_DATA: &str = "tests/ui/data/bad";
use crate::support;

/// A nats-server log prefix, as in the example log.
const PREFIX: &str = "[7] 2026/11/29 17:20:00.123456 [ERR] ";

/// A record of the embedded catalog.
struct Record {
    name: &'static str,
    id: &'static str,
    slug: &'static str,
    /// The Go format string (`errorMessage`).
    format: &'static str,
    /// The field names, in placeholder order.
    fields: &'static [&'static str],
}

const QOS2: Record = Record {
    name: "CreateQos2IncomingMessagesStreamForAccount",
    id: "443048c6cb7c33f3",
    slug: "create-qos2-incoming-messages-stream-for-account",
    format: "create QoS2 incoming messages stream for account %q: %v",
    fields: &["acc_name", "err"],
};

const PERSIST: Record = Record {
    name: "UnableToPersistSession",
    id: "503f49fe39cf5793",
    slug: "unable-to-persist-session-q-seq-v-v",
    format: "unable to persist session %q (seq=%v): %v",
    fields: &["ps_id", "seq", "err"],
};

const QOS1: Record = Record {
    name: "Qos1InFlightWindowIsFull",
    id: "59aa3418e32dd765",
    slug: "qos1-in-flight-window-is-full-d-messages-and-je",
    format: "QoS1 in-flight window is full (%d messages) and JetStream has not acknowledged the oldest message within %v; failing the connection, the client will re-send unacknowledged PUBLISH packets on reconnect",
    fields: &["mqtt_max_acks_in_flight", "jsa_timeout"],
};

/// The records in catalog order (sorted by id).
const RECORDS: [&Record; 3] = [&QOS2, &PERSIST, &QOS1];

/// A match the example log must give.
struct Expected {
    line: u64,
    record: &'static Record,
    /// The values in placeholder order, as `--json` gives them.
    args: Value,
}

fn example_matches() -> Vec<Expected> {
    let expected = |line, record, args| Expected { line, record, args };
    vec![
        expected(55, &QOS2, json!(["tenant-42", "nats: timeout"])),
        expected(77, &PERSIST, json!(["Mj4n8x2Lq", "1042", "nats: timeout"])),
        expected(88, &QOS2, json!(["ACME", "nats: timeout"])),
        expected(102, &QOS1, json!([1024, "4s"])),
        expected(111, &PERSIST, json!(["7fQp2ZrW0kLmN3bV", "17", "nats: no responders available for request"])),
        expected(121, &PERSIST, json!(["gw-plant-04", "2291", "maximum payload exceeded"])),
        expected(128, &QOS2, json!(["tenant-42", "insufficient storage resources available"])),
        expected(134, &QOS1, json!([512, "10s"])),
        expected(137, &PERSIST, json!([r#"line-"west"-03"#, "0", "insufficient resources"])),
        expected(146, &QOS2, json!(["$G", "insufficient resources"])),
        expected(147, &QOS1, json!([256, "2.5s"])),
        expected(157, &QOS1, json!([1024, "750ms"])),
    ]
}

/// The lines of the example log that match a record.
fn example_lines() -> Vec<u64> {
    example_matches().iter().map(|m| m.line).collect()
}

fn example_log() -> Vec<u8> {
    fs::read(Path::new(ROOT).join(LOG)).expect("the example log")
}

/// Line `number` (1-based) of `text`, without its `\n` or `\r\n`.
fn line_of(text: &[u8], number: u64) -> &[u8] {
    let line = text
        .split(|&b| b == b'\n')
        .nth(usize::try_from(number - 1).unwrap())
        .unwrap_or_else(|| panic!("no line {number}"));
    line.strip_suffix(b"\r").unwrap_or(line)
}

/// The part of `line` that the `span` of a `--json` object covers.
fn spanned<'a>(line: &'a [u8], object: &Value) -> &'a [u8] {
    let span: (usize, usize) = serde_json::from_value(object["span"].clone()).unwrap();
    line.get(span.0..span.1).unwrap_or_else(|| panic!("{object} spans past the line"))
}

/// Where the runs cache compiled catalogs: never the user's own cache.
const CACHE: &str = concat!(env!("CARGO_TARGET_TMPDIR"), "/errcat-cache");

/// The `errcat` command, run in the repository's root, 80 columns wide, with
/// its cache in [`CACHE`].
fn errcat() -> Command {
    let mut command = Command::cargo_bin("errcat").expect("the errcat binary");
    command.current_dir(ROOT).env("COLUMNS", "80").env_remove("NO_COLOR").env("ERRCAT_CACHE_DIR", CACHE);
    // The seed records, whose matches in the example log these tests know.
    command.env("ERRCAT_DATASET", "seeds");
    command
}

/// What a run printed.
struct Output {
    stdout: String,
    stderr: String,
}

/// Runs `errcat ARGS` with `stdin` and checks its exit status.
fn run_with_stdin(args: &[&str], stdin: &[u8], code: i32) -> Output {
    let assert = errcat().args(args).write_stdin(stdin).assert().code(code);
    let output = assert.get_output();
    Output {
        stdout: String::from_utf8(output.stdout.clone()).expect("UTF-8 output"),
        stderr: String::from_utf8(output.stderr.clone()).expect("UTF-8 errors"),
    }
}

/// Runs `errcat ARGS` (with empty standard input) and checks its exit status.
fn run(args: &[&str], code: i32) -> Output {
    run_with_stdin(args, b"", code)
}

fn path_str(path: &Path) -> &str {
    path.to_str().expect("a UTF-8 path")
}

/// Every line of `--json` output, parsed.
fn json_lines(stdout: &str) -> Vec<Value> {
    stdout.lines().map(|line| serde_json::from_str(line).unwrap_or_else(|e| panic!("{e}: {line}"))).collect()
}

/// `text` with every run of whitespace made one space (undoes wrapping).
fn squeeze(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// A value as errcat shows it in text: strings quoted as in Rust, numbers bare.
fn shown(value: &Value) -> String {
    match value {
        Value::String(text) => format!("{text:?}"),
        other => other.to_string(),
    }
}

/// `text` in Go's `%q` syntax (enough for the values used here).
fn go_quote(text: &str) -> String {
    format!("\"{}\"", text.replace('\\', r"\\").replace('"', "\\\""))
}

/// Renders a Go format string with `args` in placeholder order; `None` when it
/// has verbs other than `%s %v %w %d %q` or the wrong number of args.
fn render_go(format: &str, args: &[Value]) -> Option<String> {
    let mut out = String::new();
    let mut args = args.iter();
    let mut chars = format.chars();
    while let Some(c) = chars.next() {
        if c != '%' {
            out.push(c);
            continue;
        }
        match (chars.next()?, args.next()) {
            ('q', Some(Value::String(text))) => out.push_str(&go_quote(text)),
            ('s' | 'v' | 'w', Some(Value::String(text))) => out.push_str(text),
            ('d' | 'v', Some(Value::Number(number))) => out.push_str(&number.to_string()),
            _ => return None,
        }
    }
    args.next().is_none().then_some(out)
}

/// The default (text) output line of a match.
fn match_line(file: &str, expected: &Expected) -> String {
    let args = expected.args.as_array().unwrap();
    let fields: Vec<String> =
        expected.record.fields.iter().zip(args).map(|(name, value)| format!("{name}={}", shown(value))).collect();
    format!("{file}:{}: {}({})", expected.line, expected.record.name, fields.join(", "))
}

/// Checks `--json` matches of the example log read as `file` (whose bytes are
/// `text`): every field of every one of the 12 objects.
fn assert_example_json(objects: &[Value], file: &str, text: &[u8]) {
    let expected = example_matches();
    assert_eq!(objects.len(), expected.len(), "{objects:#?}");
    for (object, expected) in objects.iter().zip(&expected) {
        let record = expected.record;
        let fields: serde_json::Map<String, Value> = record
            .fields
            .iter()
            .zip(expected.args.as_array().unwrap())
            .map(|(name, value)| (name.to_string(), value.clone()))
            .collect();
        let keys: Vec<&String> = object.as_object().unwrap().keys().collect();
        let keys_wanted =
            ["args", "dataset", "field_spans", "fields", "file", "id", "line", "name", "severity", "slug"];
        assert_eq!(keys, [&keys_wanted[..], &["span"]].concat());
        assert_eq!(object["dataset"], "seeds");
        assert_eq!(object["file"], file);
        assert_eq!(object["line"], expected.line);
        assert_eq!(object["id"], record.id);
        assert_eq!(object["slug"], record.slug);
        assert_eq!(object["name"], record.name);
        assert_eq!(object["severity"], "error");
        assert_eq!(object["fields"], Value::Object(fields), "{object}");
        assert_eq!(object["args"], expected.args, "{object}");
        let message = render_go(record.format, expected.args.as_array().unwrap()).unwrap();
        let line = line_of(text, expected.line);
        assert_eq!(String::from_utf8_lossy(spanned(line, object)), message, "{object}");
        // Each value where it is in the line: a `%v` as written, a `%q` quoted.
        for (name, value) in &object["fields"].as_object().unwrap().clone() {
            let span: (usize, usize) = serde_json::from_value(object["field_spans"][name].clone()).unwrap();
            let written = String::from_utf8_lossy(&line[span.0..span.1]).into_owned();
            let value = value.as_str().map_or_else(|| value.to_string(), str::to_owned);
            assert!(written == value || written == format!("{value:?}"), "{name}: {written:?} in {object}");
        }
    }
}

/// The rows of a summary table (the indented lines after its header, the
/// count being right-aligned), split on whitespace: count, severity, error,
/// first, last.
fn summary_rows(stdout: &str) -> Vec<Vec<&str>> {
    stdout
        .lines()
        .skip_while(|line| !line.trim_start().starts_with("count"))
        .skip(1)
        .take_while(|line| line.starts_with(' '))
        .map(|line| line.split_whitespace().collect())
        .collect()
}

/// The summary table of the example log scanned as `file`.
fn example_summary(file: &str) -> Vec<Vec<String>> {
    [(&QOS2, 55, 146), (&PERSIST, 77, 137), (&QOS1, 102, 157)]
        .iter()
        .map(|(record, first, last)| {
            vec![
                "4".to_owned(),
                "error".to_owned(),
                record.name.to_owned(),
                format!("{file}:{first}"),
                format!("{file}:{last}"),
            ]
        })
        .collect()
}

/// Lines of the form `FILE:LINE: ...`, as printed for each matching line.
fn located_lines(stdout: &str) -> Vec<&str> {
    stdout
        .lines()
        .filter(|line| {
            line.split_once(": ")
                .is_some_and(|(place, _)| place.rsplit_once(':').is_some_and(|(_, n)| n.parse::<u64>().is_ok()))
        })
        .collect()
}

#[test]
fn scan_prints_each_match_then_the_summary_and_solutions() {
    let out = run(&["scan", LOG], 0);
    let expected: Vec<String> = example_matches().iter().map(|m| match_line(LOG, m)).collect();
    let lines: Vec<&str> = out.stdout.lines().collect();
    assert_eq!(lines[..12], expected, "{}", out.stdout);
    // Spelled out, so the expectations above are not only self-consistent.
    assert!(lines.contains(
        &r#"examples/nats-server.log:137: UnableToPersistSession(ps_id="line-\"west\"-03", seq="0", err="insufficient resources")"#
    ));
    assert!(lines.contains(
        &r#"examples/nats-server.log:102: Qos1InFlightWindowIsFull(mqtt_max_acks_in_flight=1024, jsa_timeout="4s")"#
    ));
    assert_eq!(lines[12], "");
    assert_eq!(squeeze(lines[13]), "count severity error first last", "{}", out.stdout);
    assert_eq!(summary_rows(&out.stdout), example_summary(LOG));
    // Then each error's solutions, in the table's order.
    let solutions: Vec<&str> = lines.iter().filter(|line| line.contains("(errcat show ")).copied().collect();
    let expected: Vec<String> = RECORDS.iter().map(|r| format!("{} (errcat show {})", r.name, r.id)).collect();
    assert_eq!(solutions, expected);
    assert!(lines.iter().any(|line| line.starts_with("  - ")));
    assert_eq!(lines.last().copied(), Some("12 matching line(s), 3 distinct error(s)"));
    assert!(out.stderr.is_empty(), "{}", out.stderr);
}

#[test]
fn scan_output_is_plain_unless_colour_is_asked_for() {
    const ESCAPE: &str = "\x1b[";
    // Standard output is a pipe here: no colour, with or without NO_COLOR.
    assert!(!run(&["scan", LOG], 0).stdout.contains(ESCAPE));
    let assert = errcat().args(["scan", LOG]).env("NO_COLOR", "1").assert().code(0);
    assert!(!String::from_utf8_lossy(&assert.get_output().stdout).contains(ESCAPE));
    // The check above can fail: `--color always` does colour.
    assert!(run(&["--color", "always", "scan", LOG], 0).stdout.contains(ESCAPE));
}

#[test]
fn scan_json_reports_every_field_of_every_match() {
    let out = run(&["scan", "--json", LOG], 0);
    assert_example_json(&json_lines(&out.stdout), LOG, &example_log());
    assert!(out.stderr.is_empty(), "{}", out.stderr);
}

#[test]
fn scan_count_prints_only_the_summary() {
    let out = run(&["scan", "--count", LOG], 0);
    assert_eq!(located_lines(&out.stdout), Vec::<&str>::new());
    assert_eq!(summary_rows(&out.stdout), example_summary(LOG));
    assert!(!out.stdout.contains("errcat show"), "{}", out.stdout);
    assert_eq!(out.stdout.lines().last(), Some("12 matching line(s), 3 distinct error(s)"));
}

#[test]
fn scan_unmatched_lists_error_and_warning_lines_no_record_explains() {
    let log = example_log();
    let text = String::from_utf8(log).unwrap();
    let matched = example_lines();
    let expected: Vec<String> = text
        .lines()
        .zip(1u64..)
        .filter(|(_, number)| !matched.contains(number))
        .filter_map(|(line, number)| {
            let level = ["ERR", "WRN"].into_iter().find(|level| line.contains(&format!("[{level}]")))?;
            Some(format!("{LOG}:{number}: unmatched {level}: {line}"))
        })
        .collect();
    assert!(expected.iter().any(|line| line
        .contains("56: unmatched ERR: [4127] 2026/11/29 17:20:07.618784 [ERR] Error trying to connect to route")));

    let out = run(&["scan", "--unmatched", "ERR,WRN", LOG], 0);
    let unmatched: Vec<&str> =
        located_lines(&out.stdout).into_iter().filter(|line| line.contains(": unmatched ")).collect();
    assert_eq!(unmatched, expected);
    // The matches are still listed, and the summary counts both.
    assert_eq!(located_lines(&out.stdout).len(), expected.len() + matched.len());
    assert_eq!(
        out.stdout.lines().last().map(str::to_owned),
        Some(format!("12 matching line(s), 3 distinct error(s), {} unmatched ERR/WRN line(s)", expected.len()))
    );
}

#[test]
fn scan_reads_standard_input_with_crlf_line_endings() {
    let crlf = String::from_utf8(example_log()).unwrap().replace('\n', "\r\n").into_bytes();
    // No file and `-` both mean standard input.
    for args in [&["scan", "--json"][..], &["scan", "--json", "-"]] {
        let out = run_with_stdin(args, &crlf, 0);
        assert_example_json(&json_lines(&out.stdout), "<stdin>", &crlf);
    }
    let out = run_with_stdin(&["scan"], &crlf, 0);
    assert!(out.stdout.lines().any(|line| line
        == r#"<stdin>:137: UnableToPersistSession(ps_id="line-\"west\"-03", seq="0", err="insufficient resources")"#));
    assert!(!out.stdout.contains('\r'));
    assert_eq!(summary_rows(&out.stdout), example_summary("<stdin>"));
}

/// Scans `bad` and then the example log with `--json` and checks the exit
/// status, and that the example log was still scanned in full. Returns the
/// matches in `bad` (with `file` and `line`) and what was said on stderr.
fn scan_beside_example(bad: &Path, code: i32) -> (Vec<Value>, String) {
    let out = run(&["scan", "--json", path_str(bad), LOG], code);
    let (example, others): (Vec<Value>, Vec<Value>) =
        json_lines(&out.stdout).into_iter().partition(|object| object["file"] == LOG);
    assert_example_json(&example, LOG, &example_log());
    assert!(others.iter().all(|object| object["file"] == path_str(bad)), "{others:#?}");
    assert!(!out.stderr.contains("panicked"), "{}", out.stderr);
    (others, out.stderr)
}

/// The line numbers of matches.
fn lines_of(objects: &[Value]) -> Vec<u64> {
    objects.iter().map(|o| o["line"].as_u64().unwrap()).collect()
}

/// Asserts that stderr has a line starting with `errcat: PATH` then `rest`.
fn assert_reported(stderr: &str, path: &Path, rest: &str) {
    let expected = format!("errcat: {}{rest}", path.display());
    assert!(stderr.lines().any(|line| line.starts_with(&expected)), "expected {expected:?} in:\n{stderr}");
}

/// A log line whose message is the `UnableToPersistSession` of `ps_id`.
fn persist_message(ps_id: &str) -> String {
    format!(r#"unable to persist session "{ps_id}" (seq=7): nats: timeout"#)
}

#[test]
fn scan_reports_a_missing_file_and_scans_the_others() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("missing.log");
    let (found, stderr) = scan_beside_example(&missing, 2);
    assert!(found.is_empty());
    assert_reported(&stderr, &missing, ": cannot open: No such file or directory");
}

#[test]
fn scan_reports_a_directory_and_scans_the_others() {
    let dir = tempfile::tempdir().unwrap();
    let (found, stderr) = scan_beside_example(dir.path(), 2);
    assert!(found.is_empty());
    assert_reported(&stderr, dir.path(), ": is a directory");
}

#[test]
fn scan_skips_a_binary_file() {
    let dir = tempfile::tempdir().unwrap();
    let binary = dir.path().join("binary.log");
    let message = persist_message("in-binary");
    fs::write(&binary, format!("\0\0\x01\x02\n{PREFIX}{message}\n")).unwrap();
    let (found, stderr) = scan_beside_example(&binary, 2);
    assert!(found.is_empty(), "{found:#?}");
    assert_reported(&stderr, &binary, ": binary file");
}

#[test]
fn scan_reads_invalid_utf8_with_replacement_and_reports_it() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("latin.log");
    let message = persist_message("s-1");
    let mut bytes = b"first line\n".to_vec();
    bytes.extend_from_slice(b"\xff\xfe ");
    bytes.extend_from_slice(message.as_bytes());
    bytes.push(b'\n');
    fs::write(&path, &bytes).unwrap();

    let (found, stderr) = scan_beside_example(&path, 2);
    assert_eq!(lines_of(&found), [2]);
    assert_eq!(found[0]["args"], json!(["s-1", "7", "nats: timeout"]));
    // The span is in the file's bytes, not in the text with replacement characters.
    assert_eq!(spanned(line_of(&bytes, 2), &found[0]), message.as_bytes());
    assert_reported(&stderr, &path, ":2: invalid UTF-8");
}

#[test]
fn scan_notes_an_empty_file_without_failing() {
    let dir = tempfile::tempdir().unwrap();
    let empty = dir.path().join("empty.log");
    fs::write(&empty, b"").unwrap();
    // An empty file is noted on stderr but is no error: the status is that of
    // the other files (0 here, with the example log's matches) ...
    let (found, stderr) = scan_beside_example(&empty, 0);
    assert!(found.is_empty());
    assert_reported(&stderr, &empty, ": empty file");
    // ... and 1 (nothing matched) when it is the only file.
    let out = run(&["scan", path_str(&empty)], 1);
    assert_reported(&out.stderr, &empty, ": empty file");
}

#[test]
fn scan_skips_a_line_over_16_mib_and_reads_the_next() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("long.log");
    let mut file = std::io::BufWriter::new(fs::File::create(&path).unwrap());
    let chunk = vec![b'a'; 1 << 20];
    for _ in 0..100 {
        file.write_all(&chunk).unwrap();
    }
    writeln!(file, "\n{PREFIX}{}", persist_message("after-long")).unwrap();
    file.into_inner().unwrap().sync_all().unwrap();

    let (found, stderr) = scan_beside_example(&path, 2);
    assert_eq!(lines_of(&found), [2]);
    assert_eq!(found[0]["fields"]["ps_id"], "after-long");
    assert_reported(&stderr, &path, ":1: line longer than 16 MiB; skipped");
}

/// Writes `bytes` to `name` in `dir`.
fn write_log(dir: &Path, name: &str, bytes: &[u8]) -> std::path::PathBuf {
    let path = dir.join(name);
    fs::write(&path, bytes).unwrap();
    path
}

/// Asserts that `errcat scan --json` gives the same matches, messages and
/// exit status for the file at `path` as for its bytes piped in, with one
/// thread and with two. The messages are compared in any order: those about
/// skipped lines come as the lines are read, which a file and a pipe do in
/// pieces of different sizes.
fn assert_file_scan_is_piped_scan(path: &Path) {
    let bytes = fs::read(path).unwrap();
    for threads in ["1", "2"] {
        let args = ["scan", "--json", "--threads", threads];
        let file = errcat().args(args).arg(path).output().unwrap();
        let piped = errcat().args(args).arg("-").write_stdin(bytes.clone()).output().unwrap();
        let named = |output: &[u8]| String::from_utf8(output.to_vec()).unwrap().replace("<stdin>", path_str(path));
        let sorted = |stderr: String| {
            let mut lines: Vec<String> = stderr.lines().map(str::to_owned).collect();
            lines.sort();
            lines
        };
        let context = format!("{} with {threads} thread(s)", path.display());
        assert_eq!(file.status.code(), piped.status.code(), "{context}");
        assert!(file.stdout == named(&piped.stdout).as_bytes(), "{context}: stdout differs");
        assert_eq!(sorted(named(&file.stderr)), sorted(named(&piped.stderr)), "{context}");
    }
}

#[test]
fn a_file_scans_as_its_bytes_piped() {
    let dir = tempfile::tempdir().unwrap();
    let matching = |id: &str| format!("{PREFIX}{}", persist_message(id)).into_bytes();
    let mut bytes = example_log();
    for line in [
        [matching("crlf"), b"\r".to_vec()].concat(),
        [b"\xff\xfe ".to_vec(), matching("invalid-1")].concat(),
        vec![b'a'; 17 << 20],
        matching("after-long"),
        [b"\xc3 ".to_vec(), matching("invalid-2")].concat(),
        vec![b'b'; 2 << 20],
        matching("after-two-mib"),
    ] {
        bytes.extend_from_slice(&line);
        bytes.push(b'\n');
    }
    bytes.extend_from_slice(&matching("no-line-break"));
    let mixed = write_log(dir.path(), "mixed.log", &bytes);
    let last = example_log().iter().filter(|&&b| b == b'\n').count() as u64;
    let numbered = [(1, "crlf"), (2, "invalid-1"), (4, "after-long"), (5, "invalid-2"), (7, "after-two-mib")];
    let expected: Vec<(u64, &str)> =
        numbered.iter().map(|(n, id)| (last + n, *id)).chain([(last + 8, "no-line-break")]).collect();
    // One thread numbers lines as it classifies them, several as they are
    // read: both against the numbers counted here.
    for threads in ["1", "2"] {
        let out = errcat().args(["scan", "--json", "--threads", threads]).arg(&mixed).output().unwrap();
        let found = json_lines(&String::from_utf8(out.stdout).unwrap());
        let after_example: Vec<(u64, &str)> = found
            .iter()
            .filter(|object| object["line"].as_u64().unwrap() > last)
            .map(|object| (object["line"].as_u64().unwrap(), object["fields"]["ps_id"].as_str().unwrap()))
            .collect();
        assert_eq!(after_example, expected, "{threads} thread(s)");
        let stderr = String::from_utf8(out.stderr).unwrap();
        assert_reported(&stderr, &mixed, &format!(":{}: line longer than 16 MiB; skipped", last + 3));
        assert_reported(&stderr, &mixed, &format!(":{}: invalid UTF-8", last + 2));
    }
    assert_file_scan_is_piped_scan(&mixed);

    // A file of exactly a chunk (1 MiB) ending with a match, and one whose
    // matching last line crosses the chunk's end.
    for (name, length) in [("chunk.log", 1 << 20), ("across.log", (1 << 20) + 20)] {
        let mut bytes = Vec::new();
        while bytes.len() + 200 < length {
            bytes.extend_from_slice(b"[7] 2026/11/29 17:20:00.123456 [INF] nothing to see\n");
        }
        let line = matching(name);
        bytes.resize(length - line.len() - 2, b'.');
        bytes.push(b'\n');
        bytes.extend_from_slice(&line);
        bytes.push(b'\n');
        assert_eq!(bytes.len(), length);
        assert_file_scan_is_piped_scan(&write_log(dir.path(), name, &bytes));
    }
    assert_file_scan_is_piped_scan(&write_log(dir.path(), "empty.log", b""));
    let binary = [b"text\n\0".to_vec(), matching("in-binary")].concat();
    assert_file_scan_is_piped_scan(&write_log(dir.path(), "binary.log", &binary));
}

/// The example log gzipped into `dir`, and its bytes.
fn gzipped_example(dir: &Path) -> (std::path::PathBuf, Vec<u8>) {
    let mut encoder = GzEncoder::new(Vec::new(), flate2::Compression::default());
    encoder.write_all(&example_log()).unwrap();
    let bytes = encoder.finish().unwrap();
    let path = dir.join("nats-server.log.gz");
    fs::write(&path, &bytes).unwrap();
    (path, bytes)
}

/// `objects` as if found in the example log.
fn as_example(mut objects: Vec<Value>) -> Vec<Value> {
    for object in &mut objects {
        object["file"] = json!(LOG);
    }
    objects
}

#[test]
fn scan_decompresses_gz_files() {
    let dir = tempfile::tempdir().unwrap();
    let (gz, _) = gzipped_example(dir.path());
    let (found, stderr) = scan_beside_example(&gz, 0);
    assert!(found.iter().all(|o| o["file"] == path_str(&gz)));
    assert_example_json(&as_example(found), LOG, &example_log());
    assert!(stderr.is_empty(), "{stderr}");
}

#[test]
fn scan_reports_a_truncated_gz_file_after_its_complete_lines() {
    let dir = tempfile::tempdir().unwrap();
    let (_, bytes) = gzipped_example(dir.path());
    let cut = dir.path().join("cut.log.gz");
    fs::write(&cut, &bytes[..bytes.len() / 2]).unwrap();

    let (found, stderr) = scan_beside_example(&cut, 2);
    // The matches before the cut, as in the whole file.
    let complete = example_lines();
    let found = lines_of(&found);
    assert!(!found.is_empty() && found.len() < complete.len(), "{found:?}");
    assert_eq!(found, complete[..found.len()]);
    // The decoder's error, naming the file.
    assert_reported(&stderr, &cut, ": ");
}

#[cfg(unix)]
#[test]
fn scan_reports_an_unreadable_file() {
    use std::os::unix::fs::PermissionsExt;

    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("secret.log");
    fs::write(&path, format!("{PREFIX}{}\n", persist_message("secret"))).unwrap();
    fs::set_permissions(&path, fs::Permissions::from_mode(0o000)).unwrap();
    if fs::File::open(&path).is_ok() {
        // Running as root (or on a file system without permissions): the
        // file is readable whatever its mode, so there is nothing to test.
        eprintln!("note: skipped: permissions do not apply to this user");
        return;
    }
    let (found, stderr) = scan_beside_example(&path, 2);
    assert!(found.is_empty());
    assert_reported(&stderr, &path, ": cannot open: Permission denied");
}

#[test]
fn scan_stops_quietly_when_its_output_is_closed() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("big.log");
    let mut file = std::io::BufWriter::new(fs::File::create(&path).unwrap());
    for i in 0..200_000 {
        writeln!(file, "{PREFIX}{}", persist_message(&format!("s{i}"))).unwrap();
    }
    file.into_inner().unwrap().sync_all().unwrap();

    for format in [&[][..], &["--json"]] {
        // `errcat scan big.log | head -n 1`: read one line, close the pipe.
        let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("errcat"))
            .env("ERRCAT_CACHE_DIR", CACHE)
            .arg("scan")
            .args(format)
            .arg(&path)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut first = String::new();
        BufReader::new(child.stdout.take().unwrap()).read_line(&mut first).unwrap();
        let output = child.wait_with_output().unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(first.contains("s0"), "{first}");
        assert!(!stderr.contains("panicked"), "{stderr}");
        assert_eq!(output.status.code(), Some(0), "{format:?}: {stderr}");
    }
}

/// `logrotate`'s `copytruncate` of a log while errcat scans it: the reads
/// end at the file's new end, so the lines read before the cut are
/// reported (the one the cut went through, without its end, may be too),
/// nothing after; the next file is scanned, and no error is made of it.
#[cfg(unix)]
#[test]
fn a_log_truncated_while_it_is_scanned_ends_there_and_the_scan_goes_on() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("app.log");
    let line = format!("{PREFIX}{}\n", persist_message("s"));
    // 20 MiB of matching lines: the first 1 MiB chunk's matches alone are
    // far more than a pipe holds.
    fs::write(&path, line.repeat((20 << 20) / line.len())).unwrap();
    let other = dir.path().join("other.log");
    fs::write(&other, format!("{PREFIX}{}\n", persist_message("other"))).unwrap();

    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("errcat"))
        .env("ERRCAT_CACHE_DIR", CACHE)
        .args(["scan", "--threads", "1"])
        .args([&path, &other])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // With one thread, the second chunk is read only once the first one's
    // matches are all written: the first line out means errcat is writing
    // them, held by the pipe, when the log is cut.
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut first = String::new();
    stdout.read_line(&mut first).unwrap();
    assert!(first.starts_with(&format!("{}:1: ", path.display())), "{first}");
    fs::File::options().write(true).open(&path).unwrap().set_len(0).unwrap();
    let mut rest = String::new();
    stdout.read_to_string(&mut rest).unwrap();
    let output = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);

    let prefix = format!("{}:", path.display());
    let reported: Vec<u64> = std::iter::once(first.as_str())
        .chain(rest.lines())
        .filter_map(|out| out.strip_prefix(&prefix)?.split(':').next()?.parse().ok())
        .collect();
    // The first chunk (1 MiB and a read's worth more), and no more.
    let (chunk, lines) = ((1 << 20) / line.len(), (20 << 20) / line.len());
    assert!(reported.len() >= chunk && reported.len() < lines / 10, "{} lines reported", reported.len());
    assert_eq!(reported, (1..=reported.len() as u64).collect::<Vec<_>>(), "every line read, once, in order");
    assert!(rest.contains(&format!("{}:1: UnableToPersistSession", other.display())), "the next file is scanned");
    assert!(stderr.is_empty(), "{stderr}");
    assert_eq!(output.status.code(), Some(0), "{stderr}");
}

/// The seed record `id` as stored in the dataset.
fn seed_record(id: &str) -> Value {
    let path = Path::new(ROOT).join(DATA).join(format!("{id}.json"));
    let file: Value = serde_json::from_slice(&fs::read(path).unwrap()).unwrap();
    file["record"].clone()
}

/// Asserts that `stdout` holds the record's prose sections (wrapped), each
/// under its heading, and its source.
fn assert_record_sections(stdout: &str, record: &Value) {
    let flat = squeeze(stdout);
    for heading in ["Documentation", "Solutions", "Prevention tips", "Handling strategy", "Source"] {
        assert!(stdout.lines().any(|line| line == heading), "{heading}");
    }
    let text = |value: &Value| squeeze(value.as_str().unwrap());
    assert!(flat.contains(&text(&record["documentation"])));
    for solution in record["solutions"].as_array().unwrap() {
        assert!(flat.contains(&format!("- {}", text(solution))), "{solution}");
    }
    for tip in record["preventionTips"].as_array().unwrap() {
        assert!(flat.contains(&format!("- {}", text(tip))), "{tip}");
    }
    assert!(flat.contains(&format!("Handling strategy {}", text(&record["handlingStrategy"]))));
    let source =
        format!("Source {}:{} {}", text(&record["filePath"]), record["lineNumber"], text(&record["githubUrl"]));
    assert!(flat.contains(&source), "{source}");
    assert!(source.contains("https://github.com/nats-io/nats-server/blob/"));
}

#[test]
fn explain_a_message_shows_its_record_fields_and_fix() {
    let message = r#"unable to persist session "s1" (seq=3): nats: timeout"#;
    let out = run(&["explain", message], 0);
    let flat = squeeze(&out.stdout);
    assert!(out.stdout.starts_with("UnableToPersistSession (error)\n"));
    assert!(flat.contains(&format!("id {} · slug {} · nats-io/nats-server", PERSIST.id, PERSIST.slug)));
    assert!(flat.contains(&format!("message: {}", PERSIST.format)));
    assert!(flat.contains(r#"Fields ps_id = "s1" seq = "3" err = "nats: timeout""#));
    assert_record_sections(&out.stdout, &seed_record(PERSIST.id));
}

#[test]
fn explain_a_log_line_finds_the_message_after_its_prefix() {
    let log = example_log();
    let line = String::from_utf8(line_of(&log, 102).to_vec()).unwrap();
    let out = run(&["explain", &line], 0);
    assert!(out.stdout.starts_with("Qos1InFlightWindowIsFull (error)\n"));
    assert!(squeeze(&out.stdout).contains(r#"Fields mqtt_max_acks_in_flight = 1024 jsa_timeout = "4s""#));
    assert_record_sections(&out.stdout, &seed_record(QOS1.id));
}

#[test]
fn explain_an_unknown_message_exits_1() {
    let out = run(&["explain", "hello world"], 1);
    assert_eq!(out.stdout, "no known error matches: hello world\n");
}

#[test]
fn explain_reads_messages_from_standard_input() {
    let stdin = "hello\r\ncreate QoS2 incoming messages stream for account \"A\": x\r\n";
    let out = run_with_stdin(&["explain"], stdin.as_bytes(), 0);
    assert!(out.stdout.starts_with("no known error matches: hello\n\n"));
    assert!(out.stdout.contains("\nCreateQos2IncomingMessagesStreamForAccount (error)\n"));
    assert!(squeeze(&out.stdout).contains(r#"Fields acc_name = "A" err = "x""#));
    assert!(!out.stdout.contains('\r'));
}

/// The (name, id) of each row of `errcat list`.
fn listed(stdout: &str) -> Vec<(String, String)> {
    stdout
        .lines()
        .map(|line| line.split_whitespace().collect::<Vec<_>>())
        .filter(|words| words.get(1).is_some_and(|id| id.len() == 16 && id.chars().all(|c| c.is_ascii_hexdigit())))
        .map(|words| (words[0].to_owned(), words[1].to_owned()))
        .collect()
}

/// How `list` shows a name: cut to 40 columns with `…`.
/// Names are listed whole, so that they can be given to `show`.
fn listed_name(name: &str) -> String {
    name.to_owned()
}

#[test]
fn list_shows_every_record() {
    let out = run(&["list"], 0);
    let expected: Vec<(String, String)> = RECORDS.iter().map(|r| (listed_name(r.name), r.id.to_owned())).collect();
    assert_eq!(listed(&out.stdout), expected, "{}", out.stdout);
    assert_eq!(squeeze(out.stdout.lines().next().unwrap()), "name id severity message");
    assert_eq!(out.stdout.lines().last(), Some("3 record(s)"));
}

#[test]
fn list_filters_by_severity_tag_and_repo() {
    let out = run(&["list", "--severity", "warning"], 1);
    assert_eq!(out.stdout, "no records\n");
    assert_eq!(out.stderr, "errcat: no record has the severity \"warning\" (the catalog's: error)\n");
    assert_eq!(listed(&run(&["list", "--severity", "error"], 0).stdout).len(), 3);
    let out = run(&["list", "--tag", "nope"], 1);
    assert!(out.stderr.starts_with("errcat: no record has the tag \"nope\""), "{}", out.stderr);
    // What `rules` says when nothing is chosen is the same.
    let out = run(&["rules", "--severity", "bogus"], 1);
    assert_eq!(out.stdout, "");
    assert_eq!(out.stderr, "errcat: no record has the severity \"bogus\" (the catalog's: error): no rules\n");

    let out = run(&["list", "--tag", "persistence"], 0);
    let ids: Vec<String> = listed(&out.stdout).into_iter().map(|(_, id)| id).collect();
    assert_eq!(ids, [PERSIST.id]);
    assert!(out.stdout.contains("UnableToPersistSession"));

    let out = run(&["list", "--repo", "nats-io/nats-server"], 0);
    assert_eq!(listed(&out.stdout).len(), 3);

    let out = run(&["list", "--repo", "nats-io/nats.go"], 1);
    assert_eq!(out.stdout, "no records\n");
    assert_eq!(
        out.stderr,
        "errcat: no record is of the repository \"nats-io/nats.go\" (the catalog's: nats-io/nats-server)\n"
    );
}

#[test]
fn show_prints_a_record_in_full_by_id_slug_or_name() {
    let by_id = run(&["show", PERSIST.id], 0).stdout;
    assert_eq!(run(&["show", PERSIST.slug], 0).stdout, by_id);
    assert_eq!(run(&["show", PERSIST.name], 0).stdout, by_id);

    assert!(by_id.starts_with("UnableToPersistSession (error)\n"));
    let flat = squeeze(&by_id);
    for fact in [
        format!("id: {}", PERSIST.id),
        format!("slug: {}", PERSIST.slug),
        "repo: nats-io/nats-server".to_owned(),
        format!("message: {}", PERSIST.format),
        "fields: ps_id: quoted, seq: text, err: text".to_owned(),
        "tags: mqtt, jetstream, persistence".to_owned(),
    ] {
        assert!(flat.contains(&fact), "{fact}");
    }
    let record = seed_record(PERSIST.id);
    assert_record_sections(&by_id, &record);
    assert!(by_id.lines().any(|line| line == "Source code"));
    for line in record["sourceCode"].as_str().unwrap().lines() {
        assert!(by_id.contains(&format!("\n    {line}\n")), "{line}");
    }
}

#[test]
fn show_an_unknown_key_exits_1_suggesting_the_nearest_keys() {
    let unknown = |key: &str, suggestion: &str| {
        let out = run(&["show", key], 1);
        assert_eq!(out.stdout, "");
        assert_eq!(
            out.stderr,
            format!(
                "errcat: no record has the id, slug or name {key:?}; {suggestion} (`errcat list` shows them all)\n"
            )
        );
    };
    unknown("UnableToPersistSesion", "did you mean UnableToPersistSession?");
    unknown("unable-to-persist-session", "did you mean UnableToPersistSession?");
    unknown("503f49fe39cf5794", "did you mean 503f49fe39cf5793?");
    unknown(
        "Qos1-in-flight-window-is-ful-d-messages-and-je",
        "did you mean qos1-in-flight-window-is-full-d-messages-and-je?",
    );
    unknown("persist", "names containing it: UnableToPersistSession");
    unknown(
        "nope",
        "the nearest names: UnableToPersistSession, Qos1InFlightWindowIsFull, CreateQos2IncomingMessagesStreamForAccount",
    );
}

#[test]
fn list_piped_keeps_whole_messages() {
    // The tests' output is a pipe, as in `errcat list | cat`, even with COLUMNS set.
    let out = errcat().env("COLUMNS", "60").arg("list").assert().code(0);
    let stdout = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    for record in RECORDS {
        let row = stdout.lines().find(|line| line.starts_with(record.name)).expect("a row per record");
        assert!(row.ends_with(&format!("  {}", record.format)), "{row}");
    }
}

#[test]
fn list_json_has_every_record() {
    let out = run(&["list", "--json"], 0);
    let objects = json_lines(&out.stdout);
    assert_eq!(objects.len(), RECORDS.len());
    for (object, record) in objects.iter().zip(RECORDS) {
        let stored = seed_record(record.id);
        assert_eq!(object["id"], record.id);
        assert_eq!(object["slug"], record.slug);
        assert_eq!(object["name"], record.name);
        assert_eq!(object["severity"], "error");
        assert_eq!(object["repo"], "nats-io/nats-server");
        assert_eq!(object["errorMessage"], record.format);
        assert_eq!(object["messagePattern"], stored["messagePattern"]);
        assert_eq!(object["tags"], stored["tags"]);
    }
    let out = run(&["list", "--json", "--tag", "persistence"], 0);
    assert_eq!(json_lines(&out.stdout).iter().map(|o| o["id"].clone()).collect::<Vec<_>>(), [PERSIST.id]);
    assert_eq!(run(&["list", "--json", "--severity", "warning"], 1).stdout, "");
}

#[test]
fn show_json_has_every_field_of_the_record() {
    for record in RECORDS {
        let out = run(&["show", "--json", record.slug], 0);
        let object: Value = serde_json::from_str(&out.stdout).expect("one JSON object");
        assert_eq!(out.stdout.lines().count(), 1);
        let stored = seed_record(record.id);
        // Every field of the stored record, under its name, with its value.
        for (key, value) in stored.as_object().unwrap() {
            assert_eq!(&object[key], value, "{}: {key}", record.name);
        }
        assert_eq!(object["name"], record.name);
        let fields: Vec<&str> =
            object["fields"].as_array().unwrap().iter().map(|f| f["name"].as_str().unwrap()).collect();
        assert_eq!(fields, record.fields);
        assert!(object["pattern"].as_str().is_some_and(|p| !p.is_empty()));
    }
}

/// The diagnostics of `text` for files under `dir`: (file stem, line, column).
fn diagnostics(text: &str, dir: &str) -> Vec<(String, u32, u32)> {
    text.lines()
        .filter_map(|line| {
            let rest = line.strip_prefix(dir)?.strip_prefix('/')?;
            let mut parts = rest.splitn(4, ':');
            let file = parts.next()?.strip_suffix(".json")?.to_owned();
            let line = parts.next()?.parse().ok()?;
            let column = parts.next()?.parse().ok()?;
            Some((file, line, column))
        })
        .collect()
}

#[test]
fn check_accepts_the_seed_dataset_with_two_pattern_warnings() {
    let out = run(&["check", DATA], 0);
    let warned: Vec<String> = diagnostics(&out.stdout, DATA).into_iter().map(|(file, _, _)| file).collect();
    assert_eq!(warned, [QOS2.id, PERSIST.id]);
    let prefix = format!("{DATA}/");
    let warnings: Vec<&str> = out.stdout.lines().filter(|l| l.starts_with(&prefix)).collect();
    assert_eq!(warnings.len(), 2);
    assert!(warnings.iter().all(|line| line
        .contains(": warning: field `messagePattern`: messagePattern does not match the message it documents")));
    assert_eq!(
        out.stdout.lines().last().map(str::to_owned),
        Some(format!("{DATA}: 3 record(s) in 3 file(s), 0 error(s), 2 warning(s)"))
    );
}

/// The files of the bad dataset with an error, once per error.
const BAD_FILES: [&str; 7] =
    ["a_malformed", "b_mistyped", "b_mistyped", "c_missing", "d_regex", "e_format", "f_duplicate"];

fn files_of(diagnostics: &[(String, u32, u32)]) -> Vec<&str> {
    diagnostics.iter().map(|(file, _, _)| file.as_str()).collect()
}

#[test]
fn check_lists_every_bad_record_with_its_position() {
    let out = run(&["check", BAD_DATA], 1);
    let found = diagnostics(&out.stdout, BAD_DATA);
    assert_eq!(files_of(&found), BAD_FILES, "{}", out.stdout);
    assert!(found.iter().all(|&(_, line, column)| line > 0 && column > 0));
    assert!(out.stdout.lines().any(|line| line.ends_with("7 error(s), 0 warning(s)")));
}

const HOSTILE_DATA: &str = "tests/ui/data/hostile";

#[test]
fn check_refuses_hostile_records_with_their_positions_and_keeps_the_others() {
    let out = run(&["check", HOSTILE_DATA], 1);
    let errors: String = out.stdout.lines().filter(|l| !l.contains(": warning: ")).map(|l| format!("{l}\n")).collect();
    let found = diagnostics(&errors, HOSTILE_DATA);
    assert_eq!(files_of(&found), ["a_nested", "b_enormous", "c_huge_regex", "d_placeholders", "e_not_utf8"]);
    for expected in [
        "a_nested.json:1:168: malformed JSON: recursion limit exceeded",
        "b_enormous.json:1:108: field `errorMessage`: too long: 20003 bytes (the limit is 16384)",
        "c_huge_regex.json:1:178: field `messagePattern`: the pattern would compile to a huge automaton",
        "d_placeholders.json:1:108: field `errorMessage`: the message has 150 placeholders; the limit is 100",
        "e_not_utf8.json:1:55: the file is not valid UTF-8",
    ] {
        assert!(out.stdout.contains(&format!("{HOSTILE_DATA}/{expected}")), "{expected}\n{}", out.stdout);
    }
    // The records named after keywords are valid; those whose names collide
    // are told apart by their ids, with a warning.
    let shared = "warning: field `errorMessage`: variant name `StreamClosed` is shared by 2 records; this one is named";
    assert!(out.stdout.contains(&format!("h_same_name_1.json:1:108: {shared} `StreamClosedA100000000000008`")));
    assert!(out.stdout.contains(&format!("h_same_name_2.json:1:108: {shared} `StreamClosedA100000000000009`")));
    // The record named after keywords has a one-word message (`self`).
    assert!(out.stdout.contains("f_keywords.json:1:80: warning: field `errorMessage`: the message is one word"));
    let last = out.stdout.lines().last().unwrap_or_default();
    assert_eq!(last, format!("{HOSTILE_DATA}: 4 record(s) in 9 file(s), 5 error(s), 4 warning(s)"));
}

#[cfg(unix)]
#[test]
fn a_symbolic_link_loop_in_the_data_is_reported_not_followed() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    fs::create_dir_all(data.join("sub")).unwrap();
    fs::copy(Path::new(ROOT).join(DATA).join(format!("{}.json", PERSIST.id)), data.join("sub/record.json")).unwrap();
    std::os::unix::fs::symlink("..", data.join("sub/up")).unwrap();
    let data = path_str(&data);
    let out = run(&["check", data], 1);
    let expected = format!("symbolic link loop: `{data}/sub/up` leads back to `{data}`");
    assert!(out.stdout.contains(&expected), "{}", out.stdout);
    let out = run(&["--data", data, "scan", LOG], 2);
    assert!(out.stderr.contains(&expected), "{}", out.stderr);
}

#[test]
fn scan_with_a_bad_dataset_exits_2_listing_its_errors() {
    let check = run(&["check", BAD_DATA], 1);
    let out = run(&["--data", BAD_DATA, "scan", LOG], 2);
    assert!(out.stdout.is_empty(), "{}", out.stdout);
    let found = diagnostics(&out.stderr, BAD_DATA);
    assert_eq!(files_of(&found), BAD_FILES, "{}", out.stderr);
    assert_eq!(found, diagnostics(&check.stdout, BAD_DATA));
    assert!(out.stderr.contains("has 7 error(s)"), "{}", out.stderr);
}

#[test]
fn help_of_every_command_has_examples() {
    for command in [None, Some("explain"), Some("scan"), Some("list"), Some("show"), Some("check")] {
        let args: Vec<&str> = command.into_iter().chain(["--help"]).collect();
        let out = run(&args, 0);
        assert!(out.stdout.contains("Usage: errcat"), "{args:?}");
        assert!(out.stdout.contains("Examples:"), "{args:?}");
    }
}

#[test]
fn version_prints_the_package_version() {
    let out = run(&["--version"], 0);
    assert_eq!(out.stdout, format!("errcat {}\n", env!("CARGO_PKG_VERSION")));
}

#[test]
fn runtime_dataset_classifies_like_the_embedded_catalog() {
    let embedded = run(&["scan", "--json", LOG], 0).stdout;
    let loaded = run(&["--data", DATA, "scan", "--json", LOG], 0).stdout;
    assert_eq!(json_lines(&embedded).len(), 12);
    // The same but for the name of the dataset: `seeds`, and the directory's.
    assert_eq!(loaded, embedded.replace(r#""dataset":"seeds""#, r#""dataset":"nats-server""#));
}

/// Copies the seed dataset into `dir`, with mtimes an hour ago, the
/// directory's too (files and directories modified in the last seconds are
/// not cached).
fn old_copy_of_seeds(dir: &Path) {
    for entry in fs::read_dir(Path::new(ROOT).join(DATA)).unwrap() {
        let path = entry.unwrap().path();
        let copy = dir.join(path.file_name().unwrap());
        fs::copy(&path, &copy).unwrap();
        set_an_hour_ago(&copy);
    }
    set_an_hour_ago(dir);
}

/// Sets the mtime of a file or directory (opened read-only: a directory
/// cannot be opened for writing, and setting times needs only ownership).
fn set_an_hour_ago(path: &Path) {
    let an_hour_ago = std::time::SystemTime::now() - std::time::Duration::from_secs(3600);
    fs::File::open(path).unwrap().set_modified(an_hour_ago).unwrap();
}

#[test]
fn data_runs_from_the_cache_print_what_runs_without_it_print() {
    let data = tempfile::tempdir().unwrap();
    old_copy_of_seeds(data.path());
    let cache = tempfile::tempdir().unwrap();
    let dir = path_str(data.path());
    let message = format!("{PREFIX}{}", persist_message("s1"));
    let runs: Vec<Vec<&str>> =
        vec![vec!["explain", &message], vec!["scan", "--json", LOG], vec!["show", PERSIST.name], vec!["list"]];
    for args in runs {
        let with = |extra: &[&str]| {
            let all: Vec<&str> = ["--data", dir].iter().chain(extra).chain(&args).copied().collect();
            let output = errcat().env("ERRCAT_CACHE_DIR", cache.path()).args(&all).assert().success();
            output.get_output().stdout.clone()
        };
        let first = with(&[]);
        let cached = fs::read_dir(cache.path()).unwrap().count();
        assert_eq!(cached, 1, "the first run wrote the cache ({args:?})");
        assert_eq!(with(&[]), first, "{args:?}");
        assert_eq!(with(&["--no-cache"]), first, "{args:?}");
        assert!(!first.is_empty());
    }
}

#[test]
fn data_runs_see_an_edited_record() {
    let data = tempfile::tempdir().unwrap();
    old_copy_of_seeds(data.path());
    let cache = tempfile::tempdir().unwrap();
    let dir = path_str(data.path());
    let show = || {
        let output =
            errcat().env("ERRCAT_CACHE_DIR", cache.path()).args(["--data", dir, "show", PERSIST.id]).assert().success();
        String::from_utf8(output.get_output().stdout.clone()).unwrap()
    };
    assert!(show().contains("unable to persist session"));
    assert!(show().contains("unable to persist session"));
    let record = data.path().join(format!("{}.json", PERSIST.id));
    let text = fs::read_to_string(&record).unwrap();
    fs::write(&record, text.replace("unable to persist session", "unable to PERSIST session")).unwrap();
    set_an_hour_ago(&record);
    let edited = show();
    assert!(edited.contains("unable to PERSIST session"), "{edited}");
    assert!(!edited.contains("unable to persist session"), "{edited}");
}

#[test]
fn a_rebuilt_cache_says_why_on_stderr_once() {
    let data = tempfile::tempdir().unwrap();
    old_copy_of_seeds(data.path());
    let cache = tempfile::tempdir().unwrap();
    let dir = path_str(data.path());
    let stderr = || {
        let output = errcat().env("ERRCAT_CACHE_DIR", cache.path()).args(["--data", dir, "list"]).assert().success();
        String::from_utf8(output.get_output().stderr.clone()).unwrap()
    };
    assert_eq!(stderr(), "", "a first load writes the cache without a word");
    let record = data.path().join(format!("{}.json", PERSIST.id));
    let text = fs::read_to_string(&record).unwrap();
    fs::write(&record, text.replace("unable to persist session", "unable to PERSIST session")).unwrap();
    set_an_hour_ago(&record);
    let rebuilt = stderr();
    let note = "warning: a record file, directory or the names file changed since the compiled-catalog cache was \
                written; rebuilt from the record files";
    assert_eq!(rebuilt.matches(note).count(), 1, "{rebuilt}");
    assert_eq!(rebuilt.lines().count(), 1, "only the note: {rebuilt}");
    assert_eq!(stderr(), "", "the rebuilt cache is used");
}

#[test]
fn check_reads_the_files_not_the_cache() {
    let data = tempfile::tempdir().unwrap();
    old_copy_of_seeds(data.path());
    let cache = tempfile::tempdir().unwrap();
    let dir = path_str(data.path());
    errcat().env("ERRCAT_CACHE_DIR", cache.path()).args(["--data", dir, "check"]).assert().code(0);
    assert_eq!(fs::read_dir(cache.path()).unwrap().count(), 0);
}

/// A record of the corpus.
struct CorpusRecord {
    id: String,
    /// The Go format string (`errorMessage`).
    format: String,
    /// Whether the message is raised with `errors.New` (plain text, no verbs).
    plain: bool,
}

/// The records of the dataset `dir`, in file order.
fn corpus_records(dir: &Path) -> Vec<CorpusRecord> {
    let mut paths: Vec<_> = fs::read_dir(dir)
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|e| e == "json"))
        .collect();
    paths.sort();
    paths
        .iter()
        .map(|path| {
            let file: Value = serde_json::from_slice(&fs::read(path).unwrap()).unwrap();
            let text = |field: &str| file["record"][field].as_str().unwrap_or("").to_owned();
            CorpusRecord {
                id: text("id"),
                format: text("errorMessage"),
                plain: text("sourceCode").contains("errors.New("),
            }
        })
        .collect()
}

/// A corpus record rendered into a log line.
struct Rendered<'a> {
    record: &'a CorpusRecord,
    line: u64,
    message: String,
    args: Vec<Value>,
}

/// Values for the placeholders of a Go format using only `%s %v %d %q`:
/// `alphaN` for text, `42 + N` for integers, `"q-N"` (held unquoted) for `%q`.
/// `None` for a format with any other `%` sequence.
fn simple_args(format: &str) -> Option<Vec<Value>> {
    let mut args = Vec::new();
    let mut chars = format.chars();
    while let Some(c) = chars.next() {
        if c != '%' {
            continue;
        }
        let n = args.len();
        args.push(match chars.next()? {
            's' | 'v' => json!(format!("alpha{n}")),
            'd' => json!(42 + n),
            'q' => json!(format!("q-{n}")),
            _ => return None,
        });
    }
    Some(args)
}

/// Whether a placeholder of a Go format is followed right away by another,
/// which makes where one value ends ambiguous.
fn placeholders_touch(format: &str) -> bool {
    format.as_bytes().windows(3).any(|w| w[0] == b'%' && w[2] == b'%')
}

/// The characters of a Go format (with two-character verbs) outside its verbs.
fn literal_len(format: &str) -> usize {
    format.chars().count() - 2 * format.matches('%').count()
}

#[test]
fn corpus_messages_are_found_with_their_arguments() {
    let Some(corpus) = support::corpus("nats-server", "corpus_messages_are_found_with_their_arguments") else {
        return;
    };
    let records = corpus_records(&corpus);
    let by_id: HashMap<&str, &CorpusRecord> = records.iter().map(|r| (r.id.as_str(), r)).collect();
    let candidates: Vec<(&CorpusRecord, Vec<Value>)> = records
        .iter()
        .filter(|r| !r.plain && !r.format.trim().is_empty() && !r.format.contains(['\n', '\r']))
        .filter_map(|r| Some((r, simple_args(&r.format)?)))
        .collect();
    let step = (candidates.len() / 200).max(1);

    // Each message after a line that no record explains.
    let mut log = String::new();
    let mut rendered = Vec::new();
    for (n, (record, args)) in candidates.iter().step_by(step).enumerate() {
        let message = render_go(&record.format, args).unwrap();
        log.push_str(&format!(
            "[7] 2026/11/29 17:20:00.123456 [INF] heartbeat {n} of the test clock\n{PREFIX}{message}\n"
        ));
        rendered.push(Rendered { record, line: 2 * n as u64 + 2, message, args: args.clone() });
    }
    let dir = tempfile::tempdir().unwrap();
    let log_path = dir.path().join("corpus.log");
    fs::write(&log_path, &log).unwrap();

    let out = run(&["--data", path_str(&corpus), "scan", "--json", path_str(&log_path)], 0);
    let found = json_lines(&out.stdout);
    assert_eq!(
        lines_of(&found),
        rendered.iter().map(|r| r.line).collect::<Vec<_>>(),
        "every message, and no heartbeat, is found"
    );
    let mut others = 0;
    for (object, expected) in found.iter().zip(&rendered) {
        let context = format!("{} ({}) found as {object}", expected.message, expected.record.id);
        let winner = by_id[object["id"].as_str().unwrap()];
        let args = object["args"].as_array().unwrap();
        let text = spanned(line_of(log.as_bytes(), expected.line), object);
        // What is found renders, with the values found, to the text it spans.
        assert_eq!(render_go(&winner.format, args).as_deref().map(str::as_bytes), Some(text), "{context}");
        let same_message = winner.format == expected.record.format;
        if winner.id != expected.record.id {
            // Another record wins: an earlier one with the same message, or
            // one with more literal text.
            others += 1;
            assert!(
                same_message && winner.id < expected.record.id
                    || literal_len(&winner.format) > literal_len(&expected.record.format),
                "{context}"
            );
        }
        if same_message && !placeholders_touch(&winner.format) {
            assert_eq!(args, &expected.args, "{context}");
            assert_eq!(text, expected.message.as_bytes(), "{context}");
        }
    }
    eprintln!("note: {} corpus messages checked, {others} found as another record", rendered.len());
}

/// `list --severity warn` is `warning`, as `scan --min-severity` reads it;
/// a dataset's own severity is asked for as it writes it.
#[test]
fn list_reads_warn_as_warning_and_a_datasets_own_severity_as_written() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    for (id, severity) in [("w1", "warning"), ("n1", "notice")] {
        let record = json!({"record": {
            "id": id, "repo": "o/r", "filePath": "main.go", "lineNumber": 1,
            "errorMessage": format!("{id} happened: %v"), "severity": severity
        }});
        fs::write(dir.path().join(format!("{id}.json")), record.to_string()).expect("written");
    }
    let list = |severity: &str, code: i32| {
        let output = errcat()
            .arg("--no-cache")
            .arg("--data")
            .arg(dir.path())
            .args(["list", "--json", "--severity", severity])
            .output()
            .expect("runs");
        assert_eq!(output.status.code(), Some(code), "{output:?}");
        let ids: Vec<String> = String::from_utf8(output.stdout)
            .expect("UTF-8")
            .lines()
            .map(|line| {
                serde_json::from_str::<serde_json::Value>(line).expect("JSON")["id"].as_str().unwrap().to_owned()
            })
            .collect();
        (ids, String::from_utf8(output.stderr).expect("UTF-8"))
    };
    assert_eq!(list("warn", 0).0, ["w1"]);
    assert_eq!(list("warning", 0).0, ["w1"]);
    assert_eq!(list("notice", 0).0, ["n1"]);
    let (ids, stderr) = list("error", 1);
    assert!(ids.is_empty());
    assert!(stderr.is_empty(), "JSON output says nothing on stderr: {stderr}");
}

/// `--dialect` reads every record in the dialect given: a Java record's
/// `{}` read as Rust `format!` syntax is a placeholder too, but read as
/// plain text it is literal, and only the literal text matches.
#[test]
fn dialect_forces_the_format_syntax() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let record = json!({"record": {
        "id": "forced", "repo": "o/r", "filePath": "src/Main.java", "lineNumber": 1,
        "errorMessage": "failed to open {} now", "sourceCode": "log.error(\"failed to open {} now\", path);",
        "messagePattern": "failed to open (.*?) now", "severity": "error"
    }});
    fs::write(dir.path().join("forced.json"), record.to_string()).expect("written");
    let scan = |dialect: Option<&str>, line: &str| {
        let mut command = errcat();
        command.arg("--no-cache").arg("--data").arg(dir.path());
        if let Some(dialect) = dialect {
            command.args(["--dialect", dialect]);
        }
        let output = command.args(["scan", "--json", "-"]).write_stdin(format!("{line}\n")).output().expect("runs");
        String::from_utf8(output.stdout).expect("UTF-8")
    };
    assert!(scan(None, "failed to open a.txt now").contains(r#""args":["a.txt"]"#));
    assert!(scan(Some("rust"), "failed to open a.txt now").contains(r#""args":["a.txt"]"#));
    assert!(scan(Some("plain"), "failed to open a.txt now").is_empty());
    assert!(scan(Some("plain"), "failed to open {} now").contains(r#""id":"forced""#));
    errcat()
        .args(["--dialect", "cobol", "list"])
        .assert()
        .failure()
        .stderr(predicates::str::contains("unknown dialect"));
}

/// Two real nats-server lines: a message followed by context (a closing
/// `]`), and Go's `%q` of a client ID that is not UTF-8. Each is found as its
/// most specific record, and the invalid bytes are shown escaped.
#[test]
fn nats_server_lines_with_context_and_invalid_utf8() {
    let Some(corpus) = support::corpus("nats-server", "nats_server_lines_with_context_and_invalid_utf8") else {
        return;
    };
    let log = concat!(
        "[1] 2026/11/29 17:20:00.123456 [TRC] 10.0.0.1:4222 - cid:7 - <<- [PUBLISH wildcards not allowed in publish's topic: \"sensors/+/temp\"]\n",
        "[1] 2026/11/29 17:20:00.123457 [ERR] 10.0.0.1:4222 - cid:7 - invalid utf8 for client ID: \"\\xc3(ab\"\n",
    );
    let out = run_with_stdin(&["--data", path_str(&corpus), "scan", "--json", "-"], log.as_bytes(), 0);
    let found = json_lines(&out.stdout);
    assert_eq!(found.len(), 2, "{}", out.stdout);
    assert_eq!(found[0]["slug"], "wildcards-not-allowed-in-publish-s-topic-q");
    assert_eq!(found[0]["args"], json!(["sensors/+/temp"]));
    assert_eq!(found[1]["slug"], "invalid-utf8-for-s-q");
    assert_eq!(found[1]["args"], json!(["client ID:", "\\xc3(ab"]));
    let out = run_with_stdin(&["--data", path_str(&corpus), "scan", "-"], log.as_bytes(), 0);
    assert!(out.stdout.contains("\\xc3(ab"), "shown escaped: {}", out.stdout);
    assert!(!out.stdout.contains('\u{fffd}'), "never lossy: {}", out.stdout);
}

/// A catalog of `messagePattern`s only (no format string, no source file):
/// lines of several systems, each with its own prefix, are classified to the
/// most literal pattern that matches, with the groups' values, through the
/// regex-free matcher (`(.*?)`, `(\d+)`) and the regex set of a pattern of
/// another shape alike.
#[test]
fn pattern_catalogs_find_the_most_literal_record() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let patterns = [
        ("general", r"Received (.*?)"),
        ("block", r"Received block (.*?) of size (\d+) from (.*?)"),
        ("ssh", r"Failed password for (.*?) from (.*?) port (\d+) ssh2"),
        ("alternation", r"(?:open|close) failed for (\d+)"),
    ];
    for (id, pattern) in patterns {
        let record = json!({"record": {
            "id": id, "repo": "o/r", "slug": id, "errorMessage": "", "messagePattern": pattern,
            "severity": "error", "filePath": null
        }});
        fs::write(dir.path().join(format!("{id}.json")), record.to_string()).expect("written");
    }
    let log = concat!(
        "081109 203615 148 INFO dfs.DataNode$PacketResponder: Received block blk_38865 of size 67108864 from /10.251.42.84\n",
        "081109 203616 149 INFO dfs.DataNode: Received a heartbeat\n",
        "Dec 10 06:55:46 LabSZ sshd[24200]: Failed password for invalid user webmaster from 173.234.31.186 port 38926 ssh2\n",
        "2026-11-29 17:20:00,5 ERROR close failed for 42\n",
        "nothing known here\n",
    );
    let out = run_with_stdin(&["--no-cache", "--data", path_str(dir.path()), "scan", "--json", "-"], log.as_bytes(), 0);
    let found: Vec<(String, Value)> = json_lines(&out.stdout)
        .iter()
        .map(|m| (m["id"].as_str().unwrap_or("").to_owned(), m["args"].clone()))
        .collect();
    assert_eq!(
        found,
        [
            ("block".to_owned(), json!(["blk_38865", "67108864", "/10.251.42.84"])),
            ("general".to_owned(), json!(["a heartbeat"])),
            ("ssh".to_owned(), json!(["invalid user webmaster", "173.234.31.186", "38926"])),
            ("alternation".to_owned(), json!(["42"])),
        ],
        "{}",
        out.stdout
    );
}
