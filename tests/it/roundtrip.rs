//! Property: every record's message, rendered with random values, parses
//! back to the same variant and values, and is found inside a log line.

use crate::values;
use error_catalog::nats_server::NatsServerError;
use error_catalog::CatalogEnum;
use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};

#[test]
fn seed_records_round_trip() {
    for (index, metadata) in NatsServerError::entries().iter().enumerate() {
        let mut runner = TestRunner::new(Config { cases: 256, ..Config::default() });
        runner
            .run(&(values::values(metadata), 1u32..100_000), |(values, pid)| {
                let error = NatsServerError::from_values(index, values).expect("values fit the variant");
                let message = error.to_string();
                let parsed = NatsServerError::parse(&message);
                prop_assert_eq!(parsed.as_ref(), Some(&error), "{}", message);
                let prefix = format!("[{pid}] 2026/11/29 17:20:00.123456 [ERR] ");
                let line = format!("{prefix}{message}");
                let (found, span) = NatsServerError::find_span(&line).expect("found in the line");
                prop_assert_eq!(found, error);
                prop_assert_eq!(span, prefix.len()..line.len());
                Ok(())
            })
            .unwrap_or_else(|failure| panic!("{}: {failure}", metadata.name));
    }
}
