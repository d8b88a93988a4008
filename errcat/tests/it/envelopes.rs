//! `errcat scan` on logs as deployments write them: the same messages in
//! Docker json-file, CRI, journald, syslog, logfmt and JSON envelopes
//! classify, with no option, to the records and values of the bare lines;
//! the pieces of long container lines are joined; levels come from the
//! envelope; `--min-severity` and the summary's severity counts.

use std::borrow::Cow;
use std::fs;
use std::path::Path;

use assert_cmd::Command;
use error_catalog::{Catalog, Value, ValueKind};
use serde_json::{json, Value as Json};
use wrap::{docker_string, go_quote};

use crate::support;
use crate::wrap;

const PREFIX: &str = "[1] 2026/11/29 17:20:35.000001 [ERR] ";
/// A value as hostile as logs give: quotes, the envelopes' own delimiters
/// and escapes (`"`, `\`, `=`, `<>&` that Docker escapes, a tab that it
/// writes as `\u0009`), non-ASCII beyond the BMP (a surrogate pair in JSON).
const HOSTILE: &str = "s \"7\" <x> & y=\\z\té😀";

struct Out {
    stdout: String,
    stderr: String,
}

fn errcat(args: &[&str], dir: &Path) -> Out {
    let out = Command::cargo_bin("errcat").unwrap().args(args).current_dir(dir).output().unwrap();
    Out { stdout: String::from_utf8(out.stdout).unwrap(), stderr: String::from_utf8(out.stderr).unwrap() }
}

/// The JSON objects `errcat scan --json` prints.
fn scanned(out: &Out) -> Vec<Json> {
    out.stdout.lines().map(|line| serde_json::from_str(line).unwrap()).collect()
}

/// What must be the same for a wrapped line as for its bare line.
fn classified(found: &Json) -> (Json, Json, Json, Json) {
    (found["line"].clone(), found["id"].clone(), found["fields"].clone(), found["args"].clone())
}

/// The envelopes, each as a function from the bare line (prefix and
/// message) and the message alone to the wrapped line.
#[allow(clippy::type_complexity)]
fn envelopes() -> Vec<(&'static str, Box<dyn Fn(&str, &str) -> String>)> {
    vec![
        (
            "docker",
            Box::new(|line, _| {
                format!(
                    r#"{{"log":{},"stream":"stderr","time":"2026-11-29T17:20:35.000001Z"}}"#,
                    docker_string(&format!("{line}\n"))
                )
            }),
        ),
        ("cri", Box::new(|line, _| format!("2026-11-29T17:20:35.000001234Z stderr F {line}"))),
        (
            "journald",
            Box::new(|line, _| {
                json!({"__CURSOR": "s=1;i=2", "__REALTIME_TIMESTAMP": "1764436835000001", "PRIORITY": "3",
                       "SYSLOG_IDENTIFIER": "nats-server", "MESSAGE": line})
                .to_string()
            }),
        ),
        ("syslog", Box::new(|line, _| format!("<11>1 2026-11-29T17:20:35.000001Z host-a nats-server 1035 - - {line}"))),
        ("syslog", Box::new(|line, _| format!("<11>Nov  9 17:20:35 host-a nats-server[1035]: {line}"))),
        ("logfmt", Box::new(|_, message| format!("time=2026-11-29T17:20:35Z level=error msg={}", go_quote(message)))),
        ("json", Box::new(|_, message| json!({"level": "error", "ts": 1764436835.5, "msg": message}).to_string())),
        (
            "cri",
            Box::new(|_, message| {
                let inner = json!({"time": "2026-11-29T17:20:35Z", "level": "ERROR", "msg": message});
                format!("2026-11-29T17:20:35.000001234Z stdout F {inner}")
            }),
        ),
    ]
}

