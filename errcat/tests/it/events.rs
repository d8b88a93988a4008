//! `errcat scan` and `draft` on events of several lines that real programs
//! wrote (`tests/data/events/`, from `tools/real/events/generate.sh`):
//! CPython's exception chains and Django 5.2.19's log of failed requests
//! (the `Internal Server Error: …` line, then the traceback), Java's traces
//! through SLF4J (`ERROR … failed`, the exception, `Caused by:`). A chain is
//! one event of its outermost exception's record with the inner exceptions
//! as causes; the line that introduces a trace is part of it; an event no
//! record explains shows once under `--unmatched` and is one input of
//! `draft`; `--json` gives where each event starts and ends, for plain
//! files, pipes and envelopes alike.

use std::fs;
use std::path::{Path, PathBuf};

use assert_cmd::Command;
use serde_json::{json, Value as Json};

use crate::wrap::docker_string;

fn log_path(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/events").join(name)
}

fn log_text(name: &str) -> String {
    fs::read_to_string(log_path(name)).expect("tests/data/events is checked in")
}

const SERVER_ERROR: &str = "e000000000000001";
const NO_ORDER: &str = "e000000000000002";
const NO_QUANTITY: &str = "e000000000000003";
const INVALID_INT: &str = "e000000000000004";
const PERSIST: &str = "e000000000000005";
const DISK_FULL: &str = "e000000000000006";

/// The shop's records, in `dir`: the messages its programs raise and log
/// (or, with `explaining` false, one that none of them writes).
fn shop_dataset(dir: &Path, explaining: bool) -> PathBuf {
    let data = dir.join(if explaining { "shop" } else { "other" });
    fs::create_dir_all(&data).unwrap();
    let records: &[(&str, &str, &str)] = if explaining {
        &[
            (SERVER_ERROR, "Internal Server Error: %s", "django/utils/log.py"),
            (NO_ORDER, "no order %s", "shop/views.py"),
            (NO_QUANTITY, "order %s has no valid quantity", "shop/orders.py"),
            (INVALID_INT, "invalid literal for int() with base 10: %r", "shop/orders.py"),
            (PERSIST, "unable to persist session %s", "src/main/java/App.java"),
            (DISK_FULL, "disk full writing %s", "src/main/java/App.java"),
        ]
    } else {
        &[("e000000000000009", "the periodic compaction of the log finished in %s", "shop/jobs.py")]
    };
    for (id, message, file) in records {
        let record = json!({"record": {"id": id, "repo": "example/shop", "slug": id, "errorMessage": message,
                                       "severity": "error", "filePath": file}});
        fs::write(data.join(format!("{id}.json")), record.to_string()).unwrap();
    }
    data
}

