//! `log DATA LINES MATCHING OUT [--noise real]`: a nats-server style log in
//! which a fraction of the lines are the dataset's messages rendered with
//! random values and the rest are ordinary log lines that match no record.
//!
//! The ordinary lines are, by default, the few kinds of `ORDINARY` (kept so
//! that earlier benchmark numbers stay comparable); `--noise real` writes
//! instead the INF, DBG and TRC output a busy nats-server logs (`REAL`, the
//! kinds of `examples/nats-server.log`: client, route, gateway and leafnode
//! connections, JetStream, and `<<- [PUB ...]` protocol traces with varied
//! subjects, ids and sizes). Either way every ordinary line is checked to
//! match no record (drawn again when it does); a real kind that always
//! matches one is left out (listed on stderr): with the nats-server corpus,
//! most INF and DBG kinds are documented records, and the real noise is
//! mostly TRC protocol traces.

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

/// Real nats-server output: level, weight (how often, relative) and text.
/// `{addr}` is an address and port, `{n}` a number, `{word}` a word,
/// `{subject}` a NATS subject, `{client}` an MQTT client id, `{app}` a
/// client library's name, `{id}` a server id, `{nuid}` an inbox id,
/// `{reason}` why a connection closed.
const REAL: &[(&str, u32, &str)] = &[
    ("DBG", 6, "{addr} - cid:{n} - Client connection created"),
    ("DBG", 6, "{addr} - cid:{n} - \"v1.37.0:go:{app}\" - Client connection closed: {reason}"),
    ("DBG", 2, "{addr} - cid:{n} - \"v1.37.0:go:{app}\" - Client Ping Timer"),
    ("DBG", 1, "{addr} - cid:{n} - \"v1.37.0:go:{app}\" - Stale Client Connection - Closing"),
    ("DBG", 2, "{addr} - cid:{n} - \"{client}\" - Client connected with session present: false"),
    ("TRC", 3, "{addr} - cid:{n} - \"{client}\" - <<- [CONNECT clientID={client} keepAlive=1m0s username={word} password=****]"),
    ("TRC", 3, "{addr} - cid:{n} - \"{client}\" - ->> [CONNACK sp=true rc=0x0]"),
    ("TRC", 2, "{addr} - cid:{n} - \"{client}\" - <<- [SUBSCRIBE [devices/{n}/cmd QoS=1] pi={n}]"),
    ("TRC", 2, "{addr} - cid:{n} - \"{client}\" - ->> [SUBACK pi={n}]"),
    ("TRC", 5, "{addr} - cid:{n} - \"{client}\" - <<- [PUBLISH {word}/{n}/telemetry dup=false QoS=1 retain=false size={n} pi={n}]"),
    ("TRC", 5, "{addr} - cid:{n} - \"{client}\" - ->> [PUBACK pi={n}]"),
    ("TRC", 1, "{addr} - cid:{n} - \"{client}\" - <<- [PINGREQ]"),
    ("TRC", 1, "{addr} - cid:{n} - \"{client}\" - ->> [PINGRESP]"),
    ("TRC", 12, "{addr} - cid:{n} - \"v1.37.0:go:{app}\" - <<- [PUB {subject} {n}]"),
    ("TRC", 8, "{addr} - cid:{n} - \"v1.37.0:go:{app}\" - <<- [PUB {subject} _INBOX.{nuid}.{n} {n}]"),
    ("TRC", 8, "{addr} - cid:{n} - \"v1.37.0:go:{app}\" - <<- MSG_PAYLOAD: [\"{word}-{n}\"]"),
    ("TRC", 10, "{addr} - cid:{n} - \"v1.37.0:go:{app}\" - ->> [MSG {subject} {n} {n}]"),
    ("TRC", 4, "{addr} - cid:{n} - \"v1.37.0:go:{app}\" - <<- [SUB {subject} {n}]"),
    ("TRC", 2, "{addr} - cid:{n} - \"v1.37.0:go:{app}\" - <<- [UNSUB {n} ]"),
    ("TRC", 3, "{addr} - cid:{n} - \"v1.37.0:go:{app}\" - <<- [PING]"),
    ("TRC", 3, "{addr} - cid:{n} - \"v1.37.0:go:{app}\" - ->> [PONG]"),
    ("TRC", 2, "{addr} - cid:{n} - \"v1.37.0:go:{app}\" - <<- [CONNECT {{\"verbose\":false,\"pedantic\":false,\"tls_required\":false,\"name\":\"{app}\",\"lang\":\"go\",\"version\":\"1.37.0\",\"protocol\":1,\"echo\":true,\"headers\":true,\"no_responders\":true}}]"),
    ("TRC", 4, "{addr} - rid:{n} - <<- [RMSG $G {subject} {n}]"),
    ("TRC", 2, "{addr} - rid:{n} - <<- [RS+ $G {subject}]"),
    ("TRC", 1, "{addr} - rid:{n} - <<- [RS- $G {subject}]"),
    ("INF", 1, "{addr} - rid:{n} - Route connection created"),
    ("DBG", 1, "{addr} - rid:{n} - Route connect msg sent"),
    ("DBG", 1, "{addr} - rid:{n} - Registering remote route \"{id}\""),
    ("DBG", 1, "{addr} - rid:{n} - Sent local subscriptions to route"),
    ("DBG", 2, "{addr} - rid:{n} - Router Ping Timer"),
    ("INF", 1, "{addr} - rid:{n} - Router connection closed: {reason}"),
    ("DBG", 1, "Trying to connect to route on nats-{n}.nats.svc:6222 ({addr})"),
    ("INF", 1, "{addr} - gid:{n} - Processing inbound gateway connection"),
    ("INF", 1, "{addr} - gid:{n} - Inbound gateway connection from \"{word}\" ({id}) registered"),
    ("INF", 1, "Connecting to explicit gateway \"{word}\" (gw-{word}.nats.svc:7222) at {addr} (attempt {n})"),
    ("DBG", 2, "{addr} - gid:{n} - Gateway Ping Timer"),
    ("TRC", 2, "{addr} - gid:{n} - <<- [RMSG $G {subject} {n}]"),
    ("INF", 1, "{addr} - lid:{n} - Leafnode connection created for account: {word}"),
    ("DBG", 1, "{addr} - lid:{n} - Remote leafnode connect msg sent"),
    ("DBG", 2, "{addr} - lid:{n} - Leafnode Ping Timer"),
    ("TRC", 2, "{addr} - lid:{n} - <<- [LMSG {subject} {n}]"),
    ("INF", 2, "JetStream cluster new stream leader for '{word} > {WORD}'"),
    ("INF", 2, "JetStream cluster new consumer leader for '{word} > {WORD} > {word}-{n}'"),
    ("INF", 1, "Catchup for stream '{word} > {WORD}' complete"),
    ("INF", 1, "  Starting restore for stream '{word} > {WORD}'"),
    ("INF", 1, "  Restored {n} messages for stream '{word} > {WORD}' in {n}ms"),
    ("INF", 1, "  Recovering {n} consumers for stream - '{word} > {WORD}'"),
    ("INF", 1, "JetStream cluster new metadata leader: nats-{n}/nats-prod"),
    ("INF", 1, "Creating MQTT streams/consumers with replicas 3 for account \"{word}\""),
    ("DBG", 1, "JetStream cluster checking for stable cluster name and peer set"),
    ("DBG", 1, "Get non local IPs for \"0.0.0.0\""),
    ("INF", 1, "Reloaded: debug = true"),
];

