#!/usr/bin/env python3
"""cargo (the machine's) on broken projects, offline, its stderr kept as
a user sees it, cut into events: an `error:` or `warning:` line with what
belongs to it (cargo's `Caused by:` chain, rustc's snippet and notes).

    tools/real/logs/cargo_logs.py [--held-out] > tools/real/golden/logs/cargo.jsonl

The projects are those of tools/real/cargo_errors.py (run the same way:
a fresh directory, an empty CARGO_HOME, paths taken out) and more. The
truth is each case's table, written from cargo's source before any scanner
ran: the dataset records that write the case's `error:` event (its line
and its `Caused by:` chain; any of them is right); the other events of a
case (warnings, rustc's diagnostics) have their own entries, by their
first words, or none (no record is where cargo or rustc wrote them)."""

import json
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
import cargo_errors  # noqa: E402 (tools/real/cargo_errors.py: its cases and its runner)

PKG = cargo_errors.PKG
LIB = {"src/lib.rs": ""}

# (case, files, cargo arguments, the first `error:` event's records, and
# {the start of another event: its records})
# cargo_errors' "unknown key" is a warning, not an error: its records are the warning's.
WARNINGS = {"unknown key": "warning: unused manifest key"}
# After rustc's errors: could not compile {name}{errors}{warnings} (src/compiler/mod.rs, built in `.with_context`).
COMPILE_FAILED = {"error: could not compile `": ["39b1816a73cc1795"]}
CASES = [
    (name, files, args, [], {WARNINGS[name]: expected}) if name in WARNINGS else (name, files, args, expected, {})
    for name, files, args, expected in cargo_errors.CASES
] + [
    ("unknown dependency", {"Cargo.toml": PKG.format(name="x") + '[dependencies]\nserdee = "1"\n', **LIB},
     # no matching package named `{}` found (src/resolver/errors.rs, built into `msg`)
     ["check", "--offline"], ["a00adcab1724ac45", "369418616a4460b6"], {}),
    ("version conflict", {
        "Cargo.toml": '[workspace]\nmembers = ["a", "b"]\nresolver = "2"\n',
        "a/Cargo.toml": PKG.format(name="a") + '[dependencies]\nb = { path = "../b", version = "2" }\n', "a/src/lib.rs": "",
        "b/Cargo.toml": PKG.format(name="b"), "b/src/lib.rs": "",
    }, ["check", "--offline"], ["be43ca39b73b98e8"], {}),  # failed to select a version for the requirement (src/resolver/errors.rs)
    ("wrong type of a manifest key", {"Cargo.toml": PKG.format(name="x") + 'authors = "me"\n',
                              **LIB}, ["check", "--offline"], [], {}),
    ("bad target name", {"Cargo.toml": PKG.format(name="x") + '[[bin]]\nname = ""\n', **LIB}, ["check", "--offline"],
     ["3b80a9da1497235a"], {}),  # failed to parse manifest at `{}` (src/workspace/parser/mod.rs)
    ("duplicate target names", {"Cargo.toml": PKG.format(name="x") + '[[bin]]\nname = "x"\npath = "src/a.rs"\n[[bin]]\nname = "x"\npath = "src/b.rs"\n',
                                "src/a.rs": "fn main() {}", "src/b.rs": "fn main() {}"}, ["check", "--offline"],
     ["3b80a9da1497235a"], {}),
    ("missing bin path", {"Cargo.toml": PKG.format(name="x") + '[[bin]]\nname = "tool"\npath = "src/bin/tool.rs"\n', **LIB},
     # can't find {} `{}` at path `{}` (src/ops/cargo_compile/mod.rs, built into `err_msg`), then
     # could not compile due to {error_count} previous target resolution error (the same file)
     ["check", "--offline"], ["7bc7bb12433d1a14"], {"error: could not compile due to": ["91f51d7a013d57cc"]}),
    # no {target_desc} target {named} `{target_name}`{unmatched_packages}{suggestion}
    # (src/ops/cargo_compile/unit_generator.rs, written into `msg`)
    ("unknown bin", {"Cargo.toml": PKG.format(name="x"), "src/main.rs": "fn main() {}"}, ["run", "--bin", "server", "--offline"],
     ["63fe6d81611005a5"], {}),
    ("unknown example", {"Cargo.toml": PKG.format(name="x"), **LIB}, ["run", "--example", "demo", "--offline"],
     ["63fe6d81611005a5"], {}),
    # the package '{}' does not contain {these_features}: {} (src/workspace/workspace.rs, an `if`'s branch)
    ("unknown feature", {"Cargo.toml": PKG.format(name="x"), **LIB}, ["check", "--features", "tls", "--offline"],
     ["7f5423bd660a8c45"], {}),
    ("unknown profile", {"Cargo.toml": PKG.format(name="x"), **LIB}, ["check", "--profile", "fast", "--offline"],
     ["c724c688adbb02ec"], {}),  # profile `{}` is not defined (src/workspace/profiles.rs)
    ("compile error", {"Cargo.toml": PKG.format(name="x"), "src/lib.rs": "pub fn f() -> u32 { missing_value }\n"},
     ["check", "--offline"], [], COMPILE_FAILED),
    ("type mismatch and unused variable", {
        "Cargo.toml": PKG.format(name="x"), "src/lib.rs": "pub fn f() -> u32 { let unused = 1; \"one\" }\n",
    }, ["check", "--offline"], [], COMPILE_FAILED),
    ("no main", {"Cargo.toml": PKG.format(name="x"), "src/main.rs": "fn helper() {}\n"}, ["check", "--offline"], [],
     COMPILE_FAILED),
    ("unknown argument", {"Cargo.toml": PKG.format(name="x"), **LIB}, ["build", "--relase"], [], {}),
    ("bad edition of a workspace member", {
        "Cargo.toml": '[workspace]\nmembers = ["a"]\n',
        "a/Cargo.toml": '[package]\nname = "a"\nversion = "0.1.0"\nedition = "2015"\n[lib]\ncrate-type = ["nope"]\n', "a/src/lib.rs": "",
    }, ["check", "--offline"], [], COMPILE_FAILED),
    ("test that fails", {"Cargo.toml": PKG.format(name="x"),
                         "src/lib.rs": "#[test]\nfn adds() { assert_eq!(1 + 1, 3, \"arithmetic\"); }\n"},
     ["test", "--offline", "-q"], ["4c6ea1990914fbce"], {}),  # {}, to rerun pass `{}` (src/ops/cargo_test.rs)
]