/// `errcat --data DATA ARGS` with `stdin`: standard output.
fn errcat(data: &Path, args: &[&str], stdin: &[u8]) -> String {
    let out = Command::cargo_bin("errcat")
        .unwrap()
        .arg("--data")
        .arg(data)
        .arg("--no-cache")
        .args(args)
        .write_stdin(stdin)
        .output()
        .unwrap();
    assert!(out.status.code().is_some_and(|code| code <= 1), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap()
}

/// The objects of `scan --json ARGS` on the log `name`.
fn scanned(data: &Path, name: &str, args: &[&str]) -> Vec<Json> {
    let path = log_path(name);
    let args = [&["scan", "--json"], args, &[path.to_str().unwrap()]].concat();
    errcat(data, &args, b"").lines().map(|line| serde_json::from_str(line).unwrap()).collect()
}

/// An event as a test reads it: (line, id or `unmatched`, start line, end line).
fn event(object: &Json) -> (u64, String, u64, u64) {
    let line = object["line"].as_u64().unwrap();
    let id = object["id"].as_str().unwrap_or("unmatched").to_owned();
    let (start, end) = (object["start_line"].as_u64(), object["end_line"].as_u64());
    (line, id, start.unwrap_or(line), end.unwrap_or(line))
}

/// A part (`intro`, a cause) as (line, id or `-`).
fn part(object: &Json) -> (u64, String) {
    (object["line"].as_u64().unwrap(), object["id"].as_str().unwrap_or("-").to_owned())
}

fn causes(object: &Json) -> Vec<(u64, String)> {
    object["causes"].as_array().map_or(Vec::new(), |causes| causes.iter().map(part).collect())
}

fn owned(events: &[(u64, &str, u64, u64)]) -> Vec<(u64, String, u64, u64)> {
    events.iter().map(|&(line, id, start, end)| (line, id.to_owned(), start, end)).collect()
}

#[test]
fn a_python_exception_chain_is_one_event_of_its_last_exception_with_the_others_as_causes() {
    let dir = tempfile::tempdir().unwrap();
    let data = shop_dataset(dir.path(), true);
    let found = scanned(&data, "python-chains.log", &[]);
    let events: Vec<_> = found.iter().map(event).collect();
    // A `ValueError` raised while handling a `KeyError`, logged after
    // `Internal Server Error: …`; a `LookupError` raised from that chain;
    // a lone `ValueError` after a warning; the uncaught chain at the end.
    let expected =
        [(17, INVALID_INT, 2, 17), (43, NO_QUANTITY, 18, 43), (48, INVALID_INT, 44, 48), (74, NO_QUANTITY, 50, 74)];
    assert_eq!(events, owned(&expected));
    let log = log_text("python-chains.log");
    let lines: Vec<&str> = log.lines().collect();
    assert!(lines[16].starts_with("ValueError: ") && lines[42].starts_with("LookupError: "));
    assert_eq!(causes(&found[0]), [(7, "-".to_owned())], "the KeyError, which no record explains");
    assert_eq!(causes(&found[1]), [(34, INVALID_INT.to_owned()), (23, "-".to_owned())], "the nearest first");
    assert_eq!(found[1]["causes"][0]["fields"]["arg0"], "abc");
    assert_eq!(found[1]["causes"][0]["text"], lines[33]);
    assert!(found[1]["causes"][0].get("span").is_none(), "a cause's span would not be in a line as read");
    assert_eq!(found[1]["fields"]["arg0"], "7");
    assert_eq!(
        causes(&found[3]),
        causes(&found[1]).iter().map(|(line, id)| (line + 31, id.clone())).collect::<Vec<_>>()
    );
    // The lines that introduced the traces, with their records.
    assert_eq!(part(&found[0]["intro"]), (2, SERVER_ERROR.to_owned()));
    assert_eq!(found[0]["intro"]["fields"]["arg0"], "/orders/7");
    assert_eq!(part(&found[1]["intro"]), (18, "-".to_owned()));
    assert_eq!(found[1]["intro"]["text"], lines[17]);
    assert_eq!(part(&found[2]["intro"]), (44, "-".to_owned()));
    assert!(found[3].get("intro").is_none(), "the uncaught chain follows an INFO line, which introduces nothing");
    // The context is every line of the event but the message and the intro.
    assert_eq!(found[1]["context"], lines[18..42].join("\n"));
    // The span is in the message's line, as read.
    let span: Vec<usize> = serde_json::from_value(found[1]["span"].clone()).unwrap();
    assert_eq!(&lines[42][span[0]..span[1]], "order 7 has no valid quantity");

    // One event each: the text output and the counts.
    let path = log_path("python-chains.log");
    let text = errcat(&data, &["scan", path.to_str().unwrap()], b"");
    let places: Vec<&str> = text.lines().filter(|line| line.starts_with(path.to_str().unwrap())).collect();
    assert_eq!(places.len(), 4, "{text}");
    assert!(text.contains("4 matching line(s), 2 distinct error(s)"), "{text}");
}

#[test]
fn the_line_of_django_s_log_that_introduces_a_traceback_is_one_event_with_it() {
    let dir = tempfile::tempdir().unwrap();
    let data = shop_dataset(dir.path(), true);
    let found = scanned(&data, "django-requests.log", &["--unmatched", "warning"]);
    let events: Vec<_> = found.iter().map(event).collect();
    // `/orders/7`: the view's `ValueError` (raised from a `KeyError`) is
    // the record, `Internal Server Error: /orders/7` the intro. `/stock`:
    // Django's `MultiValueDictKeyError`, which no record explains, so the
    // intro's record explains the event. `/missing`: a line of its own.
    assert_eq!(events, owned(&[(19, NO_ORDER, 1, 19), (20, SERVER_ERROR, 20, 41), (42, "unmatched", 42, 42)]));
    assert_eq!(part(&found[0]["intro"]), (1, SERVER_ERROR.to_owned()));
    assert_eq!(found[0]["fields"]["arg0"], "7");
    assert_eq!(causes(&found[0]), [(6, "-".to_owned())]);
    assert_eq!(found[1]["fields"]["arg0"], "/stock");
    assert!(found[1].get("intro").is_none(), "the intro is the event's record");
    assert_eq!(causes(&found[1]), [(25, "-".to_owned())]);
    let log = log_text("django-requests.log");
    let lines: Vec<&str> = log.lines().collect();
    assert_eq!(found[1]["context"], lines[20..41].join("\n"), "the traceback, whole");
    assert!(lines[40].starts_with("django.utils.datastructures.MultiValueDictKeyError"));
}

#[test]
fn a_java_trace_through_slf4j_is_one_event_with_its_intro_and_causes() {
    let dir = tempfile::tempdir().unwrap();
    let data = shop_dataset(dir.path(), true);
    let found = scanned(&data, "java-slf4j.log", &[]);
    let events: Vec<_> = found.iter().map(event).collect();
    // `log.error("request failed …", e)`, then the uncaught exception: the
    // JVM's `Exception in thread "main"` follows a WARN line, which does
    // not introduce it.
    assert_eq!(events, owned(&[(3, PERSIST, 2, 9), (11, PERSIST, 11, 17)]));
    assert_eq!(part(&found[0]["intro"]), (2, "-".to_owned()));
    assert_eq!(found[0]["intro"]["text"], "[main] ERROR App - request failed for session s1");
    assert!(found[1].get("intro").is_none());
    assert_eq!(causes(&found[0]), [(6, DISK_FULL.to_owned())]);
    assert_eq!(found[0]["causes"][0]["text"], "java.io.IOException: disk full writing s1");
    assert_eq!(causes(&found[1]), [(14, DISK_FULL.to_owned())]);
}

#[test]
fn an_event_no_record_explains_is_unmatched_once_whole() {
    let dir = tempfile::tempdir().unwrap();
    let data = shop_dataset(dir.path(), false);
    let log = log_text("python-chains.log");
    let lines: Vec<&str> = log.lines().collect();
    let found = scanned(&data, "python-chains.log", &["--unmatched", "error"]);
    let events: Vec<_> = found.iter().map(event).collect();
    // Each chain once, at its last exception, with the level of the line
    // that introduced it; the WARNING's event is not of a level asked for;
    // the uncaught chain (no line introduced it) is an error.
    let expected = [(17, "unmatched", 2, 17), (43, "unmatched", 18, 43), (74, "unmatched", 50, 74)];
    assert_eq!(events, owned(&expected));
    let levels: Vec<&str> = found.iter().map(|object| object["level"].as_str().unwrap()).collect();
    assert_eq!(levels, ["ERROR", "ERROR", "ERR"]);
    assert_eq!(found[0]["text"], lines[16]);
    assert_eq!(found[0]["event_text"], lines[1..17].join("\n"));
    assert_eq!(found[1]["intro"]["text"], lines[17]);
    assert_eq!(causes(&found[1]), [(34, "-".to_owned()), (23, "-".to_owned())]);
    // With every level: the WARNING's too, and the INFO lines as lines.
    let every = scanned(&data, "python-chains.log", &["--unmatched", "error,warning,info"]);
    let events: Vec<_> = every.iter().map(event).collect();
    let expected = [
        (1, "unmatched", 1, 1),
        (17, "unmatched", 2, 17),
        (43, "unmatched", 18, 43),
        (48, "unmatched", 44, 48),
        (49, "unmatched", 49, 49),
        (74, "unmatched", 50, 74),
    ];
    assert_eq!(events, owned(&expected));

    // The text output: the event's place and message, then its lines.
    let path = log_path("python-chains.log");
    let text = errcat(&data, &["scan", "--unmatched", "error", path.to_str().unwrap()], b"");
    let head = format!("{}:43: unmatched ERROR: {} (lines 18-43)", path.display(), lines[42]);
    let at = text.find(&head).unwrap_or_else(|| panic!("{head:?} in {text}"));
    let shown: Vec<&str> = text[at..].lines().skip(1).take(26).collect();
    let indented: Vec<String> = lines[17..43].iter().map(|line| format!("    {line}").trim_end().to_owned()).collect();
    assert_eq!(shown, indented);
    assert!(text.contains("3 unmatched error line(s)"), "{text}");
}

#[test]
fn draft_takes_an_unexplained_event_as_one_input_per_exception() {
    let dir = tempfile::tempdir().unwrap();
    let data = shop_dataset(dir.path(), false);
    let path = log_path("python-chains.log");
    let out = errcat(&data, &["draft", "--json", "--min-count", "1", path.to_str().unwrap()], b"");
    let drafts: Vec<Json> = out.lines().map(|line| serde_json::from_str(line).unwrap()).collect();
    let templates: Vec<(String, u64)> = drafts
        .iter()
        .map(|draft| (draft["template"].as_str().unwrap().to_owned(), draft["count"].as_u64().unwrap()))
        .collect();
    // No trace line (a frame, a separator, `Traceback …`) is an input.
    for draft in &drafts {
        for trace in ["Traceback", "File ", "During handling", "The above exception", "^^^"] {
            assert!(!draft.to_string().contains(trace), "{trace:?} in {draft}");
        }
    }
    // The `ValueError`s: the two chains' middles, the lone one, and the
    // uncaught chain's; the `LookupError`s ending two chains.
    let count = |words: &str| templates.iter().filter(|(t, _)| t.contains(words)).map(|(_, n)| n).sum::<u64>();
    assert_eq!(count("invalid literal for int()"), 4, "{templates:?}");
    assert_eq!(count("has no valid quantity"), 2, "{templates:?}");
}

#[test]
fn json_says_where_an_event_ends_in_files_pipes_and_envelopes() {
    let dir = tempfile::tempdir().unwrap();
    let data = shop_dataset(dir.path(), true);
    let plain: Vec<_> = scanned(&data, "python-chains.log", &[]).iter().map(event).collect();
    assert_eq!(plain.len(), 4);
    let log = log_text("python-chains.log");
    let cri: String = log.lines().map(|line| format!("2026-12-03T10:00:00.000000123Z stderr F {line}\n")).collect();
    let docker: String = log
        .lines()
        .map(|line| {
            format!(
                "{{\"log\":{},\"stream\":\"stderr\",\"time\":\"2026-12-03T10:00:00Z\"}}\n",
                docker_string(&format!("{line}\n"))
            )
        })
        .collect();
    for (name, text) in [("plain", log.clone()), ("cri", cri), ("docker", docker)] {
        for unmatched in [&[][..], &["--unmatched", "trace"]] {
            let args = [&["scan", "--json"], unmatched, &["-"]].concat();
            let piped: Vec<Json> =
                errcat(&data, &args, text.as_bytes()).lines().map(|line| serde_json::from_str(line).unwrap()).collect();
            let events: Vec<_> = piped.iter().filter(|object| object.get("id").is_some()).map(event).collect();
            assert_eq!(events, plain, "{name} {unmatched:?}");
            if name != "plain" {
                assert!(piped.iter().filter(|o| o.get("id").is_some()).all(|o| o["envelope"] == name), "{name}");
            }
        }
    }
}
