//! Replays every saved fuzz input, `fuzz/regressions/<target>/<name>`,
//! through its target's function: crashes the fuzzers found (minimized) and
//! hand-picked seeds. See fuzz/README.md.

use std::fs;
use std::path::Path;

#[test]
fn every_saved_input_passes() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fuzz/regressions");
    let mut replayed = 0;
    for (target, run) in fuzz_harness::TARGETS {
        let dir = root.join(target);
        let mut inputs: Vec<_> = fs::read_dir(&dir)
            .unwrap_or_else(|err| panic!("{}: {err}", dir.display()))
            .map(|entry| entry.expect("a directory entry").path())
            .collect();
        inputs.sort();
        assert!(!inputs.is_empty(), "no saved inputs for {target} in {}", dir.display());
        for input in inputs {
            let bytes = fs::read(&input).unwrap_or_else(|err| panic!("{}: {err}", input.display()));
            eprintln!("{target}: {}", input.display());
            run(&bytes);
            replayed += 1;
        }
    }
    eprintln!("{replayed} saved inputs replayed");
}

/// Every directory of saved inputs belongs to a target.
#[test]
fn no_saved_inputs_for_unknown_targets() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fuzz/regressions");
    for entry in fs::read_dir(&root).expect("fuzz/regressions exists") {
        let name = entry.expect("a directory entry").file_name();
        let name = name.to_string_lossy();
        assert!(fuzz_harness::TARGETS.iter().any(|(target, _)| *target == name), "unknown target {name}");
    }
}
