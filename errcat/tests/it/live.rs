//! `errcat` on live logs, run as a user runs it: output while the input is
//! still being written (pipes), `scan --follow` through log rotation, and
//! the summary on Ctrl-C.
//!
//! Every wait is bounded (a generous [`PATIENCE`]) and ends as soon as what is
//! awaited has happened; no test relies on a sleep being long enough.

#![cfg(unix)]

use std::fs::{self, OpenOptions};
use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

/// The repository's root: errcat runs there, on its files (the examples,
/// the seed dataset, the test data).
const ROOT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/..");

/// The longest any awaited output may take (the command does it in well
/// under 100 ms; this only bounds a test on a very busy machine).
const PATIENCE: Duration = Duration::from_secs(10);

/// A nats-server log prefix.
const PREFIX: &str = "[7] 2026/11/29 17:20:00.123456 [ERR] ";

/// Where the runs cache compiled catalogs: never the user's own cache.
const CACHE: &str = concat!(env!("CARGO_TARGET_TMPDIR"), "/errcat-cache");

/// A log line the embedded catalog knows (`UnableToPersistSession`), told
/// apart from the others by its session id.
pub(super) fn persist_line(session: &str) -> String {
    format!("{PREFIX}unable to persist session \"{session}\" (seq=3): nats: timeout")
}

/// A log line no record explains.
fn noise_line(n: usize) -> String {
    format!("[7] 2026/11/29 17:20:00.123456 [INF] client {n} connected")
}

/// A running `errcat` whose standard output is read line by line as it comes.
pub(super) struct Running {
    pub(super) child: Child,
    stdin: Option<ChildStdin>,
    pub(super) stdout: Receiver<String>,
    stderr: Receiver<String>,
    /// Standard output lines received so far.
    pub(super) seen: Vec<String>,
}

/// The lines of `from`, sent on a channel by a thread of their own.
pub(super) fn lines_of(from: impl Read + Send + 'static) -> Receiver<String> {
    let (sender, receiver) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(from).lines() {
            let Ok(line) = line else { return };
            if sender.send(line).is_err() {
                return;
            }
        }
    });
    receiver
}

/// Starts `errcat ARGS` with a pipe as standard input.
fn start(args: &[&str]) -> Running {
    start_in(Path::new(ROOT), args)
}

pub(super) fn start_in(dir: &Path, args: &[&str]) -> Running {
    let mut child = Command::new(assert_cmd::cargo::cargo_bin("errcat"))
        .current_dir(dir)
        .env("COLUMNS", "80")
        .env("ERRCAT_CACHE_DIR", CACHE)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("errcat starts");
    let stdout = lines_of(child.stdout.take().unwrap());
    let stderr = lines_of(child.stderr.take().unwrap());
    Running { stdin: child.stdin.take(), child, stdout, stderr, seen: Vec::new() }
}

impl Running {
    /// Writes `line` to errcat's standard input, which stays open.
    fn write_line(&mut self, line: &str) {
        let stdin = self.stdin.as_mut().expect("standard input is open");
        writeln!(stdin, "{line}").unwrap();
        stdin.flush().unwrap();
    }