/// Scans the bare lines and each envelope's rendering of them (one file
/// each, no option): every envelope gives the bare scan's matches, on the
/// same line numbers, with the same records and values. Gives how many
/// lines matched.
fn same_as_bare(dir: &Path, data: &[&str], messages: &[String]) -> usize {
    let bare: Vec<String> = messages.iter().map(|message| format!("{PREFIX}{message}")).collect();
    let bare_lines = &bare;
    fs::write(dir.join("bare.log"), bare.join("\n") + "\n").unwrap();
    let scan = |file: &str| errcat(&[data, &["scan", "--json", file]].concat(), dir);
    let expected = scanned(&scan("bare.log"));
    assert!(!expected.is_empty());
    for (index, (name, wrap)) in envelopes().iter().enumerate() {
        let lines: Vec<String> = bare.iter().zip(messages).map(|(line, message)| wrap(line, message)).collect();
        let file = format!("wrapped-{index}-{name}.log");
        fs::write(dir.join(&file), lines.join("\n") + "\n").unwrap();
        let out = scan(&file);
        let found = scanned(&out);
        assert_eq!(found.len(), expected.len(), "{name}: {}", out.stderr);
        for (wrapped, bare) in found.iter().zip(&expected) {
            assert_eq!(classified(wrapped), classified(bare), "{name}");
            assert_eq!(wrapped["envelope"], *name);
            // Spans are in the input line: `message_span` where the message
            // out of its envelope is; `span` and `field_spans` where the
            // record's message and values are, when the message is the
            // line's own bytes, else (escapes undone) `span` is the
            // message's and the values' places are not given.
            let line = &lines[wrapped["line"].as_u64().unwrap() as usize - 1];
            let at = |key: &str| -> (usize, usize) { serde_json::from_value(wrapped[key].clone()).unwrap() };
            let (message, span) = (at("message_span"), at("span"));
            let in_line = &line[message.0..message.1];
            let bare_line = &bare_lines[bare["line"].as_u64().unwrap() as usize - 1];
            let bare_span: (usize, usize) = serde_json::from_value(bare["span"].clone()).unwrap();
            // The message in the line (the bare line, or its message
            // without the prefix): the bare line's spans, moved.
            if bare_line.ends_with(in_line) {
                let moved = |at: u64| (at as usize + message.0).checked_sub(bare_line.len() - in_line.len()).unwrap();
                assert_eq!(span, (moved(bare_span.0 as u64), moved(bare_span.1 as u64)), "{name}: {line}");
                for (field, bare_at) in bare["field_spans"].as_object().unwrap() {
                    let shifted = bare_at.as_array().map(|at| {
                        let at: Vec<usize> = at.iter().map(|i| moved(i.as_u64().unwrap())).collect();
                        serde_json::json!(at)
                    });
                    assert_eq!(wrapped["field_spans"][field], shifted.unwrap_or_default(), "{name}: {line}");
                }
            } else {
                assert_eq!(span, message, "{name}: {line}");
                assert!(wrapped["field_spans"].is_null(), "{name}: {line}");
            }
        }
    }
    expected.len()
}

#[test]
fn the_issue_s_examples_classify_in_every_envelope_with_no_option() {
    let dir = tempfile::tempdir().unwrap();
    let messages = [
        format!("unable to persist session \"{}\" (seq=5): write tcp 10.0.0.7:4222: i/o timeout", "s7"),
        format!("unable to persist session {:?} (seq=5): disk <full> & more", HOSTILE),
        "unable to persist session \"\" (seq=0): ".to_owned(),
        "create QoS2 incoming messages stream for account \"日本 \\\"acc\\\"\": nats: timeout".to_owned(),
    ];
    assert_eq!(same_as_bare(dir.path(), &[], &messages), messages.len());
}

