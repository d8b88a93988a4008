//! The README's commands, run as a reader would run them: the output shown
//! in its `console` block is compared line by line with what `errcat`
//! prints, and every `errcat` (and `cp`) line of its `sh` blocks runs, in
//! order, in a copy of the repository's `examples/` and `data/` beside its
//! `datasets/`, as in a clone (nothing outside the repository), and must
//! exit 0. The lines that cannot run
//! here (they follow a log forever, build with cargo, or need files only a
//! user has) are listed below with the reason, so that a new command is
//! either run or consciously left out.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::support;

/// README lines not run, each with why (matched by substring).
const NOT_RUN: [(&str, &str); 9] = [
    ("cargo run --release -p errcat", "the main job: `.ci/run` builds and runs it"),
    ("cargo test --workspace", "the test command itself"),
    ("cargo install --path errcat", "installs into the user's cargo home"),
    ("tail -F /var/log", "follows a log forever"),
    ("scan --follow /var/log", "follows a log forever"),
    ("--follow --metrics", "serves metrics while following a log forever (tests/it/metrics.rs runs it)"),
    ("new-export", "needs the user's new export of the dataset"),
    ("cargo build", "builds the user's crate"),
    ("cargo run --example", "examples are built by `cargo test`"),
];

struct Block {
    lang: String,
    lines: Vec<String>,
}

fn blocks(text: &str) -> Vec<Block> {
    let mut blocks = Vec::new();
    let mut open: Option<Block> = None;
    for line in text.lines() {
        match (line.strip_prefix("```"), open.take()) {
            (Some(lang), None) => open = Some(Block { lang: lang.trim().to_owned(), lines: Vec::new() }),
            (Some(_), Some(block)) => blocks.push(block),
            (None, Some(mut block)) => {
                block.lines.push(line.to_owned());
                open = Some(block);
            }
            (None, None) => {}
        }
    }
    blocks
}

/// A `sh` line without its trailing comment (two spaces and `#`).
fn command_of(line: &str) -> &str {
    line.split("  #").next().unwrap_or(line).trim()
}

fn copy_dir(from: &Path, to: &Path) {
    fs::create_dir_all(to).unwrap();
    for entry in fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            fs::copy(entry.path(), &target).unwrap();
        }
    }
}

/// A directory laid out as the README's commands expect: `repo/`, with its
/// `examples/` and `data/` (copies: commands write into them), `datasets/`
/// (a link: read only), and `server.log`, the log the README calls so.
struct Workspace {
    root: PathBuf,
}

impl Workspace {
    fn new() -> Workspace {
        let unique = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_nanos();
        let root = std::env::temp_dir().join(format!("errcat-readme-{}-{unique}", std::process::id()));
        let source = support::workspace_root();
        let repo = root.join("repo");
        copy_dir(&source.join("examples"), &repo.join("examples"));
        copy_dir(&source.join("data"), &repo.join("data"));
        fs::copy(source.join("examples/nats-server.log"), repo.join("server.log")).unwrap();
        std::os::unix::fs::symlink(source.join("datasets"), repo.join("datasets")).unwrap();
        Workspace { root }
    }

    fn run(&self, command: &str) -> std::process::Output {
        let errcat = PathBuf::from(env!("CARGO_BIN_EXE_errcat"));
        let path = format!("{}:{}", errcat.parent().unwrap().display(), std::env::var("PATH").unwrap_or_default());
        Command::new("sh")
            .args(["-c", command])
            .current_dir(self.root.join("repo"))
            .env("PATH", path)
            .env("HOME", &self.root)
            .env("ERRCAT_CACHE_DIR", self.root.join("cache"))
            .env_remove("ERRCAT_DATA")
            .output()
            .unwrap()
    }
}

impl Drop for Workspace {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.root);
    }
}

/// Whether `actual` is `expected`, where an expected line `...` stands for
/// any number of lines (at any indentation).
fn same_with_ellipses(expected: &[String], actual: &[&str]) -> bool {
    match expected.split_first() {
        None => actual.is_empty(),
        Some((first, rest)) if first.trim() == "..." => {
            (0..=actual.len()).any(|skipped| same_with_ellipses(rest, &actual[skipped..]))
        }
        Some((first, rest)) => {
            actual.split_first().is_some_and(|(line, more)| line == first && same_with_ellipses(rest, more))
        }
    }
}

#[test]
fn the_readme_commands_run_and_print_what_it_shows() {
    let readme = fs::read_to_string(support::workspace_root().join("README.md")).unwrap();
    let workspace = Workspace::new();
    let (mut ran, mut not_run, mut failures) = (0, Vec::new(), Vec::new());
    for block in blocks(&readme) {
        match block.lang.as_str() {
            "console" => {
                let mut lines = block.lines.iter();
                let command =
                    lines.next().and_then(|line| line.strip_prefix("$ ")).expect("a console block starts with `$ `");
                let expected: Vec<String> = lines.cloned().collect();
                let output = workspace.run(command);
                let stdout = String::from_utf8_lossy(&output.stdout);
                let actual: Vec<&str> = stdout.lines().collect();
                ran += 1;
                if !same_with_ellipses(&expected, &actual) {
                    failures
                        .push(format!("`{command}` printed:\n{stdout}\nthe README shows:\n{}", expected.join("\n")));
                }
            }
            "sh" => {
                for line in &block.lines {
                    let command = command_of(line);
                    if command.is_empty() {
                        continue;
                    }
                    if let Some((pattern, _)) = NOT_RUN.iter().find(|(pattern, _)| command.contains(pattern)) {
                        not_run.push(*pattern);
                        continue;
                    }
                    assert!(
                        command.starts_with("errcat ") || command.starts_with("cp "),
                        "a README command neither run nor listed in NOT_RUN: {command}"
                    );
                    let output = workspace.run(command);
                    ran += 1;
                    if !output.status.success() {
                        failures.push(format!(
                            "`{command}` exited with {}:\n{}{}",
                            output.status,
                            String::from_utf8_lossy(&output.stdout),
                            String::from_utf8_lossy(&output.stderr)
                        ));
                    }
                }
            }
            _ => {}
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    let unused: Vec<&str> =
        NOT_RUN.iter().map(|(pattern, _)| *pattern).filter(|pattern| !not_run.contains(pattern)).collect();
    assert!(unused.is_empty(), "NOT_RUN lists lines the README no longer has: {unused:?}");
    assert!(ran >= 10, "only {ran} README commands ran");
    // What the commands wrote is there.
    let repo = workspace.root.join("repo");
    for written in [
        "report.html",
        "errcat.rules.yml",
        "errcat.rules.test.yml",
        "data/nats-io/nats-server/error-catalog.names",
        "data-before/443048c6cb7c33f3.json",
        "drafts/nats-io/nats-server",
    ] {
        assert!(repo.join(written).exists(), "{written} was not written");
    }
}
