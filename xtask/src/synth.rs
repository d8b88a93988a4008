//! `synth N DIR`: N realistic synthetic records (Go format strings in the
//! style of nats-server's), for compile-time and scale benchmarks.

use std::fs;
use std::path::Path;

use serde_json::json;

use crate::rng::Rng;

const VERBS: &[&str] = &[
    "create",
    "update",
    "delete",
    "restore",
    "snapshot",
    "replicate",
    "persist",
    "resolve",
    "decode",
    "encode",
    "register",
    "subscribe",
    "publish",
    "acknowledge",
    "compact",
    "purge",
    "load",
    "store",
    "validate",
    "apply",
];
const NOUNS: &[&str] = &[
    "stream",
    "consumer",
    "account",
    "session",
    "leafnode",
    "gateway",
    "route",
    "subject",
    "mapping",
    "import",
    "export",
    "snapshot",
    "raft group",
    "peer",
    "key",
    "message block",
    "index",
    "filter",
    "credential",
    "header",
];
const CONTEXTS: &[&str] = &[
    "for account %q",
    "on stream %s",
    "in cluster %q",
    "after %d attempts",
    "with sequence %d",
    "at offset %d",
    "for subject %q",
    "on server %s",
    "within %v",
    "for client %q",
    "in domain %q",
    "from peer %s",
];
const TAILS: &[&str] = &[": %v", ": %w", " (%d bytes)", "", ": limit %d exceeded", " (state %q)"];

pub fn run(n: usize, dir: &Path) -> Result<(), String> {
    fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let mut rng = Rng::new(0x5eed);
    for i in 0..n {
        // The index in words keeps every message distinct.
        let message = format!(
            "failed to {} {} {} {} (code {}){}",
            rng.pick(VERBS),
            rng.pick(NOUNS),
            rng.pick(CONTEXTS),
            rng.pick(CONTEXTS),
            words_of(i),
            rng.pick(TAILS)
        );
        let id = format!("{:016x}", fnv(&message));
        let severity = *rng.pick(&["error", "error", "warning", "info", "debug"]);
        let record = json!({
            "record": {
                "id": id,
                "repo": "synthetic/server",
                "slug": slug(&message),
                "errorMessage": message,
                "messagePattern": null,
                "errorType": "exception",
                "severity": severity,
                "filePath": format!("server/synth{}.go", i % 50),
                "lineNumber": 100 + i,
                "sourceCode": format!("\treturn fmt.Errorf({message:?}, args...)"),
                "githubUrl": format!("https://example.invalid/synthetic/server/synth{}.go#L{}", i % 50, 100 + i),
                "documentation": format!("Synthetic record {i}: returned when the operation fails. {}", "Details. ".repeat(40)),
                "solutions": ["Check the wrapped error.", "Retry after the cause is fixed."],
                "handlingStrategy": "fail",
                "preventionTips": ["Monitor the server."],
                "tags": [format!("synth{}", i % 50), "exception"],
                "schemaVersion": 2
            },
            "datasetVersion": "synthetic"
        });
        let path = dir.join(format!("{id}.json"));
        fs::write(&path, record.to_string()).map_err(|e| format!("{}: {e}", path.display()))?;
    }
    Ok(())
}

/// `1234` → `one two three four`.
fn words_of(mut n: usize) -> String {
    const DIGITS: &[&str] = &["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine"];
    let mut words = Vec::new();
    loop {
        words.push(DIGITS[n % 10]);
        n /= 10;
        if n == 0 {
            break;
        }
    }
    words.reverse();
    words.join("-")
}

pub(crate) fn slug(message: &str) -> String {
    let lower: String = message.chars().take(50).collect::<String>().to_lowercase();
    let mut slug = String::new();
    for c in lower.chars() {
        if c.is_ascii_alphanumeric() {
            slug.push(c);
        } else if !slug.ends_with('-') {
            slug.push('-');
        }
    }
    slug.trim_matches('-').to_owned()
}

pub(crate) fn fnv(text: &str) -> u64 {
    text.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3))
}