/// Renders every record of `catalog` it can with hostile values; keeps the
/// messages whose bare line classifies back to the same record and values.
#[allow(unreachable_patterns)]
fn rendered(catalog: &Catalog) -> Vec<String> {
    let mut messages = Vec::new();
    for (index, entry) in catalog.entries().iter().enumerate() {
        let values: Option<Vec<Value<'static>>> = entry
            .template
            .fields
            .iter()
            // `ValueKind` will be `#[non_exhaustive]`: the wildcard arm stays.
            .map(|field| match field.kind {
                ValueKind::Int => Some(Value::Int(-42)),
                ValueKind::Float => Some(Value::Float(2.5)),
                ValueKind::Bool => Some(Value::Bool(true)),
                ValueKind::Quoted => Some(Value::Str(Cow::Borrowed(HOSTILE))),
                ValueKind::Text => Some(Value::Str(Cow::Borrowed("a <b> & c"))),
                _ => None,
            })
            .collect();
        let Some(values) = values else { continue };
        let Ok(message) = catalog.render(index, &values) else { continue };
        if message.contains('\n') || message.contains('\r') {
            continue;
        }
        let line = format!("{PREFIX}{message}");
        if catalog.find(&line).is_some_and(|found| found.index == index && found.values == values) {
            messages.push(message);
        }
    }
    messages
}

#[test]
fn nats_server_corpus_messages_classify_in_every_envelope_as_bare() {
    let Some(corpus) = support::corpus("nats-server", "nats_server_corpus_messages_classify_in_every_envelope_as_bare")
    else {
        return;
    };
    let catalog = Catalog::load(&corpus).unwrap();
    let messages = rendered(&catalog);
    assert!(messages.len() > 1000, "{} messages", messages.len());
    let dir = tempfile::tempdir().unwrap();
    let data = corpus.to_str().unwrap();
    let matched = same_as_bare(dir.path(), &["--data", data, "--no-cache"], &messages);
    assert_eq!(matched, messages.len());
}

/// The buffer scan of wrapped lines (the prefilter over the raw lines, and
/// only the lines that may match unwrapped) finds what unwrapping every
/// line one by one finds (as `--unmatched` does): the same lines, records,
/// values, spans and envelope fields, for every record of the corpus with
/// hostile values, each beside a line cut short in its middle (most of its
/// literal text, matching nothing), in every envelope.
#[test]
fn wrapped_lines_scanned_at_once_match_as_unwrapped_one_by_one() {
    let Some(corpus) = support::corpus("nats-server", "wrapped_lines_scanned_at_once_match_as_unwrapped_one_by_one")
    else {
        return;
    };
    let catalog = Catalog::load(&corpus).unwrap();
    // Every template has a literal to look for: lines are passed over.
    let filtered = error_catalog::Envelope::Docker.lines_that_may_match(catalog.matcher(), "x\n", |_, _| {});
    assert_eq!(filtered, Some(1));
    let mut messages = Vec::new();
    for message in rendered(&catalog) {
        let chars: Vec<char> = message.chars().collect();
        let middle = chars.len() / 2;
        let cut: String = chars[..middle].iter().chain(chars.iter().skip(middle + 3)).collect();
        messages.extend([message, cut]);
    }
    let dir = tempfile::tempdir().unwrap();
    let data = ["--data", corpus.to_str().unwrap(), "--no-cache"];
    let found =
        |out: &Out| -> Vec<Json> { scanned(out).into_iter().filter(|object| object.get("id").is_some()).collect() };
    for (index, (name, wrap)) in envelopes().iter().enumerate() {
        let lines: Vec<String> = messages.iter().map(|message| wrap(&format!("{PREFIX}{message}"), message)).collect();
        let file = format!("wrapped-{index}-{name}.log");
        fs::write(dir.path().join(&file), lines.join("\n") + "\n").unwrap();
        let at_once = errcat(&[&data[..], &["scan", "--json", &file]].concat(), dir.path());
        let one_by_one = errcat(&[&data[..], &["scan", "--json", "--unmatched", "TRC", &file]].concat(), dir.path());
        let (at_once, one_by_one) = (found(&at_once), found(&one_by_one));
        assert!(at_once.len() * 3 > messages.len(), "{name}: {} of {}", at_once.len(), messages.len());
        assert_eq!(at_once.len(), one_by_one.len(), "{name}");
        for (fast, slow) in at_once.iter().zip(&one_by_one) {
            assert_eq!(fast, slow, "{name}");
        }
    }
}

