//! Compile errors of `#[catalog]`, snapshotted with trybuild.

#[test]
fn ui() {
    // trybuild builds the cases in its own directory under target/, so the
    // macro is pointed at this package's fixtures (trybuild#202).
    std::env::set_var("CARGO_MANIFEST_DIR_OVERRIDE", env!("CARGO_MANIFEST_DIR"));
    let cases = trybuild::TestCases::new();
    cases.compile_fail("tests/ui/*.rs");
}
