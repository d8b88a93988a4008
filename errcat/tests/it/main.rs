//! The integration tests of `errcat`, one module per subject, in one test
//! binary (a binary per file would link its dependencies once for each).
//! Most run the real binary (`assert_cmd`). `hostile_scan.rs` is a binary
//! of its own: it reads the peak memory of its children, which in this
//! binary would include the browsers and servers of the other tests.

mod dataset_updates;
mod draft;
mod draft_real;
mod embedded;
mod envelope_fixtures;
mod envelopes;
mod errcat;
mod extract;
mod html_report;
mod live;
mod loghub;
mod metrics;
mod multi_line;
mod readme;
mod real_programs;

// Shared with the other crates' tests.
#[path = "../../../tests/support/corpus.rs"]
mod support;
#[path = "../../../tests/support/wrap.rs"]
mod wrap;