# Held out: not to be tuned on (generated apart, into cargo.held-out.jsonl).
HELD_OUT = [
    ("held-out: bad dependency key", {"Cargo.toml": PKG.format(name="x") + '[dependencies]\ndep = { path = "dep", verison = "1" }\n',
                                      "dep/Cargo.toml": PKG.format(name="dep"), "dep/src/lib.rs": "", **LIB},
     # a warning: unused manifest key: {kind}.{dep_name}.{unused} (src/workspace/parser/mod.rs)
     ["check", "--offline"], [], {"warning: unused manifest key": ["8cc3e227abe82fdb"]}),
    ("held-out: missing lib path", {"Cargo.toml": PKG.format(name="x") + '[lib]\npath = "src/core.rs"\n'},
     ["check", "--offline"], ["7bc7bb12433d1a14"], {"error: could not compile due to": ["91f51d7a013d57cc"]}),
    ("held-out: unknown package to run", {"Cargo.toml": PKG.format(name="x"), "src/main.rs": "fn main() {}"},
     # {}package(s) `{}` not found in workspace `{}` (src/ops/cargo_compile/packages.rs)
     ["run", "-p", "server", "--offline"], ["165d7b8c6bf492fb"], {}),
    ("held-out: borrow error", {"Cargo.toml": PKG.format(name="x"),
                                "src/lib.rs": "pub fn f() { let v = vec![1]; let r = &v; drop(v); println!(\"{r:?}\"); }\n"},
     ["check", "--offline"], [], COMPILE_FAILED),
]

# A line that starts an event: cargo's and rustc's `error`/`warning`
# (`error[E0425]:`, `warning: ...`), a failing test's panic.
EVENT_START = re.compile(r"^(?:error|warning)(?:\[\w+\])?: |^thread '.*' panicked at ")
# cargo's progress lines (`   Compiling x v0.1.0`), which end an event.
STATUS = re.compile(r"^\s+(?:Compiling|Checking|Finished|Running|Blocking|Updating|Locking|Adding|Downloading|Doc-tests|Fresh)\b")


def events_of(stderr, expected, others):
    lines = stderr.rstrip("\n").split("\n")
    events = []
    i = 0
    first_error = True
    while i < len(lines):
        if not EVENT_START.match(lines[i]):
            i += 1
            continue
        end = i + 1
        # What belongs to it: every line up to the next event or progress
        # line (cargo's messages go on unindented: `referenced by ...`,
        # `Caused by:`, `location searched: ...`; rustc's snippet).
        while end < len(lines) and not EVENT_START.match(lines[end]) and not STATUS.match(lines[end]):
            end += 1
        while end > i + 1 and lines[end - 1] == "":
            end -= 1
        text = "\n".join(lines[i:end])
        level = "warning" if text.startswith("warning") else "error"
        truth = next((ids for start, ids in others.items() if text.startswith(start)), None)
        if truth is None and level == "error" and first_error:
            truth, first_error = expected, False
        events.append({"line": i + 1, "lines": end - i, "level": level, "text": text,
                       "where": "the case's table" if truth else None, "expected": truth or [], "values": None})
        i = end
    return events


def main():
    held_out = "--held-out" in sys.argv[1:]
    version = subprocess.run(["cargo", "--version"], capture_output=True, text=True).stdout.strip()
    cases = HELD_OUT if held_out else CASES
    try:
        for name, files, args, expected, others in cases:
            status, stderr = cargo_errors.run_case(name.removeprefix("held-out: "), files, args)
            golden = {"program": "cargo", "case": name, "held_out": held_out, "command": "cargo " + " ".join(args),
                      "status": status, "log": stderr, "events": events_of(stderr, expected, others)}
            sys.stdout.write(json.dumps(golden, ensure_ascii=False, sort_keys=True) + "\n")
            if not golden["events"]:
                print(f"cargo: {name}: no error or warning (status {status})", file=sys.stderr)
    finally:
        import shutil
        shutil.rmtree(cargo_errors.ROOT, ignore_errors=True)
    print(f"{version}: {len(cases)} cases", file=sys.stderr)


if __name__ == "__main__":
    main()
