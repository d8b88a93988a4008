//! Compile errors of `#[catalog]`, snapshotted with trybuild.

use std::path::Path;

#[test]
fn ui() {
    // trybuild builds the cases in its own directory under target/, so the
    // macro is pointed at this package's fixtures (trybuild#202).
    std::env::set_var("CARGO_MANIFEST_DIR_OVERRIDE", env!("CARGO_MANIFEST_DIR"));
    symlink_loop_fixture();
    let cases = trybuild::TestCases::new();
    cases.compile_fail("tests/ui/*.rs");
}

/// `target/ui-fixtures/loop`: a record and a link back to the directory
/// itself. Made here rather than committed: a link loop in the repository
/// would trip up every tool that walks it.
fn symlink_loop_fixture() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/ui-fixtures/loop");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::copy("tests/ui/data/good/a1b2c3d4e5f60718.json", dir.join("a1b2c3d4e5f60718.json")).unwrap();
    let link = dir.join("again");
    if std::fs::symlink_metadata(&link).is_err() {
        #[cfg(unix)]
        std::os::unix::fs::symlink(".", &link).unwrap();
    }
}