/// A Docker json-file line of `text` on `stream`.
fn docker_line(text: &str, stream: &str) -> String {
    format!(r#"{{"log":{},"stream":"{stream}","time":"2026-11-29T17:20:35.000001Z"}}"#, docker_string(text))
}

#[test]
fn invalid_utf8_in_a_docker_log_is_reported_and_every_other_line_classified() {
    // A line that is passed over, or one that may match, with bytes that
    // are not UTF-8: the scan, which reads only the lines it unwraps as
    // text, must still report it (with the embedded catalog).
    let dir = tempfile::tempdir().unwrap();
    let persist = |ps_id: &str| {
        docker_line(&format!("{PREFIX}unable to persist session \"{ps_id}\" (seq=7): nats: timeout\n"), "stderr")
    };
    let passed_over = docker_line("[1] 2026/11/29 17:20:35.000001 [INF] latin XX here\n", "stdout");
    for (name, broken) in [("passed-over", passed_over), ("matching", persist("s-XX"))] {
        // `XX` (after wrapping) becomes the bytes 0xff 0xfe.
        let broken = broken.replacen("XX", "\u{1}\u{2}", 1).into_bytes().into_iter().map(|byte| match byte {
            1 => 0xff,
            2 => 0xfe,
            byte => byte,
        });
        let mut log = [persist("s-1").into_bytes(), broken.collect(), persist("s-3").into_bytes()].join(&b'\n');
        log.push(b'\n');
        let file = format!("{name}.log");
        fs::write(dir.path().join(&file), &log).unwrap();
        let out = errcat(&["scan", "--json", &file], dir.path());
        let found = scanned(&out);
        let lines: Vec<u64> =
            found.iter().filter(|f| f.get("id").is_some()).map(|f| f["line"].as_u64().unwrap()).collect();
        let expected_lines: &[u64] = if name == "matching" { &[1, 2, 3] } else { &[1, 3] };
        assert_eq!(lines, expected_lines, "{name}: {}", out.stdout);
        let expected = format!("{file}:2: invalid UTF-8");
        assert!(out.stderr.contains(&expected), "{name}: expected {expected:?} in:\n{}", out.stderr);
    }
}

/// The pieces of a long line as Docker writes them: at most 16 KiB of the
/// line each, only the last with the `\n` (moby `daemon/logger/copier.go`,
/// `defaultBufSize = 16 * 1024`; the line is ASCII here: Docker cuts bytes,
/// see docs/logs.md on what cannot be recovered).
fn docker_pieces(line: &str, stream: &str) -> Vec<String> {
    let whole = format!("{line}\n");
    let bytes = whole.as_bytes();
    bytes.chunks(16 * 1024).map(|piece| docker_line(std::str::from_utf8(piece).unwrap(), stream)).collect()
}

#[test]
fn pieces_of_long_container_lines_are_joined_across_chunks_and_streams() {
    let dir = tempfile::tempdir().unwrap();
    let session = format!("{}\"{}", "x".repeat(40_000), HOSTILE);
    let long = format!("{PREFIX}unable to persist session {session:?} (seq=5): timeout");
    let short = format!("{PREFIX}unable to persist session \"s1\" (seq=1): timeout");
    // Filler, so that the pieces straddle the first 1 MiB chunk's end.
    let filler = docker_line("[1] 2026/11/29 17:20:35.000001 [INF] nothing to see here\n", "stdout");
    let mut lines = vec![filler; (1 << 20) / 100 - 20];
    let first_piece = lines.len() + 1;
    let pieces = docker_pieces(&long, "stderr");
    assert_eq!(pieces.len(), 3);
    lines.push(pieces[0].clone());
    // A whole line of the other stream between the pieces.
    lines.push(docker_line(&format!("{short}\n"), "stdout"));
    lines.extend(pieces[1..].iter().cloned());
    fs::write(dir.path().join("docker.log"), lines.join("\n") + "\n").unwrap();
    let cri = [
        format!("2026-11-29T17:20:35.000000001Z stderr P {}", &long[..20_000]),
        format!("2026-11-29T17:20:35.000000002Z stderr P {}", &long[20_000..30_000]),
        format!("2026-11-29T17:20:35.000000003Z stdout F {short}"),
        format!("2026-11-29T17:20:35.000000004Z stderr F {}", &long[30_000..]),
    ];
    fs::write(dir.path().join("cri.log"), cri.join("\n") + "\n").unwrap();
    for threads in ["1", "2"] {
        for (file, long_line, short_line) in [("docker.log", first_piece, first_piece + 1), ("cri.log", 1, 3)] {
            let out = errcat(&["scan", "--json", "--threads", threads, file], dir.path());
            let found = scanned(&out);
            let places: Vec<(u64, &str)> =
                found.iter().map(|f| (f["line"].as_u64().unwrap(), f["fields"]["ps_id"].as_str().unwrap())).collect();
            assert_eq!(places, [(short_line as u64, "s1"), (long_line as u64, session.as_str())], "{file}");
            assert!(out.stderr.is_empty(), "{file}: {}", out.stderr);
        }
    }
}

#[test]
fn a_line_of_too_many_pieces_is_classified_as_it_stands_with_a_note() {
    let dir = tempfile::tempdir().unwrap();
    let mut lines: Vec<String> = (0..130).map(|i| format!("2026-11-29T17:20:35.{i:09}Z stderr P piece {i} ")).collect();
    // A line whose last piece never comes, at the end of the input.
    lines.push(format!("2026-11-29T17:20:36.000000000Z stdout P {PREFIX}unable to persist session \"s\" (seq=1): "));
    fs::write(dir.path().join("cut.log"), lines.join("\n") + "\n").unwrap();
    let out = errcat(&["scan", "--json", "cut.log"], dir.path());
    assert!(out.stderr.contains("cut.log:1: a line of more than 1 MiB or 128 pieces"), "{}", out.stderr);
    assert!(out.stderr.contains("cut.log:131: the last piece of this line never came"), "{}", out.stderr);
    let found = scanned(&out);
    assert_eq!(found.len(), 1, "{}", out.stdout);
    assert_eq!((found[0]["line"].as_u64(), found[0]["fields"]["err"].as_str()), (Some(131), Some("")));
}

#[test]
fn unmatched_lines_take_their_level_from_the_envelope() {
    let dir = tempfile::tempdir().unwrap();
    let logs = [
        (
            "app.json",
            vec![
                json!({"level": "error", "msg": "disk <full>"}).to_string(),
                json!({"level": "info", "msg": "started"}).to_string(),
                json!({"level": 40, "msg": "pino warns"}).to_string(),
            ],
        ),
        ("app.logfmt", vec!["level=error msg=\"disk full\" a=1".into(), "level=debug msg=\"ERROR: not this\"".into()]),
        (
            "journal.json",
            vec![
                json!({"__CURSOR": "s=1", "PRIORITY": "3", "MESSAGE": "disk full"}).to_string(),
                json!({"__CURSOR": "s=2", "PRIORITY": "6", "MESSAGE": "[ERR] the envelope's level wins"}).to_string(),
            ],
        ),
    ];
    for (file, lines) in &logs {
        fs::write(dir.path().join(file), lines.join("\n") + "\n").unwrap();
    }
    let out = errcat(&["scan", "--unmatched", "ERR,WRN", "app.json", "app.logfmt", "journal.json"], dir.path());
    let listed: Vec<&str> = out.stdout.lines().filter(|line| line.contains(": unmatched ")).collect();
    assert_eq!(
        listed,
        [
            "app.json:1: unmatched ERR: disk <full>",
            "app.json:3: unmatched WRN: pino warns",
            "app.logfmt:1: unmatched ERR: disk full",
            "journal.json:1: unmatched ERR: disk full",
        ],
        "{}",
        out.stdout
    );
}

/// A dataset of three records, one per severity, the info one with a name
/// longer than a terminal's summary column.
fn severities_dataset(dir: &Path) -> std::path::PathBuf {
    let data = dir.join("data");
    fs::create_dir_all(&data).unwrap();
    let records = [
        ("a000000000000001", "error", "disk is full on volume %q"),
        ("a000000000000002", "warning", "slow consumer detected for client %v"),
        ("a000000000000003", "info", "the periodic background compaction of the write ahead log completed in %v"),
    ];
    for (id, severity, message) in records {
        let record = json!({"record": {"id": id, "repo": "example/app", "slug": id, "errorMessage": message,
                                       "severity": severity, "filePath": "main.go"}});
        fs::write(data.join(format!("{id}.json")), record.to_string()).unwrap();
    }
    // A pinned name longer than the 48 columns a terminal's summary gives it.
    let names = "a000000000000003 PeriodicBackgroundCompactionOfTheWriteAheadLogCompletedInTime\n";
    fs::write(data.join("error-catalog.names"), names).unwrap();
    data
}

#[test]
fn min_severity_keeps_the_severe_and_the_summary_counts_severities_apart() {
    let dir = tempfile::tempdir().unwrap();
    let data = severities_dataset(dir.path());
    let lines = [
        json!({"level": "info", "msg": "the periodic background compaction of the write ahead log completed in 5s"}),
        json!({"level": "info", "msg": "the periodic background compaction of the write ahead log completed in 6s"}),
        json!({"level": "info", "msg": "the periodic background compaction of the write ahead log completed in 7s"}),
        json!({"level": "warn", "msg": "slow consumer detected for client 7"}),
        json!({"level": "warn", "msg": "slow consumer detected for client 8"}),
        json!({"level": "error", "msg": "disk is full on volume \"/var/é\""}),
    ];
    let text: Vec<String> = lines.iter().map(Json::to_string).collect();
    fs::write(dir.path().join("app.log"), text.join("\n") + "\n").unwrap();
    let data = data.to_str().unwrap();
    let out = errcat(&["--data", data, "--no-cache", "scan", "--count", "app.log"], dir.path());
    let rows: Vec<Vec<&str>> =
        out.stdout.lines().skip(1).take(3).map(|line| line.split_whitespace().take(3).collect()).collect();
    // The most severe first, then the most frequent; the long name whole.
    assert_eq!(
        rows,
        [
            ["1", "error", "DiskIsFullOnVolume"],
            ["2", "warning", "SlowConsumerDetectedForClient"],
            ["3", "info", "PeriodicBackgroundCompactionOfTheWriteAheadLogCompletedInTime"],
        ],
        "{}",
        out.stdout
    );
    assert!(out.stdout.contains("1 error line(s), 2 warning line(s), 3 info/debug line(s)\n"), "{}", out.stdout);
    // The HTML report's header counts them apart too.
    errcat(&["--data", data, "--no-cache", "scan", "--count", "--html", "report.html", "app.log"], dir.path());
    let page = fs::read_to_string(dir.path().join("report.html")).unwrap();
    assert!(page.contains("1 error line, 2 warning lines, 3 info/debug lines · app.log"), "{page}");
    let out =
        errcat(&["--data", data, "--no-cache", "scan", "--json", "--min-severity", "warn", "app.log"], dir.path());
    let lines: Vec<u64> = scanned(&out).iter().map(|found| found["line"].as_u64().unwrap()).collect();
    assert_eq!(lines, [4, 5, 6]);
    let out = errcat(&["scan", "--min-severity", "loud", "app.log"], dir.path());
    assert!(out.stderr.contains("not a severity"), "{}", out.stderr);
}

#[test]
fn several_datasets_scan_as_one_catalog_and_a_shared_id_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let apps = severities_dataset(dir.path());
    let nats = Path::new(env!("CARGO_MANIFEST_DIR")).join("../data/nats-io/nats-server");
    let log = [
        json!({"level": "error", "msg": "disk is full on volume \"/var\""}).to_string(),
        json!({"level": "error", "msg": "unable to persist session \"s7\" (seq=5): timeout"}).to_string(),
    ];
    fs::write(dir.path().join("mixed.log"), log.join("\n") + "\n").unwrap();
    let (apps, nats) = (apps.to_str().unwrap(), nats.to_str().unwrap());
    let names =
        |out: &Out| scanned(out).iter().map(|found| found["name"].as_str().unwrap().to_owned()).collect::<Vec<_>>();
    let out = errcat(&["--data", apps, "--data", nats, "--no-cache", "scan", "--json", "mixed.log"], dir.path());
    assert_eq!(names(&out), ["DiskIsFullOnVolume", "UnableToPersistSession"], "{}", out.stderr);
    // $ERRCAT_DATA, a path list as $PATH is.
    let joined = std::env::join_paths([apps, nats]).unwrap();
    let listed = Command::cargo_bin("errcat")
        .unwrap()
        .env("ERRCAT_DATA", &joined)
        .args(["--no-cache", "list", "--json"])
        .current_dir(dir.path())
        .output()
        .unwrap();
    let records: Vec<Json> =
        String::from_utf8(listed.stdout).unwrap().lines().map(|line| serde_json::from_str(line).unwrap()).collect();
    assert_eq!(records.len(), 6);
    let file = |id: &str| records.iter().find(|r| r["id"] == id).unwrap()["file"].as_str().unwrap().to_owned();
    assert!(file("a000000000000001").starts_with(apps), "{}", file("a000000000000001"));
    assert!(file("503f49fe39cf5793").starts_with(nats), "{}", file("503f49fe39cf5793"));
    let out = errcat(&["--data", apps, "--data", apps, "--no-cache", "scan", "mixed.log"], dir.path());
    assert!(out.stderr.contains("the record id a000000000000001 is in both"), "{}", out.stderr);
    assert!(out.stdout.is_empty());
}

