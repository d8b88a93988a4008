//! `errcat watch`, run as an operator runs it: a watcher in the background,
//! runs of `errcat --data` that skip their stats while nothing changes and
//! see every change at once, `--status`, and the ways it stops.
//!
//! Every wait is bounded (a generous [`PATIENCE`]) and ends as soon as what is
//! awaited has happened; no test relies on a sleep being long enough.

#![cfg(all(feature = "cli", target_os = "linux"))]

use std::fs::{self, File};
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::time::{Duration, Instant, SystemTime};

use assert_cmd::cargo::cargo_bin;

/// The longest the watcher may take to start or stop (it takes milliseconds;
/// this only bounds a test on a very busy machine).
const PATIENCE: Duration = Duration::from_secs(20);

/// A dataset of two records an hour old (so that they are not racily clean
/// and the first run caches them), and a cache directory of its own.
struct Setup {
    data: tempfile::TempDir,
    cache: tempfile::TempDir,
}

fn record(id: &str, message: &str) -> String {
    format!(
        r#"{{"record": {{"id": "{id}", "errorMessage": "{message}", "severity": "error", "filePath": "server/x.go", "tags": ["t"]}}}}"#
    )
}

fn an_hour_ago() -> SystemTime {
    SystemTime::now() - Duration::from_secs(3600)
}

impl Setup {
    fn new() -> Setup {
        let setup = Setup { data: tempfile::tempdir().unwrap(), cache: tempfile::tempdir().unwrap() };
        fs::create_dir(setup.dir().join("sub")).unwrap();
        fs::write(setup.dir().join("a.json"), record("a1", "stream %s failed: %v")).unwrap();
        fs::write(setup.dir().join("sub/b.json"), record("b2", "limit %d reached")).unwrap();
        for path in ["a.json", "sub/b.json", "sub", ""] {
            File::open(setup.dir().join(path)).unwrap().set_modified(an_hour_ago()).unwrap();
        }
        setup
    }

    fn dir(&self) -> &Path {
        self.data.path()
    }

    fn errcat(&self, args: &[&str]) -> Command {
        let mut command = Command::new(cargo_bin("errcat"));
        command.env("ERRCAT_CACHE_DIR", self.cache.path()).arg("--data").arg(self.dir()).args(args);
        command
    }

    /// Runs `errcat --data DIR ARGS`: its exit code and standard output.
    fn run(&self, args: &[&str]) -> (i32, String) {
        let output = self.errcat(args).stderr(Stdio::inherit()).output().unwrap();
        (output.status.code().unwrap(), String::from_utf8(output.stdout).unwrap())
    }

    /// `errcat explain MESSAGE`: whether a record explains it, and what is said.
    fn explain(&self, message: &str) -> (i32, String) {
        self.run(&["explain", message])
    }

    /// Starts `errcat --data DIR watch`, and waits until it watches.
    fn watch(&self) -> Watching {
        let mut child = self.errcat(&["watch"]).stderr(Stdio::piped()).spawn().unwrap();
        let stderr = child.stderr.take().unwrap();
        let (sender, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stderr).lines().map_while(Result::ok) {
                let _ = sender.send(line);
            }
        });
        let mut watching = Watching { child, lines, said: Vec::new() };
        watching.await_line("errcat: watching ");
        watching
    }

    fn sockets(&self) -> Vec<PathBuf> {
        let entries = fs::read_dir(self.cache.path()).unwrap();
        entries
            .map(|entry| entry.unwrap().path())
            .filter(|path| path.extension().is_some_and(|e| e == "sock"))
            .collect()
    }
}

/// A running `errcat watch`, killed if a test fails.
struct Watching {
    child: Child,
    lines: Receiver<String>,
    /// What it wrote on standard error so far.
    said: Vec<String>,
}

impl Watching {
    /// Waits for a line of standard error that starts with `start`.
    fn await_line(&mut self, start: &str) -> String {
        let deadline = Instant::now() + PATIENCE;
        loop {
            if let Some(line) = self.said.iter().find(|line| line.starts_with(start)) {
                return line.clone();
            }
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) => self.said.push(line),
                Err(_) => panic!("no line starting {start:?} from errcat watch; it said {:?}", self.said),
            }
        }
    }

    /// Waits for the watcher to exit on its own.
    fn exited(&mut self) -> ExitStatus {
        let deadline = Instant::now() + PATIENCE;
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                return status;
            }
            assert!(Instant::now() < deadline, "errcat watch did not stop; it said {:?}", self.said);
            std::thread::sleep(Duration::from_millis(10));
        }
    }

    fn terminate(&mut self) -> ExitStatus {
        // SAFETY: a plain system call with the child's own process id.
        assert_eq!(unsafe { libc::kill(self.child.id() as i32, libc::SIGTERM) }, 0);
        self.exited()
    }
}

