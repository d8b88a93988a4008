//! The fuzz targets of `fuzz/` as plain functions, one per target, each
//! taking the fuzzer's bytes and checking invariants with `assert!`. The
//! targets are one-line wrappers, and `tests/regressions.rs` runs every
//! saved input of `fuzz/regressions/<target>/` through the same function, so
//! `cargo test --workspace` replays them without libFuzzer.

pub mod dialect_line;
mod display_parse;
mod find_parse;
mod format_compiler;
mod record_loader;
mod template;

pub use dialect_line::dialect_line;
pub use display_parse::display_parse;
pub use find_parse::find_parse;
pub use format_compiler::format_compiler;
pub use record_loader::record_loader;

/// A target: what it is called in `fuzz/` and the function it runs.
pub type Target = (&'static str, fn(&[u8]));

/// Every target, by its `fuzz/fuzz_targets/` name.
pub const TARGETS: [Target; 5] = [
    ("format_compiler", format_compiler),
    ("record_loader", record_loader),
    ("find_parse", find_parse),
    ("display_parse", display_parse),
    ("dialect_line", dialect_line),
];