#[test]
fn java_python_and_go_traces_are_one_event_with_the_trace_as_context() {
    let dir = tempfile::tempdir().unwrap();
    let data = severities_dataset(dir.path());
    let log = [
        "2026-11-29 17:20:35,001 ERROR disk is full on volume \"/var\"",
        "\tat com.example.Store.write(Store.java:42)",
        "Caused by: java.io.IOException: slow consumer detected for client 7",
        "\t... 3 more",
        "Traceback (most recent call last):",
        "  File \"app.py\", line 3, in <module>",
        "    main()",
        "OSError: disk is full on volume \"/tmp\"",
        "panic: disk is full on volume \"/go\"",
        "",
        "goroutine 1 [running]:",
        "main.main()",
        "\t/app/main.go:8 +0x1d",
        "exit status 2",
        "slow consumer detected for client 8",
    ];
    fs::write(dir.path().join("traces.log"), log.join("\n") + "\n").unwrap();
    let out = errcat(&["--data", data.to_str().unwrap(), "--no-cache", "scan", "--json", "traces.log"], dir.path());
    let found = scanned(&out);
    let events: Vec<(u64, &str, Option<&str>)> = found
        .iter()
        .map(|f| (f["line"].as_u64().unwrap(), f["name"].as_str().unwrap(), f["context"].as_str()))
        .collect();
    assert_eq!(
        events,
        [
            (1, "DiskIsFullOnVolume", Some(log[1..4].join("\n").as_str())),
            (8, "DiskIsFullOnVolume", Some(log[4..7].join("\n").as_str())),
            (9, "DiskIsFullOnVolume", Some(log[9..14].join("\n").as_str())),
            (15, "SlowConsumerDetectedForClient", None),
        ],
        "{}",
        out.stdout
    );
    // The `Caused by:` line is the first event's context, not a match of its own.
    assert_eq!(found[0]["fields"]["arg0"], "/var", "{}", out.stdout);

    // A Java trace in Docker (whose tabs are `\u0009`) and in JSON logs:
    // the same events, whether each line is read alone (`--unmatched`) or not.
    let java = [&log[..4], &log[14..]].concat();
    let expected = [
        (1, "DiskIsFullOnVolume".to_owned(), Some(log[1..4].join("\n"))),
        (5, "SlowConsumerDetectedForClient".to_owned(), None),
    ];
    let wrapped = [
        java.iter().map(|line| docker_line(&format!("{line}\n"), "stderr")).collect::<Vec<_>>(),
        java.iter().map(|line| json!({"level": "error", "msg": line}).to_string()).collect(),
    ];
    for lines in wrapped {
        assert_events_whichever_path(dir.path(), &data, &lines, &expected);
    }
}