const APPS: &[&str] = &["order-api", "billing", "inventory", "nats-surveyor", "analytics", "uploader", "report-gen"];
const REASONS: &[&str] = &[
    "Client Closed",
    "Slow Consumer (Write Deadline)",
    "Slow Consumer (Pending Bytes)",
    "Stale Connection",
    "Server Shutdown",
    "Read Error",
    "Write Error",
];

/// Which ordinary lines fill the log.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Noise {
    /// The few kinds of `ORDINARY`, as in the earlier benchmarks.
    Synthetic,
    /// Real nats-server output (`REAL`).
    Real,
}

impl Noise {
    pub fn parse(text: &str) -> Result<Noise, String> {
        match text {
            "synthetic" => Ok(Noise::Synthetic),
            "real" => Ok(Noise::Real),
            other => Err(format!("unknown noise {other:?} (synthetic or real)")),
        }
    }
}

pub fn run(data: &Path, lines: usize, matching: f64, out: &Path, noise: Noise) -> Result<(), String> {
    let catalog = Catalog::load(data).map_err(|e| e.to_string())?;
    let kinds = noise_kinds(&catalog, noise)?;
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
            if rng.chance(matching) { message(&catalog, &mut rng) } else { ordinary(&catalog, &kinds, &mut rng) };
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
    let level = match entry.record().severity_or_default() {
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
        // Quoted, text, and any kind a later runtime adds.
        _ => Value::Str(Cow::Owned(format!("{}-{}", rng.pick(WORDS), rng.below(10_000)))),
    }
}

