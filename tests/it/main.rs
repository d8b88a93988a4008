//! The integration tests of `error-catalog`, one module per subject, in one
//! test binary (a binary per file would link the library and proptest once
//! for each).

mod derive_import;
mod drafted;
mod envelopes;
mod forbid_unsafe;
mod generated_api;
mod integrations;
mod language_corpora;
mod macro_options;
mod pinned_names;
mod roundtrip;
mod runtime_catalog;
mod ui;
mod wide_variants;

// Shared with catalog-runtime's and corpus-crate's tests.
#[path = "../support/corpus.rs"]
mod corpus;
#[path = "../support/values.rs"]
mod values;
#[path = "../support/wrap.rs"]
mod wrap;