/// Scans `lines` with `--json`, as they are and with each line read alone
/// (`--unmatched`), and checks that both give the `expected` events:
/// (line, name, context).
fn assert_events_whichever_path(dir: &Path, data: &Path, lines: &[String], expected: &[(u64, String, Option<String>)]) {
    fs::write(dir.join("wrapped.log"), lines.join("\n") + "\n").unwrap();
    for unmatched in [&[][..], &["--unmatched", "TRC"]] {
        let data = ["--data", data.to_str().unwrap(), "--no-cache", "scan", "--json"];
        let out = errcat(&[&data[..], unmatched, &["wrapped.log"]].concat(), dir);
        let found: Vec<(u64, String, Option<String>)> = scanned(&out)
            .iter()
            .filter(|f| f.get("id").is_some())
            .map(|f| {
                let context = f["context"].as_str().map(str::to_owned);
                (f["line"].as_u64().unwrap(), f["name"].as_str().unwrap().to_owned(), context)
            })
            .collect();
        assert_eq!(found, expected, "{unmatched:?}: {}", lines[1]);
    }
}

#[test]
fn a_trace_is_grouped_the_same_whether_lines_are_read_alone_or_at_once() {
    // Frames indented with two spaces and a dump of goroutines without a
    // panic: no line of the kinds the chunk's first look used to search
    // for, so lines were classified at once and the traces lost, unless
    // each line was read alone (`--unmatched`).
    let dir = tempfile::tempdir().unwrap();
    let data = severities_dataset(dir.path());
    let log = [
        "2026-11-29 17:20:35,001 ERROR disk is full on volume \"/var\"",
        "  at com.example.Store.write(Store.java:42)",
        "  at com.example.Main.main(Main.java:7)",
        "slow consumer detected for client 7",
        "goroutine 1 [running]:",
        "main.main()",
        "slow consumer detected for client 8",
    ];
    let expected = [
        (1, "DiskIsFullOnVolume".to_owned(), Some(log[1..3].join("\n"))),
        (4, "SlowConsumerDetectedForClient".to_owned(), Some(log[4..6].join("\n"))),
        (7, "SlowConsumerDetectedForClient".to_owned(), None),
    ];
    let wrapped = [
        log.iter().map(|line| line.to_string()).collect::<Vec<_>>(),
        log.iter().map(|line| docker_line(&format!("{line}\n"), "stderr")).collect(),
    ];
    for lines in wrapped {
        assert_events_whichever_path(dir.path(), &data, &lines, &expected);
    }
}
