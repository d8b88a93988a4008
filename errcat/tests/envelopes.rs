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

#[path = "../../tests/support/corpus.rs"]
mod support;

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

/// The escaped JSON string of `text` as Docker writes it: HTML-safe
/// (`\u003c`, `\u003e`, `\u0026`) and a tab as `\u0009` (moby
/// `daemon/logger/jsonfilelog/jsonlog/jsonlogbytes.go`, `ffjsonWriteJSONBytesAsString`).
fn docker_string(text: &str) -> String {
    serde_json::to_string(text)
        .unwrap()
        .replace("\\t", "\\u0009")
        .replace('<', "\\u003c")
        .replace('>', "\\u003e")
        .replace('&', "\\u0026")
}

/// `text` quoted as Go's `strconv.Quote` does for printable text (slog's
/// TextHandler, go-logfmt): `"` and `\` escaped, a tab as `\t`.
fn go_quote(text: &str) -> String {
    let escaped = text.replace('\\', "\\\\").replace('"', "\\\"").replace('\t', "\\t");
    format!("\"{escaped}\"")
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
            // The span is in the message out of its envelope; `message_span`
            // is where that message is in the input line.
            let line = &lines[wrapped["line"].as_u64().unwrap() as usize - 1];
            let at = |key: &str, i: usize| wrapped[key][i].as_u64().unwrap() as usize;
            assert!(line.get(at("message_span", 0)..at("message_span", 1)).is_some(), "{name}: {line}");
            assert!(at("span", 1) - at("span", 0) <= bare["span"][1].as_u64().unwrap() as usize);
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
