//! Classify the lines of a log with the embedded nats-server catalog: typed
//! variants to `match` on, and each error's documented fix.
//!
//!     cargo run --example match_log_lines [LOG]   # default: examples/nats-server.log

use std::collections::BTreeMap;

use error_catalog::nats_server::{NatsServerError, NatsServerErrorKind};

fn main() -> std::io::Result<()> {
    let path = std::env::args().nth(1).unwrap_or_else(|| "examples/nats-server.log".to_owned());
    let log = std::fs::read_to_string(&path)?;
    let mut seen: BTreeMap<NatsServerErrorKind, usize> = BTreeMap::new();
    for (number, line) in log.lines().enumerate() {
        let Some(error) = NatsServerError::find(line) else { continue };
        *seen.entry(error.kind()).or_default() += 1;
        // The compiler checks this match against the dataset: a record added
        // to `data/` is a new variant, and a new arm here.
        match &error {
            NatsServerError::UnableToPersistSession { ps_id, seq, .. } => {
                println!("{path}:{}: session {ps_id} lost its state at seq {seq}", number + 1)
            }
            NatsServerError::Qos1InFlightWindowIsFull { mqtt_max_acks_in_flight, .. } => {
                println!("{path}:{}: QoS1 window of {mqtt_max_acks_in_flight} full", number + 1)
            }
            NatsServerError::CreateQos2IncomingMessagesStreamForAccount { acc_name, .. } => {
                println!("{path}:{}: no QoS2 stream for account {acc_name}", number + 1)
            }
        }
    }
    for (kind, count) in &seen {
        let record = &kind.metadata().record();
        println!("\n{kind} x{count} ({})", record.slug);
        for solution in record.solutions.iter() {
            println!("  - {solution}");
        }
    }
    Ok(())
}