/// The kinds of ordinary line of `noise` (level, weight, text). Real ones
/// that match a record in 20 tries of 20 are left out (the corpus documents
/// many of nats-server's INF and DBG messages). The synthetic ones are all
/// kept, as before, so that the default log stays the same byte for byte:
/// lines that match a record are drawn again.
fn noise_kinds(catalog: &Catalog, noise: Noise) -> Result<Vec<(&'static str, u32, &'static str)>, String> {
    if noise == Noise::Synthetic {
        return Ok(ORDINARY.iter().map(|text| ("", 1, *text)).collect());
    }
    let mut rng = Rng::new(0x7e57);
    let (usable, dropped): (Vec<_>, Vec<_>) =
        REAL.iter().partition(|kind| (0..20).any(|_| catalog.find(&fill(kind.2, &mut rng)).is_none()));
    eprintln!(
        "xtask: {} kinds of real noise line, {} left out because a record always matches them:",
        REAL.len(),
        dropped.len()
    );
    for (_, _, text) in &dropped {
        eprintln!("  {text}");
    }
    if usable.is_empty() {
        return Err("every kind of noise line matches a record".to_owned());
    }
    Ok(usable)
}

/// `text` with its `{...}` fillers replaced by random values.
fn fill(text: &str, rng: &mut Rng) -> String {
    let mut out = String::with_capacity(text.len() + 32);
    let mut rest = text;
    while let Some(at) = rest.find('{') {
        out.push_str(&rest[..at]);
        // `{{` and `}}` are literal braces.
        if rest[at..].starts_with("{{") {
            out.push('{');
            rest = &rest[at + 2..];
            continue;
        }
        let end = rest[at..].find('}').map_or(rest.len(), |e| at + e + 1);
        match &rest[at..end] {
            "{addr}" => {
                let ip = format!("10.0.{}.{}:{}", rng.below(256), rng.below(256), 1024 + rng.below(60_000));
                out.push_str(&ip);
            }
            "{n}" => out.push_str(&rng.below(100_000).to_string()),
            "{WORD}" => out.push_str(&rng.pick(WORDS).to_uppercase()),
            "{subject}" => out.push_str(&subject(rng)),
            "{client}" => {
                out.push_str(&format!("{}-{}", rng.pick(&["sensor", "meter", "gw-plant", "pump-ctl"]), rng.below(100)))
            }
            "{app}" => out.push_str(rng.pick::<&str>(APPS)),
            "{id}" | "{nuid}" => {
                let len = if &rest[at..end] == "{id}" { 56 } else { 22 };
                const ALPHABET: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
                let id: String = (0..len).map(|_| char::from(*rng.pick(ALPHABET))).collect();
                out.push_str(&id);
            }
            "{reason}" => out.push_str(rng.pick::<&str>(REASONS)),
            _ => out.push_str(rng.pick::<&str>(WORDS)),
        }
        rest = &rest[end..];
    }
    out.push_str(&rest.replace("}}", "}"));
    out
}

/// A NATS subject: a few tokens, sometimes a JetStream API or KV subject.
fn subject(rng: &mut Rng) -> String {
    match rng.below(6) {
        0 => format!("$JS.API.CONSUMER.MSG.NEXT.{}.{}", rng.pick(WORDS).to_uppercase(), rng.pick(WORDS)),
        1 => format!("$KV.{}.{}", rng.pick(WORDS), rng.below(10_000)),
        2 => format!(
            "$JS.ACK.{}.{}.1.{}.{}.1764436800.0",
            rng.pick(WORDS).to_uppercase(),
            rng.pick(WORDS),
            rng.below(100_000),
            rng.below(100_000)
        ),
        _ => {
            let tokens = 2 + rng.below(3);
            let parts: Vec<String> = (0..tokens)
                .map(|i| {
                    if i == tokens - 1 && rng.chance(0.5) {
                        rng.below(1000).to_string()
                    } else {
                        rng.pick(WORDS).to_string()
                    }
                })
                .collect();
            parts.join(".")
        }
    }
}

/// An ordinary line that no record matches, of one of `kinds`.
fn ordinary(catalog: &Catalog, kinds: &[(&'static str, u32, &'static str)], rng: &mut Rng) -> (&'static str, String) {
    let total: u32 = kinds.iter().map(|k| k.1).sum();
    loop {
        let mut pick = rng.below(total as usize) as u32;
        let (level, _, text) = *kinds
            .iter()
            .find(|k| {
                pick < k.1 || {
                    pick -= k.1;
                    false
                }
            })
            .expect("a kind");
        let text = fill(text, rng);
        if catalog.find(&text).is_none() {
            let level = if level.is_empty() {
                if rng.chance(0.7) {
                    "INF"
                } else {
                    "DBG"
                }
            } else {
                level
            };
            return (level, text);
        }
    }
}