    /// Waits for an output line containing `wanted`; the lines before it are
    /// kept in `seen` too. Panics, showing what came, when it does not come.
    fn expect_line(&mut self, wanted: &str) -> String {
        let deadline = Instant::now() + PATIENCE;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.stdout.recv_timeout(left) {
                Ok(line) => {
                    self.seen.push(line.clone());
                    if line.contains(wanted) {
                        return line;
                    }
                }
                Err(RecvTimeoutError::Timeout) => {
                    panic!("no line with {wanted:?} within {PATIENCE:?}; output so far: {:#?}", self.seen)
                }
                Err(RecvTimeoutError::Disconnected) => {
                    panic!("output ended without {wanted:?}: {:#?}\nstderr: {:#?}", self.seen, self.stderr_now())
                }
            }
        }
    }

    /// Waits for a standard error line containing `wanted`.
    pub(super) fn expect_error_line(&mut self, wanted: &str) -> String {
        let deadline = Instant::now() + PATIENCE;
        let mut seen = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.stderr.recv_timeout(left) {
                Ok(line) if line.contains(wanted) => return line,
                Ok(line) => seen.push(line),
                Err(err) => panic!("no stderr line with {wanted:?} ({err:?}); stderr so far: {seen:#?}"),
            }
        }
    }

    /// The standard error lines that have come so far.
    pub(super) fn stderr_now(&self) -> Vec<String> {
        self.stderr.try_iter().collect()
    }

    /// Closes standard input and collects the rest of the output and the
    /// exit status.
    fn finish(mut self) -> (Vec<String>, Vec<String>, i32) {
        drop(self.stdin.take());
        self.wait_for_exit()
    }

    pub(super) fn wait_for_exit(mut self) -> (Vec<String>, Vec<String>, i32) {
        let deadline = Instant::now() + PATIENCE;
        let status = loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                break status;
            }
            assert!(Instant::now() < deadline, "errcat did not exit within {PATIENCE:?}");
            std::thread::sleep(Duration::from_millis(10));
        };
        // The output threads end at end of file, which has now come.
        let mut stdout = std::mem::take(&mut self.seen);
        stdout.extend(self.stdout.iter());
        let stderr: Vec<String> = self.stderr.iter().collect();
        (stdout, stderr, status.code().expect("exited, not killed"))
    }

    /// Sends `signal` (SIGINT, SIGTERM) to errcat.
    pub(super) fn signal(&self, signal: libc::c_int) {
        let pid = libc::pid_t::try_from(self.child.id()).unwrap();
        // SAFETY: kill(2) on a child process this test started and has not reaped.
        assert_eq!(unsafe { libc::kill(pid, signal) }, 0);
    }

    /// The CPU time errcat has used so far.
    fn cpu_time(&self) -> Duration {
        let stat = fs::read_to_string(format!("/proc/{}/stat", self.child.id())).expect("a Linux /proc");
        // After the command name in parentheses: fields 14 and 15 of
        // proc(5) are the user and system time in clock ticks.
        let fields: Vec<&str> = stat[stat.rfind(')').unwrap() + 2..].split(' ').collect();
        let ticks: u64 = fields[11].parse::<u64>().unwrap() + fields[12].parse::<u64>().unwrap();
        // SAFETY: sysconf has no preconditions.
        let per_second = unsafe { libc::sysconf(libc::_SC_CLK_TCK) } as u64;
        Duration::from_millis(ticks * 1000 / per_second)
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        // A failed test must not leave errcat running.
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A writer that prints a matching line, waits, prints another (and lines no
/// record explains in between): errcat prints each match while its input is
/// still open, before the next line is written.
#[test]
fn scan_prints_each_match_of_a_pipe_as_it_arrives() {
    for args in [&["scan"][..], &["scan", "--json"], &["scan", "--threads", "1"], &["scan", "--json", "--threads", "2"]]
    {
        let mut errcat = start(args);
        for n in 0..3 {
            let session = format!("live-{n}");
            errcat.write_line(&noise_line(n));
            errcat.write_line(&persist_line(&session));
            let line = errcat.expect_line(&format!("\"{session}\""));
            if args.contains(&"--json") {
                let object: serde_json::Value = serde_json::from_str(&line).unwrap();
                assert_eq!(object["line"], 2 * n as u64 + 2, "{line}");
                assert_eq!(object["fields"]["ps_id"], session.as_str());
            } else {
                assert!(line.starts_with(&format!("<stdin>:{}: UnableToPersistSession(", 2 * n + 2)), "{line}");
            }
        }
        let (stdout, stderr, code) = errcat.finish();
        assert_eq!(code, 0, "{args:?}: {stderr:?}");
        let matches = stdout.iter().filter(|line| line.contains("\"live-")).count();
        assert_eq!(matches, 3, "{args:?}: each match once: {stdout:#?}");
        if !args.contains(&"--json") {
            assert!(stdout.iter().any(|line| line == "3 matching line(s), 1 distinct error(s)"), "{stdout:#?}");
        }
    }
}

/// A burst larger than a chunk then a pause: everything of the burst is
/// printed while the writer waits.
#[test]
fn scan_prints_a_burst_larger_than_a_chunk_before_the_input_ends() {
    let mut errcat = start(&["scan", "--json"]);
    let burst: String = (0..12_000).map(|n| persist_line(&format!("burst-{n}")) + "\n").collect();
    assert!(burst.len() > 1 << 20);
    let stdin = errcat.stdin.as_mut().unwrap();
    stdin.write_all(burst.as_bytes()).unwrap();
    stdin.flush().unwrap();
    errcat.expect_line("\"burst-11999\"");
    assert_eq!(errcat.seen.len(), 12_000);
    let (_, _, code) = errcat.finish();
    assert_eq!(code, 0);
}

#[test]
fn explain_prints_each_explanation_of_a_pipe_as_it_arrives() {
    let mut errcat = start(&["explain"]);
    for n in 0..3 {
        errcat.write_line(&persist_line(&format!("explained-{n}")));
        errcat.expect_line("UnableToPersistSession (error)");
        errcat.expect_line(&format!("ps_id = \"explained-{n}\""));
    }
    let (_, stderr, code) = errcat.finish();
    assert_eq!(code, 0, "{stderr:?}");
}

#[test]
fn explain_without_input_says_so() {
    let errcat = start(&["explain"]);
    let (stdout, stderr, code) = errcat.finish();
    assert_eq!(code, 1);
    assert!(stdout.is_empty(), "{stdout:?}");
    assert_eq!(
        stderr,
        ["errcat: nothing to explain: standard input is empty (give messages as arguments or pipe log lines in)"]
    );
}

/// Appends `lines` to the file at `path` in one write, creating it if
/// needed: a reader sees all of them or none.
pub(super) fn append(path: &Path, lines: &[String]) {
    let mut file = OpenOptions::new().create(true).append(true).open(path).unwrap();
    let text: String = lines.iter().map(|line| format!("{line}\n")).collect();
    file.write_all(text.as_bytes()).unwrap();
}

/// How many output lines report the session `session`.
fn reports_of(stdout: &[String], session: &str) -> usize {
    stdout.iter().filter(|line| line.contains(&format!("ps_id=\"{session}\""))).count()
}

/// A log that is appended to, rotated (renamed and recreated, with a last
/// line written to the renamed file), truncated in place, and a log created
/// after the start: every matching line written after the start is reported
/// once, with its line number; Ctrl-C prints the summary.
#[test]
fn follow_reports_each_new_line_once_through_rotation_truncation_and_a_late_file() {
    let dir = tempfile::tempdir().unwrap();
    let (log, late) = (dir.path().join("app.log"), dir.path().join("late.log"));
    append(&log, &[noise_line(0), persist_line("before-start")]);

    let mut errcat = start_in(dir.path(), &["scan", "--follow", "app.log", "late.log"]);
    errcat.expect_error_line("errcat: following app.log from line 3");
    errcat.expect_error_line("errcat: late.log: not found; following it when it appears");

    append(&log, &[persist_line("appended-1"), noise_line(1), persist_line("appended-2")]);
    assert!(errcat.expect_line("\"appended-1\"").starts_with("app.log:3: UnableToPersistSession("));
    assert!(errcat.expect_line("\"appended-2\"").starts_with("app.log:5: "));

    // logrotate's default: rename, the program writes on to the renamed
    // file until told to reopen, then writes to a new file.
    let rotated = dir.path().join("app.log.1");
    fs::rename(&log, &rotated).unwrap();
    append(&rotated, &[persist_line("rotated-old")]);
    append(&log, &[noise_line(2), persist_line("rotated-new")]);
    assert!(errcat.expect_line("\"rotated-old\"").starts_with("app.log:6: "));
    assert!(errcat.expect_line("\"rotated-new\"").starts_with("app.log:2: "));

    // copytruncate: the file is emptied in place and written on from its start.
    append(&log, &[persist_line("before-truncation")]);
    errcat.expect_line("\"before-truncation\"");
    OpenOptions::new().write(true).open(&log).unwrap().set_len(0).unwrap();
    errcat.expect_error_line("errcat: app.log: truncated; reading it from its start");
    append(&log, &[persist_line("after-truncation")]);
    assert!(errcat.expect_line("\"after-truncation\"").starts_with("app.log:1: "));

    append(&late, &[persist_line("late")]);
    assert!(errcat.expect_line("\"late\"").starts_with("late.log:1: "));

    errcat.signal(libc::SIGINT);
    let (stdout, stderr, code) = errcat.wait_for_exit();
    assert_eq!(code, 0, "{stderr:#?}");
    assert_eq!(reports_of(&stdout, "before-start"), 0, "{stdout:#?}");
    let sessions =
        ["appended-1", "appended-2", "rotated-old", "rotated-new", "before-truncation", "after-truncation", "late"];
    for session in sessions {
        assert_eq!(reports_of(&stdout, session), 1, "{session}: {stdout:#?}");
    }
    assert_eq!(stdout.last().map(String::as_str), Some("7 matching line(s), 1 distinct error(s)"), "{stdout:#?}");
    assert!(stdout.iter().any(|line| line.split_whitespace().take(3).eq(["7", "error", "UnableToPersistSession"])));
}

/// `--from-start` reports the lines already there; an idle follower uses
/// next to no CPU; SIGTERM prints the summary, and the exit status says
/// whether anything matched.
#[test]
fn follow_from_start_idles_cheaply_and_ends_on_sigterm_with_the_summary() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("app.log");
    append(&log, &[noise_line(0), persist_line("already-there")]);
    let mut errcat = start_in(dir.path(), &["scan", "--follow", "--from-start", "--json", "app.log"]);
    errcat.expect_error_line("errcat: following app.log from line 1");
    let object: serde_json::Value = serde_json::from_str(&errcat.expect_line("\"already-there\"")).unwrap();
    assert_eq!((object["file"].as_str(), object["line"].as_u64()), (Some("app.log"), Some(2)));

    // Idle: polling every 100 ms costs a few system calls, not a core.
    let (before, started) = (errcat.cpu_time(), Instant::now());
    std::thread::sleep(Duration::from_secs(1));
    let (used, elapsed) = (errcat.cpu_time() - before, started.elapsed());
    assert!(used < elapsed / 5, "{used:?} of CPU in {elapsed:?} of idling");

    errcat.signal(libc::SIGTERM);
    let (stdout, stderr, code) = errcat.wait_for_exit();
    assert_eq!(code, 0, "{stderr:#?}");
    assert_eq!(reports_of(&stdout, "already-there"), 0, "JSON, not text: {stdout:#?}");
    assert_eq!(stdout.len(), 1, "--json has no summary: {stdout:#?}");

    let mut errcat = start_in(dir.path(), &["scan", "-f", "app.log"]);
    errcat.expect_error_line("errcat: following app.log from line 3");
    append(&log, &[noise_line(1)]);
    errcat.signal(libc::SIGTERM);
    let (stdout, _, code) = errcat.wait_for_exit();
    assert_eq!(code, 1, "nothing matched");
    assert_eq!(stdout, ["no known error found", "0 matching line(s), 0 distinct error(s)"]);
}

/// `line` as Docker's json-file driver writes it.
fn docker_line(line: &str) -> String {
    docker_entry(&format!("{line}\n"), "stderr")
}

/// A json-file entry of `log` (a whole line ends with `\n`, a piece of a
/// longer one does not) written to `stream`, escaped as moby's
/// `daemon/logger/jsonfilelog/jsonlog/jsonlogbytes.go` escapes it (Go's
/// `encoding/json` rules: `<`, `>`, `&` as `\u003c`, `\u003e`, `\u0026`).
fn docker_entry(log: &str, stream: &str) -> String {
    let log =
        serde_json::to_string(log).unwrap().replace('<', "\\u003c").replace('>', "\\u003e").replace('&', "\\u0026");
    format!(r#"{{"log":{log},"stream":"{stream}","time":"2026-11-29T17:20:00.123456789Z"}}"#)
}

/// A CRI line (containerd, CRI-O) of `message`, tagged `P` (a piece of a
/// longer line) or `F` (its last piece, or the whole line).
pub(super) fn cri_line(stream: &str, tag: &str, message: &str) -> String {
    format!("2026-11-29T17:20:00.123456789Z {stream} {tag} {message}")
}

/// Longer than a poll of the followed files (100 ms), shorter than the wait
/// of a line's pieces for the rest of it (1 s).
const BETWEEN_PIECES: Duration = Duration::from_millis(300);

/// The JSON object of the one match of `session` in `stdout`.
fn the_match_of(stdout: &[String], session: &str) -> serde_json::Value {
    let objects: Vec<serde_json::Value> = stdout
        .iter()
        .map(|line| serde_json::from_str(line).unwrap())
        .filter(|object: &serde_json::Value| object["fields"]["ps_id"] == session)
        .collect();
    assert_eq!(objects.len(), 1, "one match of {session:?}: {stdout:#?}");
    objects.into_iter().next().unwrap()
}

/// `errcat scan --follow OPTIONS docker.log cri.log` in `dir`, the files
/// made with a line each in their envelope, once it follows both.
fn follow_docker_and_cri(dir: &Path, options: &[&str]) -> (Running, PathBuf, PathBuf) {
    let (docker, cri) = (dir.join("docker.log"), dir.join("cri.log"));
    append(&docker, &[docker_line(&noise_line(0))]);
    append(&cri, &[cri_line("stdout", "F", &noise_line(0))]);
    let args = [&["scan", "--follow"][..], options, &["docker.log", "cri.log"]].concat();
    let mut errcat = start_in(dir, &args);
    errcat.expect_error_line("errcat: following docker.log from line 2");
    errcat.expect_error_line("errcat: following cri.log from line 2");
    (errcat, docker, cri)
}

/// A line that Docker (no trailing `\n` in a piece) or containerd (`P`
/// until `F`) wrote in two pieces, the second appended after a pause longer
/// than a poll (another stream's line between them): classified once, as
/// the whole line, numbered as its first piece, with the values the plain
/// line has; no piece is classified alone.
#[test]
fn follow_joins_the_pieces_of_a_line_written_at_different_times() {
    let dir = tempfile::tempdir().unwrap();
    let (mut errcat, docker, cri) = follow_docker_and_cri(dir.path(), &["--json"]);
    // Split inside the quoted value, next to non-ASCII and escaped bytes.
    let (docker_session, cri_session) = ("pièce <1> & «2»", "pièce <3> & «4»");
    let halves = |session: &str| {
        let whole = persist_line(session);
        let cut = whole.find("ce <").unwrap();
        (whole[..cut].to_owned(), whole[cut..].to_owned())
    };
    let ((docker_first, docker_rest), (cri_first, cri_rest)) = (halves(docker_session), halves(cri_session));
    append(&docker, &[docker_line(&noise_line(1)), docker_entry(&docker_first, "stderr")]);
    append(&cri, &[cri_line("stdout", "F", &noise_line(1)), cri_line("stderr", "P", &cri_first)]);
    std::thread::sleep(BETWEEN_PIECES);
    append(&docker, &[docker_entry(&format!("{docker_rest}\n"), "stderr")]);
    append(&cri, &[cri_line("stdout", "F", &noise_line(2)), cri_line("stderr", "F", &cri_rest)]);
    append(&docker, &[docker_line(&persist_line("after-docker"))]);
    append(&cri, &[cri_line("stderr", "F", &persist_line("after-cri"))]);
    errcat.expect_line("after-docker");
    errcat.expect_line("after-cri");
    errcat.signal(libc::SIGTERM);
    let (stdout, stderr, code) = errcat.wait_for_exit();
    assert_eq!(code, 0, "{stderr:#?}");
    assert!(!stderr.iter().any(|line| line.contains("piece")), "no note of a piece: {stderr:#?}");
    assert_eq!(stdout.len(), 4, "the joined lines and the lines after them: {stdout:#?}");
    for (session, file, envelope) in [(docker_session, "docker.log", "docker"), (cri_session, "cri.log", "cri")] {
        let object = the_match_of(&stdout, session);
        assert_eq!((object["file"].as_str(), object["line"].as_u64()), (Some(file), Some(3)), "{object}");
        assert_eq!(
            (object["name"].as_str(), object["envelope"].as_str()),
            (Some("UnableToPersistSession"), Some(envelope))
        );
        assert_eq!(object["args"], serde_json::json!([session, "3", "nats: timeout"]), "{object}");
        assert_eq!(object["span"], serde_json::json!([PREFIX.len(), persist_line(session).len()]), "{object}");
    }
}

/// Piped (`tail -F log | errcat scan`), the pieces of a line written with
/// a pause between them are joined too, and a piece whose line never ends
/// is classified as it stands after a short wait, the pipe still open.
#[test]
fn scan_of_a_pipe_joins_the_pieces_of_a_line_written_at_different_times() {
    let mut errcat = start(&["scan", "--json"]);
    let whole = persist_line("piped «piece»");
    let (first, rest) = whole.split_at(whole.find("«").unwrap());
    errcat.write_line(&cri_line("stderr", "F", &noise_line(0)));
    errcat.write_line(&cri_line("stderr", "P", first));
    std::thread::sleep(BETWEEN_PIECES);
    errcat.write_line(&cri_line("stderr", "F", rest));
    let object: serde_json::Value = serde_json::from_str(&errcat.expect_line("piped")).unwrap();
    assert_eq!(object["fields"]["ps_id"], "piped «piece»", "{object}");
    assert_eq!((object["line"].as_u64(), object["envelope"].as_str()), (Some(2), Some("cri")), "{object}");
    errcat.write_line(&cri_line("stderr", "P", &persist_line("never-ended")));
    errcat.expect_error_line("errcat: <stdin>:4: the last piece of this line never came");
    errcat.expect_line("never-ended");
    let (stdout, stderr, code) = errcat.finish();
    assert_eq!(code, 0, "{stderr:#?}");
    assert_eq!(stdout.len(), 2, "no piece classified alone: {stdout:#?}");
}

/// A piece whose line is never finished waits for the rest of it about a
/// second, then is classified as it stands (with a note), while errcat
/// keeps following; stopped, errcat classifies the pieces still waiting.
#[test]
fn follow_classifies_a_piece_whose_line_never_ends_after_a_short_wait() {
    let dir = tempfile::tempdir().unwrap();
    let (mut errcat, docker, cri) = follow_docker_and_cri(dir.path(), &[]);
    append(&docker, &[docker_entry(&persist_line("never-ended-docker"), "stderr")]);
    let note = errcat.expect_error_line("the last piece of this line never came");
    assert!(note.starts_with("errcat: docker.log:2: "), "{note}");
    assert!(errcat.expect_line("never-ended-docker").starts_with("docker.log:2: UnableToPersistSession("));
    append(&cri, &[cri_line("stderr", "P", &persist_line("never-ended-cri"))]);
    errcat.expect_error_line("errcat: cri.log:2: the last piece of this line never came");
    errcat.expect_line("never-ended-cri");
    // Still following: a whole line written next is classified too.
    append(&cri, &[cri_line("stderr", "F", &persist_line("next-cri"))]);
    assert!(errcat.expect_line("next-cri").starts_with("cri.log:3: "));
    // Stopped while a piece waits: it is classified before the summary.
    append(&docker, &[docker_entry(&persist_line("waiting-at-stop"), "stderr")]);
    std::thread::sleep(BETWEEN_PIECES);
    errcat.signal(libc::SIGTERM);
    let (stdout, stderr, code) = errcat.wait_for_exit();
    assert_eq!(code, 0, "{stderr:#?}");
    assert_eq!(reports_of(&stdout, "waiting-at-stop"), 1, "{stdout:#?}");
    assert_eq!(stdout.last().map(String::as_str), Some("4 matching line(s), 1 distinct error(s)"), "{stdout:#?}");
}

/// A followed file replaced by one in another envelope (renamed and
/// recreated, or truncated in place) has its envelope chosen again from the
/// new file's first lines.
#[test]
fn follow_detects_the_envelope_of_a_file_that_replaces_the_one_followed() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("app.log");
    append(&log, &[noise_line(0)]);
    let mut errcat = start_in(dir.path(), &["scan", "--follow", "--json", "app.log"]);
    errcat.expect_error_line("errcat: following app.log from line 2");
    append(&log, &[persist_line("plain-before")]);
    let object: serde_json::Value = serde_json::from_str(&errcat.expect_line("plain-before")).unwrap();
    assert!(object["envelope"].is_null(), "{object}");

    // Rotated: a new file of Docker lines (a `%q` value escaped in them).
    fs::rename(&log, dir.path().join("app.log.1")).unwrap();
    append(&log, &[docker_line(&noise_line(1)), docker_line(&persist_line(r#"docker \"after\" <rotation>"#))]);
    errcat.expect_error_line("errcat: app.log: replaced by a new file; reading it from its start");
    let object: serde_json::Value = serde_json::from_str(&errcat.expect_line("after")).unwrap();
    assert_eq!(object["fields"]["ps_id"], r#"docker "after" <rotation>"#, "{object}");
    assert_eq!((object["line"].as_u64(), object["envelope"].as_str()), (Some(2), Some("docker")), "{object}");

    // Truncated in place and written on in CRI lines.
    OpenOptions::new().write(true).open(&log).unwrap().set_len(0).unwrap();
    errcat.expect_error_line("errcat: app.log: truncated; reading it from its start");
    append(&log, &[cri_line("stderr", "F", &persist_line("cri after truncation"))]);
    let object: serde_json::Value = serde_json::from_str(&errcat.expect_line("cri after truncation")).unwrap();
    assert_eq!((object["line"].as_u64(), object["envelope"].as_str()), (Some(1), Some("cri")), "{object}");
    // The span is in the line as read: the message's, after the CRI fields.
    let at = object["message_span"][0].as_u64().unwrap() as usize;
    let span = [at + PREFIX.len(), at + persist_line("cri after truncation").len()];
    assert_eq!(object["span"], serde_json::json!(span), "{object}");
    errcat.signal(libc::SIGTERM);
    let (_, stderr, code) = errcat.wait_for_exit();
    assert_eq!(code, 0, "{stderr:#?}");
}

/// With `--envelope auto` (the default), each followed file's envelope is
/// chosen from its first lines, as a scanned file's is: Docker lines are
/// unwrapped (the `%q` value has no escapes left), plain lines beside them
/// are read as they are, and `--envelope none` reads them all plain.
#[test]
fn follow_detects_each_file_s_envelope_from_its_first_lines() {
    let dir = tempfile::tempdir().unwrap();
    let (docker, plain) = (dir.path().join("docker.log"), dir.path().join("plain.log"));
    append(&docker, &[docker_line(&noise_line(0))]);
    append(&plain, &[noise_line(0)]);
    let mut errcat = start_in(dir.path(), &["scan", "--follow", "--json", "docker.log", "plain.log"]);
    errcat.expect_error_line("errcat: following docker.log from line 2");
    errcat.expect_error_line("errcat: following plain.log from line 2");
    append(&docker, &[docker_line(&noise_line(1)), docker_line(&persist_line("wrapped-1"))]);
    append(&plain, &[persist_line("bare-1")]);
    for (session, file, line, envelope) in
        [("wrapped-1", "docker.log", 3, Some("docker")), ("bare-1", "plain.log", 2, None)]
    {
        let object: serde_json::Value = serde_json::from_str(&errcat.expect_line(session)).unwrap();
        assert_eq!(object["fields"]["ps_id"], session, "{object}");
        assert_eq!((object["file"].as_str(), object["line"].as_u64()), (Some(file), Some(line)), "{object}");
        assert_eq!(object["envelope"].as_str(), envelope, "{object}");
    }
    errcat.signal(libc::SIGTERM);
    let (_, stderr, code) = errcat.wait_for_exit();
    assert_eq!(code, 0, "{stderr:#?}");

    // Told to read plain lines, errcat leaves the Docker line as it is:
    // the escaped `%q` value is not found (a plain line after it is).
    let mut errcat = start_in(dir.path(), &["scan", "--follow", "--json", "--envelope", "none", "docker.log"]);
    errcat.expect_error_line("errcat: following docker.log from line 4");
    append(&docker, &[docker_line(&persist_line("wrapped-2")), persist_line("bare-2")]);
    errcat.expect_line("bare-2");
    errcat.signal(libc::SIGTERM);
    let (stdout, _, _) = errcat.wait_for_exit();
    let objects: Vec<serde_json::Value> = stdout.iter().map(|line| serde_json::from_str(line).unwrap()).collect();
    assert!(objects.iter().all(|object| object["fields"]["ps_id"] != "wrapped-2" && object["envelope"].is_null()));
    assert_eq!(objects.len(), 1, "{stdout:#?}");
}

#[test]
fn follow_needs_files() {
    for args in [&["scan", "--follow"][..], &["scan", "--follow", "-"]] {
        let (stdout, stderr, code) = start(args).finish();
        assert_eq!(code, 2);
        assert!(stdout.is_empty());
        assert_eq!(stderr.len(), 1);
        assert!(stderr[0].starts_with("errcat: --follow reads files: name them"), "{stderr:?}");
    }
}
