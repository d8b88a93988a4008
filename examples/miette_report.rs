//! A generated error as a miette report: the record's slug as the code, its
//! solutions as help and its source link as the url.
//!
//!     cargo run --example miette_report --features miette

use error_catalog::nats_server::NatsServerError;

fn main() {
    let line = r#"[1] 2026/11/29 17:20:00.123456 [ERR] unable to persist session "sess-1" (seq=7): nats: timeout"#;
    let error = NatsServerError::find(line).expect("a known error");
    let mut report = String::new();
    miette::NarratableReportHandler::new().render_report(&mut report, &error).expect("rendering to a String");
    println!("{report}");
}
