//! `log DATA LINES MATCHING OUT`: a nats-server style log in which a fraction
//! of the lines are the dataset's messages rendered with random values and the
//! rest are ordinary log lines that match no record.

use std::borrow::Cow;
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::Path;

use catalog_runtime::{Catalog, Severity, Value, ValueKind};

use crate::rng::Rng;

const WORDS: &[&str] = &[
    "orders",
    "billing",
    "ACME",
    "$G",
    "sensor",
    "telemetry",
    "east",
    "west",
    "fleet",
    "meter",
    "events",
    "audit",
    "KV_config",
    "OBJ_assets",
    "tenant",
    "plant",
    "gw",
    "edge",
    "hub",
    "core",
];

const ORDINARY: &[&str] = &[
    "{addr} - cid:{n} - Client connection created",
    "{addr} - cid:{n} - \"v1.37.0:go\" - Client connection closed: Client Closed",
    "{addr} - rid:{n} - Route connection created",
    "{addr} - lid:{n} - Leafnode connection created for account: {word}",
    "JetStream cluster new stream leader for '{word} > {word}{n}'",
    "JetStream cluster new consumer leader for '{word} > {word} > C{n}'",
    "Processing {n} messages for stream '{word} > {word}'",
    "Catching up stream '{word} > {word}' from sequence {n}",
    "{addr} - cid:{n} - Slow Consumer Detected: WriteDeadline of 10s exceeded with {n} chunks of {n} total bytes.",
    "Self is new JetStream cluster metadata leader",
    "Healthcheck passed for {n} streams and {n} consumers",
    "Server is ready",
    "MQTT client {word}-{n} connected, session present: false",
];

pub fn run(data: &Path, lines: usize, matching: f64, out: &Path) -> Result<(), String> {
    let catalog = Catalog::load(data).map_err(|e| e.to_string())?;
    let file = File::create(out).map_err(|e| format!("{}: {e}", out.display()))?;
    let mut w = BufWriter::new(file);
    let mut rng = Rng::new(0x10c);
    let mut micros: u64 = 17 * 3_600_000_000;
    for _ in 0..lines {
        micros += 1 + rng.below(20_000) as u64;
        let time = format!(
            "{:02}:{:02}:{:02}.{:06}",
            micros / 3_600_000_000 % 24,
            micros / 60_000_000 % 60,
            micros / 1_000_000 % 60,
            micros % 1_000_000
        );
        let (level, text) =
            if rng.chance(matching) { message(&catalog, &mut rng) } else { ordinary(&catalog, &mut rng) };
        writeln!(w, "[4127] 2026/11/29 {time} [{level}] {text}").map_err(|e| e.to_string())?;
    }
    w.flush().map_err(|e| e.to_string())
}

fn message(catalog: &Catalog, rng: &mut Rng) -> (&'static str, String) {
    let index = rng.below(catalog.len());
    let entry = &catalog.entries()[index];
    let values: Vec<Value<'static>> = entry.template.fields.iter().map(|f| value(f.kind, rng)).collect();
    let text =
        catalog.render(index, &values).expect("a value per field").replace(['\n', '\r'], " ").trim_end().to_owned();
    let level = match entry.record.severity_or_default() {
        Severity::Fatal | Severity::Critical => "FTL",
        Severity::Warning => "WRN",
        Severity::Info => "INF",
        Severity::Debug | Severity::Trace => "DBG",
        _ => "ERR",
    };
    (level, text)
}

fn value(kind: ValueKind, rng: &mut Rng) -> Value<'static> {
    match kind {
        ValueKind::Int => Value::Int(rng.below(100_000) as i64),
        ValueKind::Float => Value::Float(rng.below(100_000) as f64 / 100.0),
        ValueKind::Bool => Value::Bool(rng.chance(0.5)),
        ValueKind::Quoted | ValueKind::Text => {
            Value::Str(Cow::Owned(format!("{}-{}", rng.pick(WORDS), rng.below(10_000))))
        }
    }
}

/// An ordinary line that no record matches.
fn ordinary(catalog: &Catalog, rng: &mut Rng) -> (&'static str, String) {
    loop {
        let mut text = rng.pick(ORDINARY).to_string();
        while let Some(at) = text.find('{') {
            let end = text[at..].find('}').map_or(text.len(), |e| at + e + 1);
            let filler = match &text[at..end] {
                "{addr}" => format!("10.0.{}.{}:{}", rng.below(256), rng.below(256), 1024 + rng.below(60_000)),
                "{n}" => rng.below(100_000).to_string(),
                _ => rng.pick(WORDS).to_string(),
            };
            text.replace_range(at..end, &filler);
        }
        if catalog.find(&text).is_none() {
            return (if rng.chance(0.7) { "INF" } else { "DBG" }, text);
        }
    }
}
