//! `#[derive(Catalog)]`: handle a few documented nats-server errors by name,
//! with fields of your own types, checked against the records at compile time.
//!
//! `cargo run --example derive_import`

use error_catalog::Catalog;

#[derive(Debug, Catalog)]
// The records, relative to this crate's Cargo.toml; add `exhaustive` to make
// every record of the directory a variant you must write.
#[catalog(path = "data/nats-io/nats-server")]
enum MqttFailure {
    // Imported by slug; fields are named after the record's placeholders and
    // may have any `FromStr + Display` type (`seq` must parse as a `u64`).
    #[catalog(slug = "unable-to-persist-session-q-seq-v-v")]
    PersistSession { ps_id: String, seq: u64, err: String },
    // Imported by id, its fields left out.
    #[catalog(id = "59aa3418e32dd765")]
    InFlightWindowFull,
    // Every other line.
    #[catalog(other)]
    Unknown(String),
}

fn main() {
    let log = include_str!("nats-server.log");
    let mut other = 0;
    for (number, line) in log.lines().enumerate() {
        // With an `other` variant, `find` always returns `Some`.
        match MqttFailure::find(line) {
            Some(MqttFailure::PersistSession { ps_id, seq, .. }) => {
                println!("line {}: retry session {ps_id} from {seq}", number + 1);
            }
            Some(error @ MqttFailure::InFlightWindowFull) => {
                // `Display` shows the omitted fields as their placeholders
                // (`%d`); `metadata()` is the record (`None` for `other`).
                let metadata = error.metadata().expect("an imported record");
                let fix = metadata.record().solutions.first().map_or("-", |s| s.as_ref());
                println!("line {}: {error}\n  fix: {fix}", number + 1);
            }
            Some(MqttFailure::Unknown(_)) | None => other += 1,
        }
    }
    println!("{other} other lines");
}
