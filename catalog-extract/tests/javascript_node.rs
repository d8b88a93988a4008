//! What the real `node` writes for everyday failures of its own modules is
//! matched by a record the JavaScript extractor makes from Node's sources
//! (the fixtures: `lib/internal/errors.js`, `lib/events.js`, `lib/buffer.js`
//! and libuv's `uv.h`): a record with the error's code (or, for a warning
//! without one, its class) whose pattern matches the whole message.

mod common;

use std::path::PathBuf;
use std::process::Command;

use catalog_extract::lang::javascript::{skip_path, JavaScript, UV_HEADER};
use common::sources;

#[test]
fn node_messages_match_their_records() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/javascript");
    let output = match Command::new("node").arg(root.join("everyday_failures.js")).output() {
        Ok(output) => output,
        Err(err) if std::env::var_os("ERROR_CATALOG_REQUIRE_TOOLS").is_some() => panic!("node: {err}"),
        Err(err) => {
            eprintln!("SKIPPED: no node to run ({err})");
            return;
        }
    };
    assert!(output.status.success(), "node: {}", String::from_utf8_lossy(&output.stderr));
    let version =
        Command::new("node").arg("--version").output().map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string());
    let sources = sources(&root, ("js", "lib/"), skip_path);
    let header = std::fs::read_to_string(root.join(UV_HEADER)).unwrap();
    let javascript = JavaScript::for_sources(
        sources.iter().map(|(f, t)| (f.as_str(), t.as_str())).chain([(UV_HEADER, header.as_str())]),
    );
    let messages: Vec<_> = sources.iter().flat_map(|(f, t)| javascript.messages(f, t)).collect();
    let lines: Vec<serde_json::Value> =
        String::from_utf8_lossy(&output.stdout).lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert!(lines.len() >= 14, "node wrote {} errors", lines.len());
    let mut unmatched = Vec::new();
    for line in &lines {
        let text = line["message"].as_str().unwrap();
        let code = line["code"].as_str();
        let name = line["name"].as_str().unwrap();
        let matched = messages.iter().any(|m| {
            let same = match code {
                Some(code) => m.found.error_code.as_deref() == Some(code),
                None => m.found.error_class.as_deref() == Some(name),
            };
            same && regex::Regex::new(&format!("^(?:{})$", m.pattern)).unwrap().is_match(text)
        });
        if !matched {
            unmatched.push(format!("{code:?} {name}: {text}"));
        }
    }
    assert!(unmatched.is_empty(), "node {version:?}: no record matches\n{}", unmatched.join("\n"));
}
