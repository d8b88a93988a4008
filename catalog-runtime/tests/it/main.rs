//! The integration tests of `catalog-runtime`, one module per subject, in
//! one test binary (a binary per file would link the runtime and proptest
//! once for each).

mod corpus_dialects;
mod corpus_golden;
mod corpus_names;
mod dialect_golden;
mod engine;
mod golden;
mod last_literal;
mod log_layouts;

// The shared corpora, found as every crate's tests find them.
#[path = "../../../tests/support/corpus.rs"]
mod corpus;
