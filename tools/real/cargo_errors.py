#!/usr/bin/env python3
"""cargo (the machine's) writing its own errors for broken manifests and
workspaces.

    tools/real/cargo_errors.py > tools/real/golden/cargo.jsonl

Each case writes a small project in a fresh temporary directory, runs cargo
on it offline with an empty CARGO_HOME, and keeps what cargo wrote on
stderr, with that directory's path taken out of it (`<case>/Cargo.toml`),
so that the text is the same at every run and names no machine's paths. The truth is the case's own: the
table below names, for each provoked failure, the corpus record(s) of
the cargo source that writes each part of that error (its `error:` line
and its `Caused by:` chain), chosen from how cargo reports that failure,
before and independently of what any scanner says.
"""

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = tempfile.mkdtemp(prefix="real-cargo-")

PKG = '[package]\nname = "{name}"\nversion = "0.1.0"\nedition = "2021"\n'

# (case, files, cargo arguments, expected record ids: the records whose
# messages cargo writes for this failure; a record with the same message,
# as cargo's several `failed to read `{}``, counts as the same)
CASES = [
    # toml's own parse error, which cargo writes with no context of its own.
    ("bad toml", {"Cargo.toml": '[package\nname = "x"\n'}, ["metadata", "--format-version", "1"], []),
    ("missing workspace member", {"Cargo.toml": '[workspace]\nmembers = ["nope"]\n'}, ["metadata", "--format-version", "1"],
     ["98038c8f9cfe9bfa", "52970d1a6c508bc2"]),  # failed to load manifest for workspace member; failed to read `{}`
    ("cyclic dependency", {
        "Cargo.toml": '[workspace]\nmembers = ["a", "b"]\nresolver = "2"\n',
        "a/Cargo.toml": PKG.format(name="a") + '[dependencies]\nb = { path = "../b" }\n',
        "a/src/lib.rs": "",
        "b/Cargo.toml": PKG.format(name="b") + '[dependencies]\na = { path = "../a" }\n',
        "b/src/lib.rs": "",
    }, ["metadata", "--format-version", "1"], ["739ee6ac62a9b0ef"]),  # cyclic package dependency
    ("bad version requirement", {
        "Cargo.toml": PKG.format(name="x") + '[dependencies]\nserde = "abc"\n', "src/lib.rs": "",
    }, ["metadata", "--format-version", "1"], ["3b80a9da1497235a", "89e33345395a3489"]),
    ("missing package spec", {"Cargo.toml": PKG.format(name="x"), "src/lib.rs": ""},
     ["check", "-p", "nosuchpkg"], ["49b6a01730fe5168"]),  # package ID specification did not match
    ("unknown command", {}, ["nosuchcommand"], ["d796d8da6f28042f"]),  # no such command: `{cmd}`{did_you_mean}
    ("offline resolution", {
        "Cargo.toml": PKG.format(name="x") + '[dependencies]\nserde = "1"\n', "src/lib.rs": "",
    }, ["metadata", "--format-version", "1", "--offline"],
     # no matching package named `{}` found; location searched: {}; required by {} (built into `msg`)
     ["a00adcab1724ac45", "5a8749d0f9cf4f9a", "ffe5bcfacd96d464"]),
    ("missing package name", {"Cargo.toml": '[package]\nversion = "0.1.0"\n'}, ["metadata", "--format-version", "1"],
     ["3b80a9da1497235a", "b65d49035bbe4884"]),  # missing field `package.name`
    ("bad package name", {"Cargo.toml": PKG.format(name="1bad"), "src/lib.rs": ""},
     ["metadata", "--format-version", "1"], ["20ba7e8ce50021f4"]),  # invalid character `{ch}` in {what}
    ("unknown edition", {"Cargo.toml": '[package]\nname = "x"\nversion = "0.1.0"\nedition = "2099"\n', "src/lib.rs": ""},
     ["metadata", "--format-version", "1"],
     ["3b80a9da1497235a", "c1e92fd629ab449d", "ac8eb21ecd0999e7"]),  # the `edition` key; supported edition values
    ("no targets", {"Cargo.toml": PKG.format(name="x")}, ["metadata", "--format-version", "1"],
     ["3b80a9da1497235a", "1603a0b6fa947841"]),  # no targets specified in the manifest
    ("missing path dependency", {
        "Cargo.toml": PKG.format(name="x") + '[dependencies]\ndep = { path = "../nodep" }\n', "src/lib.rs": "",
    }, ["metadata", "--format-version", "1"],
     # failed to get `{}` as a dependency; failed to load source; unable to update; failed to read
     ["3a13fd086b92af30", "9c350f30fd22b03d", "04853cb4bd94d72b", "52970d1a6c508bc2"]),
    ("ambiguous dependency", {
        "Cargo.toml": PKG.format(name="x") + '[dependencies]\ndep = { path = "dep", git = "https://example.org/d" }\n',
        "src/lib.rs": "",
    }, ["metadata", "--format-version", "1"], ["21bf5cdb18b61f52"]),  # specification is ambiguous
    ("manifest path directory", {"sub/.keep": ""}, ["metadata", "--format-version", "1", "--manifest-path", "sub"],
     ["1e1ec902cc424a40"]),  # manifest path is a directory
    ("package outside workspace", {
        "Cargo.toml": '[workspace]\nmembers = []\n',
        "inner/Cargo.toml": PKG.format(name="inner"), "inner/src/lib.rs": "",
    }, ["metadata", "--format-version", "1", "--manifest-path", "inner/Cargo.toml"],
     ["17358229f94e3e30"]),  # current package believes it's in a workspace when it's not
    # A warning (`unused manifest key`), which no record of the corpus holds.
    ("unknown key", {"Cargo.toml": PKG.format(name="x") + 'colour = "blue"\n', "src/lib.rs": ""},
     ["check", "--offline"], ["634b430eec746953"]),  # unused manifest key: {}
]


def run_case(name, files, args):
    where = os.path.join(ROOT, name.replace(" ", "-"))
    shutil.rmtree(where, ignore_errors=True)
    os.makedirs(where)
    for path, text in files.items():
        full = os.path.join(where, path)
        os.makedirs(os.path.dirname(full), exist_ok=True)
        with open(full, "w", encoding="utf-8") as f:
            f.write(text)
    home = os.path.join(ROOT, "cargo-home")
    os.makedirs(home, exist_ok=True)
    env = {k: v for k, v in os.environ.items() if not k.startswith("CARGO")}
    env.update(CARGO_HOME=home, CARGO_TERM_COLOR="never", CARGO_NET_OFFLINE="true")
    done = subprocess.run(["cargo", *args], cwd=where, env=env, capture_output=True, text=True)
    # What differs between runs: how long a build took, and where.
    stderr = done.stderr.replace(ROOT + os.sep, "").replace(ROOT, ".")
    return done.returncode, re.sub(r" in \d+\.\d+s$", " in 0.00s", stderr, flags=re.M)


def main():
    version = subprocess.run(["cargo", "--version"], capture_output=True, text=True).stdout.strip()
    for name, files, args, expected in CASES:
        status, stderr = run_case(name, files, args)
        golden = {"program": "cargo", "case": name, "kind": "stderr", "status": status, "text": stderr,
                  "expected": expected, "values": None}
        sys.stdout.write(json.dumps(golden, ensure_ascii=False, sort_keys=True) + "\n")
    print(f"{version}: {len(CASES)} cases", file=sys.stderr)
    shutil.rmtree(ROOT, ignore_errors=True)


if __name__ == "__main__":
    main()