impl Drop for Watching {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

const FAILED: &str = "stream \"orders\" failed: nats: timeout";

#[test]
fn runs_skip_their_stats_while_nothing_changes_and_see_a_change_at_once() {
    let setup = Setup::new();
    let (code, before) = setup.explain(FAILED);
    assert_eq!(code, 0, "{before}");
    assert!(before.contains("a1"), "{before}");
    let mut watching = setup.watch();
    assert_eq!(setup.sockets().len(), 1);
    // The first run with a watcher checks the files; the next skips its
    // stats (as the status says), and explains alike.
    assert_eq!(setup.explain(FAILED), (0, before.clone()));
    assert_eq!(setup.explain(FAILED), (0, before.clone()));
    let (code, status) = setup.run(&["watch", "--status"]);
    assert_eq!(code, 0);
    assert!(status.contains("2 directories, 2 files; 0 changes seen"), "{status}");
    assert!(status.contains("runs that skipped their stats: 1, that checked the files: 1"), "{status}");

    // A record rewritten in place, within the second: a run right after sees it.
    fs::write(setup.dir().join("a.json"), record("a1", "stream %s broke: %v")).unwrap();
    let (code, after) = setup.explain(FAILED);
    assert_eq!(code, 1, "the old message is no longer explained: {after}");
    let (code, broke) = setup.explain("stream \"orders\" broke: nats: timeout");
    assert_eq!(code, 0, "{broke}");
    assert!(broke.contains("a1"), "{broke}");
    // A second watcher is refused while this one runs.
    let refused = setup.errcat(&["watch"]).output().unwrap();
    assert_eq!(refused.status.code(), Some(2));
    let said = String::from_utf8(refused.stderr).unwrap();
    assert!(said.contains("another watcher has this dataset"), "{said}");

    let status = watching.terminate();
    assert!(status.success(), "{status:?}: {:?}", watching.said);
    watching.await_line("errcat: stopped watching");
    assert_eq!(setup.sockets(), Vec::<PathBuf>::new(), "the socket is removed");
    let (code, status) = setup.run(&["watch", "--status"]);
    assert_eq!(code, 1, "{status}");
}

#[test]
fn the_watcher_stops_when_a_symbolic_link_appears_and_runs_check_the_files_again() {
    let setup = Setup::new();
    let mut watching = setup.watch();
    let outside = tempfile::tempdir().unwrap();
    fs::write(outside.path().join("c.json"), record("c3", "peer %s left")).unwrap();
    std::os::unix::fs::symlink(outside.path().join("c.json"), setup.dir().join("sub/c.json")).unwrap();
    let status = watching.exited();
    assert_eq!(status.code(), Some(2));
    let said = watching.await_line("errcat: stopped watching: ");
    assert!(said.contains("sub/c.json` is a symbolic link"), "{said}");
    assert_eq!(setup.sockets(), Vec::<PathBuf>::new());
    // The link's record is loaded, as without a watcher.
    let (code, explained) = setup.explain("peer \"n1\" left");
    assert_eq!(code, 0, "{explained}");
    // Nor does a new watcher start on it.
    let refused = setup.errcat(&["watch"]).output().unwrap();
    assert_eq!(refused.status.code(), Some(2));
    let said = String::from_utf8(refused.stderr).unwrap();
    assert!(said.contains("is a symbolic link"), "{said}");
}

#[test]
fn watch_needs_a_dataset_and_a_cache() {
    let output = Command::new(cargo_bin("errcat")).arg("watch").output().unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("watch needs a dataset: errcat --data DIR watch"));
    let setup = Setup::new();
    let mut no_cache = Command::new(cargo_bin("errcat"));
    let output = no_cache.env("ERRCAT_CACHE_DIR", setup.cache.path()).arg("--no-cache").arg("--data").arg(setup.dir());
    let output = output.arg("watch").output().unwrap();
    assert_eq!(output.status.code(), Some(2), "{output:?}");
    assert!(String::from_utf8_lossy(&output.stderr).contains("there is no cache directory"), "{output:?}");
}
