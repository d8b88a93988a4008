//! `errcat scan --metrics` and `errcat rules` against the real Prometheus
//! tools: scrapes checked by `promtool check metrics`, generated rules by
//! `promtool check rules` and `promtool test rules`, and a real Prometheus
//! server scraping errcat while a log is appended to and rotated, its
//! counters read back through Prometheus's query API.
//!
//! The tools come from Debian's `prometheus` package. Without them a test
//! says loudly that it is skipped; in CI (`CI` or
//! `ERROR_CATALOG_REQUIRE_TOOLS` set) it fails, since `.ci/run` installs
//! them. Every wait is bounded and ends as soon as what is awaited happened.

#![cfg(unix)]

use std::fs::{self, OpenOptions};
use std::io::{BufRead, BufReader, Write};
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::time::{Duration, Instant};

/// The repository's root.
const ROOT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/..");
/// The nats-server corpus (2,008 records), beside the repository.
const NATS_CORPUS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../datasets/nats-server");
/// Where the runs cache compiled catalogs: never the user's own cache.
const CACHE: &str = concat!(env!("CARGO_TARGET_TMPDIR"), "/errcat-cache");
/// The longest anything awaited may take (Prometheus scrapes every second).
const PATIENCE: Duration = Duration::from_secs(30);

/// A nats-server log line of `UnableToPersistSession` (record
/// 503f49fe39cf5793 of the embedded catalog, 69c0c8f50f54e0c9 of the
/// nats-server corpus) for the session `session`.
fn persist_line(session: &str) -> String {
    format!("[7] 2026/11/29 17:20:00.123456 [ERR] unable to persist session \"{session}\" (seq=3): nats: timeout")
}

/// The Prometheus tool `name`, or `None` after saying loudly why the test
/// is skipped; in CI a missing tool fails the test.
pub(super) fn tool_or_skip(name: &str, test: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH").unwrap_or_default();
    if let Some(found) = std::env::split_paths(&path).map(|dir| dir.join(name)).find(|path| path.is_file()) {
        return Some(found);
    }
    let required = std::env::var_os("CI").is_some() || std::env::var_os("ERROR_CATALOG_REQUIRE_TOOLS").is_some();
    assert!(!required, "{test}: `{name}` is not on the PATH; .ci/run installs it (apt-get install -y prometheus)");
    let _ = writeln!(
        std::io::stderr(),
        "\n*** SKIPPED {test}: `{name}` is not on the PATH. Install it with `apt-get install -y prometheus`. ***\n"
    );
    None
}

/// The nats-server corpus, or `None` after saying loudly why the test is
/// skipped (a failure when `ERROR_CATALOG_REQUIRE_CORPUS` is set).
fn nats_corpus_or_skip(test: &str) -> Option<PathBuf> {
    let dir = Path::new(NATS_CORPUS);
    if dir.is_dir() {
        return Some(dir.to_owned());
    }
    let reason = format!("the corpus {} is absent", dir.display());
    assert!(std::env::var_os("ERROR_CATALOG_REQUIRE_CORPUS").is_none(), "{test}: {reason}");
    let _ = writeln!(std::io::stderr(), "\n*** SKIPPED {test}: {reason}. ***\n");
    None
}

pub(super) fn errcat_command() -> Command {
    let mut command = Command::new(assert_cmd::cargo::cargo_bin("errcat"));
    command.current_dir(ROOT).env("ERRCAT_CACHE_DIR", CACHE);
    // The seed records, whose matches in the example log these tests know.
    command.env("ERRCAT_DATASET", "seeds");
    command
}

/// A running child process, killed if the test ends early.
pub(super) struct Running {
    child: Child,
    stderr: Receiver<String>,
    /// The stderr lines received so far.
    seen: Vec<String>,
}

impl Running {
    pub(super) fn start(mut command: Command) -> Running {
        let mut child =
            command.stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().expect("it starts");
        let (sender, stderr) = mpsc::channel();
        let from = child.stderr.take().unwrap();
        std::thread::spawn(move || {
            for line in BufReader::new(from).lines().map_while(Result::ok) {
                if sender.send(line).is_err() {
                    return;
                }
            }
        });
        Running { child, stderr, seen: Vec::new() }
    }

    /// Waits for a stderr line containing `wanted`.
    pub(super) fn expect_error_line(&mut self, wanted: &str) -> String {
        let deadline = Instant::now() + PATIENCE;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.stderr.recv_timeout(left) {
                Ok(line) if line.contains(wanted) => return line,
                Ok(line) => self.seen.push(line),
                Err(err) => panic!("no stderr line with {wanted:?} ({err:?}); stderr so far: {:#?}", self.seen),
            }
        }
    }

    /// errcat's metrics address, from its first line on stderr.
    pub(super) fn metrics_address(&mut self) -> String {
        let line = self.expect_error_line("serving metrics on http://");
        let address = line.split("http://").nth(1).unwrap();
        address.strip_suffix("/metrics").unwrap().to_owned()
    }

    /// Sends SIGTERM (with kill(1): no unsafe code in tests either) and
    /// waits for the exit: the exit code and the whole standard output.
    pub(super) fn terminate(mut self) -> (i32, String) {
        let killed = Command::new("kill").args(["-TERM", &self.child.id().to_string()]).status().unwrap();
        assert!(killed.success());
        let deadline = Instant::now() + PATIENCE;
        let status = loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                break status;
            }
            assert!(Instant::now() < deadline, "no exit within {PATIENCE:?} of SIGTERM");
            std::thread::sleep(Duration::from_millis(10));
        };
        let mut stdout = String::new();
        std::io::Read::read_to_string(&mut self.child.stdout.take().unwrap(), &mut stdout).unwrap();
        (status.code().expect("exited, not killed"), stdout)
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// `GET http://ADDRESS/PATH` with `accept`: the status, content type and body.
pub(super) fn get(address: &str, path: &str, accept: &str) -> (u16, String, String) {
    let agent: ureq::Agent = ureq::Agent::config_builder().http_status_as_error(false).build().into();
    let mut response = agent.get(format!("http://{address}{path}")).header("Accept", accept).call().unwrap();
    let content_type = response.headers().get("content-type").map(|v| v.to_str().unwrap().to_owned());
    let body = response.body_mut().read_to_string().unwrap();
    (response.status().as_u16(), content_type.unwrap_or_default(), body)
}

pub(super) fn scrape(address: &str) -> String {
    let (status, content_type, body) = get(address, "/metrics", "text/plain;version=0.0.4");
    assert_eq!(status, 200, "{body}");
    assert_eq!(content_type, "text/plain; version=0.0.4; charset=utf-8");
    body
}

/// Waits until `check` is true of a scrape; the scrape.
fn scrape_until(address: &str, what: &str, check: impl Fn(&str) -> bool) -> String {
    let deadline = Instant::now() + PATIENCE;
    loop {
        let text = scrape(address);
        if check(&text) {
            return text;
        }
        assert!(Instant::now() < deadline, "no scrape with {what} within {PATIENCE:?}:\n{text}");
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn append(path: &Path, lines: &[String]) {
    let mut file = OpenOptions::new().create(true).append(true).open(path).unwrap();
    for line in lines {
        writeln!(file, "{line}").unwrap();
    }
}

/// `promtool ARGS` with `stdin`: its output, checked to be a success.
fn promtool(promtool: &Path, args: &[&str], stdin: &str) -> Output {
    let mut child = Command::new(promtool)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(stdin.as_bytes()).unwrap();
    let output = child.wait_with_output().unwrap();
    assert!(
        output.status.success(),
        "promtool {args:?} failed: {}\n{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    output
}

/// A dataset of records whose texts are hostile to every layer they pass
/// through: label values (quotes, backslashes, line breaks, braces), YAML
/// (`: `, `#`, quotes) and Prometheus templates (`{{`), with non-ASCII text.
/// The dataset is `records/` in the temporary directory returned.
fn hostile_dataset() -> (tempfile::TempDir, PathBuf) {
    let temporary = tempfile::tempdir().unwrap();
    let dir = temporary.path().join("records");
    fs::create_dir(&dir).unwrap();
    let records = [
        serde_json::json!({
            "id": "a1b2c3d4e5f60001", "repo": "evil/\"repo\"\n{x=\"1\"}", "slug": "quoted",
            "errorMessage": "cannot open \"%s\": {{ .Value }} # not a comment: é",
            "messagePattern": "cannot open \"(.+?)\": \\{\\{ \\.Value \\}\\} # not a comment: é",
            "severity": "error", "filePath": "x.go",
            "githubUrl": "https://example.invalid/x.go#L1?a=\"b\"&c={{d}}",
            "documentation": "Line one: \"quoted\"\n  - not: yaml\n{{ template \"x\" }} \\ ü 日本",
            "solutions": ["Run `rm -rf {{ $labels.id }}`; then: retry\u{2028}now"], "tags": ["hostile"],
        }),
        serde_json::json!({
            "id": "a1b2c3d4e5f60002", "repo": "evil/repo", "slug": "warned",
            "errorMessage": "slow consumer %d", "messagePattern": "slow consumer (\\d+)",
            "severity": "warning", "filePath": "y.go", "documentation": "", "solutions": [], "tags": [],
        }),
    ];
    for record in records {
        let id = record["id"].as_str().unwrap().to_owned();
        let file = serde_json::json!({ "record": record, "datasetVersion": "v\"1\"\n2" });
        fs::write(dir.join(format!("{id}.json")), file.to_string()).unwrap();
    }
    (temporary, dir)
}

/// With a hostile catalog and a hostile file name, the scrape passes
/// `promtool check metrics` before and after lines are counted; every
/// record has its series from the start, at 0; values from the log never
/// become labels; `/-/healthy` answers; SIGTERM ends errcat with status 0.
#[test]
fn scrapes_pass_promtool_and_log_values_never_become_series() {
    let test = "scrapes_pass_promtool_and_log_values_never_become_series";
    let Some(promtool_path) = tool_or_skip("promtool", test) else { return };
    let (dir, data) = hostile_dataset();
    let log = dir.path().join("app \"1\"\n{x}.log");
    append(&log, &["cannot open \"before\": {{ .Value }} # not a comment: é".to_owned()]);
    let mut command = errcat_command();
    command.arg("--data").arg(&data).args(["scan", "--follow", "--metrics", "127.0.0.1:0"]).arg(&log);
    let mut errcat = Running::start(command);
    let address = errcat.metrics_address();
    errcat.expect_error_line("from line 2");

    let text = scrape(&address);
    let series: Vec<&str> = text.lines().filter(|line| line.starts_with("errcat_matches_total{")).collect();
    assert_eq!(series.len(), 2, "{text}");
    assert!(series.iter().all(|line| line.ends_with("} 0")), "{text}");
    assert!(
        text.contains(r#"repo="evil/\"repo\"\n{x=\"1\"}",dataset="records"} 0"#),
        "the encoder escapes label values: {text}"
    );
    promtool(&promtool_path, &["check", "metrics"], &text);

    // A value in the log that looks like exposition text stays a value.
    let forged = "x\"} 1 errcat_matches_total{id=\"forged\"} 99 #";
    let prefix = "[1] 2026/11/29 17:20:00.123456";
    append(
        &log,
        &[
            format!("{prefix} [ERR] cannot open \"{forged}\": {{{{ .Value }}}} # not a comment: é"),
            format!("{prefix} [WRN] slow consumer 12"),
            format!("{prefix} [ERR] nothing known"),
            "ünïcödé with no level".to_owned(),
        ],
    );
    let text = scrape_until(&address, "4 lines read", |text| text.contains(".log\"} 4\n"));
    assert!(!text.contains("forged"), "{text}");
    assert_eq!(text.lines().filter(|line| line.starts_with("errcat_matches_total{")).count(), 2);
    assert_eq!(
        text.lines().filter(|line| line.starts_with("errcat_matches_total{") && line.ends_with("} 1")).count(),
        2,
        "{text}"
    );
    assert!(
        text.contains("errcat_lines_read_total{input=\"") && text.contains("app \\\"1\\\"\\n{x}.log\"} 4\n"),
        "{text}"
    );
    for (level, count) in [("WRN", 0), ("ERR", 1), ("none", 1), ("INF", 0)] {
        assert!(text.contains(&format!("errcat_unmatched_lines_total{{level=\"{level}\"}} {count}\n")), "{text}");
    }
    assert!(text.contains(r#"errcat_catalog_info{dataset_version="v\"1\"\n2","#), "{text}");
    promtool(&promtool_path, &["check", "metrics"], &text);

    // What Prometheus asks for: OpenMetrics.
    let (status, content_type, open_metrics) = get(
        &address,
        "/metrics",
        "application/openmetrics-text;version=1.0.0,application/openmetrics-text;version=0.0.1;q=0.75,text/plain;version=0.0.4;q=0.5,*/*;q=0.1",
    );
    assert_eq!(status, 200);
    assert_eq!(content_type, "application/openmetrics-text; version=1.0.0; charset=utf-8");
    assert!(open_metrics.ends_with("# EOF\n"));
    assert!(open_metrics.contains("# TYPE errcat_catalog info\n"));
    assert!(open_metrics.contains("# UNIT errcat_start_time_seconds seconds\n"));

    let (status, _, body) = get(&address, "/-/healthy", "*/*");
    assert_eq!((status, body.as_str()), (200, "errcat is healthy.\n"));
    assert_eq!(get(&address, "/other", "*/*").0, 404);

    let (code, stdout) = errcat.terminate();
    assert_eq!(code, 0, "{stdout}");
    assert!(stdout.contains("2 matching line(s), 2 distinct error(s)"), "{stdout}");
}

/// Standard input without --follow: counted as it arrives (a line that is
/// not UTF-8 too, as an input error), served, and SIGTERM ends errcat with
/// status 0 while the pipe is still open.
#[test]
fn a_pipe_is_served_until_sigterm() {
    let mut command = errcat_command();
    command.args(["scan", "--count", "--metrics", "127.0.0.1:0"]);
    let mut errcat = Running::start(command);
    let address = errcat.metrics_address();
    let stdin = errcat.child.stdin.as_mut().unwrap();
    writeln!(stdin, "{}\n{}", persist_line("s1"), persist_line("s 2, é")).unwrap();
    // Not UTF-8: read with replacement characters, and counted.
    stdin.write_all(b"[7] 2026/11/29 17:20:00.123456 [ERR] \xff\xfe broken\n").unwrap();
    stdin.flush().unwrap();
    let wanted = "errcat_matches_total{id=\"503f49fe39cf5793\",name=\"UnableToPersistSession\",severity=\"error\",repo=\"nats-io/nats-server\",dataset=\"seeds\"} 2\n";
    scrape_until(&address, "2 matches", |text| text.contains(wanted));
    let text =
        scrape_until(&address, "3 lines", |text| text.contains("errcat_lines_read_total{input=\"<stdin>\"} 3\n"));
    assert!(text.contains("errcat_input_errors_total{reason=\"invalid_utf8\"} 1\n"), "{text}");
    assert!(text.contains("errcat_unmatched_lines_total{level=\"ERR\"} 1\n"), "{text}");
    let (code, stdout) = errcat.terminate();
    assert_eq!(code, 0, "stopped by a signal, the problem counted");
    assert!(stdout.contains("2 matching line(s), 1 distinct error(s)"), "{stdout}");
}

/// A bad address and a port in use are errors naming the address; files
/// without --follow are refused; nothing is followed then.
#[test]
fn bad_addresses_and_ports_in_use_are_named() {
    let taken = TcpListener::bind("127.0.0.1:0").unwrap();
    let taken = taken.local_addr().unwrap().to_string();
    let cases = [
        (
            vec!["scan", "--metrics", "not-an-address", "--follow", "x.log"],
            "errcat: --metrics not-an-address: not an address to listen on",
        ),
        (
            vec!["scan", "--metrics", "127.0.0.1:99999", "--follow", "x.log"],
            "errcat: --metrics 127.0.0.1:99999: not an address to listen on",
        ),
        (
            vec!["scan", "--metrics", &taken, "--follow", "x.log"],
            &*format!("errcat: --metrics {taken}: cannot listen: Address already in use"),
        ),
        (vec!["scan", "--metrics", "127.0.0.1:0", "x.log"], "errcat: --metrics reads live inputs: add --follow"),
    ];
    for (args, wanted) in cases {
        let output = errcat_command().args(&args).stdin(Stdio::null()).output().unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.lines().next().unwrap_or_default().starts_with(wanted), "{args:?}: {stderr}");
        assert!(!stderr.contains("following"), "{args:?}: {stderr}");
    }
}

/// Writes `errcat [--data DATA] rules ARGS` and its tests into `dir`, then
/// checks them with promtool: the rules' text.
fn checked_rules(promtool_path: &Path, data: Option<&Path>, args: &[&str], dir: &Path) -> String {
    let mut command = errcat_command();
    if let Some(data) = data {
        command.arg("--data").arg(data);
    }
    let tests = dir.join("errcat.rules.test.yml");
    let output = command.arg("rules").args(args).arg("--tests").arg(&tests).output().unwrap();
    assert_eq!(output.status.code(), Some(0), "{}", String::from_utf8_lossy(&output.stderr));
    let rules = String::from_utf8(output.stdout).unwrap();
    let rules_path = dir.join("errcat.rules.yml");
    fs::write(&rules_path, &rules).unwrap();
    let checked = promtool(promtool_path, &["check", "rules", rules_path.to_str().unwrap()], "");
    assert!(String::from_utf8_lossy(&checked.stdout).contains("SUCCESS"), "{checked:?}");
    promtool(promtool_path, &["test", "rules", tests.to_str().unwrap()], "");
    rules
}

/// Rules for hostile records pass `promtool check rules`, and their tests
/// (each alert silent before a match, firing after it, with the record's
/// texts as annotations once Prometheus has expanded them) pass `promtool
/// test rules`; `--severity warning` chooses the warnings.
#[test]
fn rules_of_hostile_records_pass_promtool_check_and_test() {
    let test = "rules_of_hostile_records_pass_promtool_check_and_test";
    let Some(promtool_path) = tool_or_skip("promtool", test) else { return };
    let (dir, data) = hostile_dataset();
    let rules = checked_rules(&promtool_path, Some(&data), &[], dir.path());
    assert_eq!(rules.matches("- alert: ").count(), 1, "errors only by default: {rules}");
    assert!(rules.contains("expr: \"increase(errcat_matches_total{id=\\\"a1b2c3d4e5f60001\\\"}[5m]) > 0\""), "{rules}");
    assert!(
        rules.contains("runbook_url: \"https://example.invalid/x.go#L1?a=\\\"b\\\"&c={{ \\\"{{\\\" }}d}}\""),
        "{rules}"
    );
    let warnings = checked_rules(&promtool_path, Some(&data), &["--severity", "warning"], dir.path());
    assert_eq!(warnings.matches("- alert: ").count(), 1, "{warnings}");
    assert!(warnings.contains("summary: \"slow consumer %d\""), "{warnings}");
}

/// Rules for a real corpus's errors pass promtool, one alert per error
/// record, named by its variant name.
#[test]
fn rules_of_the_nats_server_corpus_pass_promtool_check_and_test() {
    let test = "rules_of_the_nats_server_corpus_pass_promtool_check_and_test";
    let Some(corpus) = nats_corpus_or_skip(test) else { return };
    let Some(promtool_path) = tool_or_skip("promtool", test) else { return };
    let dir = tempfile::tempdir().unwrap();
    let rules = checked_rules(&promtool_path, Some(&corpus), &[], dir.path());
    let listed =
        errcat_command().arg("--data").arg(&corpus).args(["list", "--json", "--severity", "error"]).output().unwrap();
    let errors = String::from_utf8(listed.stdout).unwrap().lines().count();
    assert!(errors > 100, "{errors}");
    assert_eq!(rules.matches("- alert: ").count(), errors);
    assert!(rules.contains("- alert: \"UnableToPersistSessionSeq\"\n"), "{}", &rules[..2000]);
    let none = errcat_command().arg("--data").arg(&corpus).args(["rules", "--tag", "no such tag"]).output().unwrap();
    assert_eq!(none.status.code(), Some(1));
    assert!(none.stdout.is_empty());
}

/// A free port on loopback (bound, then released for the server to take).
fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

/// The one value of an instant PromQL query, once Prometheus has one.
pub(super) fn query(prometheus: &str, expr: &str) -> Option<f64> {
    let agent: ureq::Agent = ureq::Agent::config_builder().http_status_as_error(false).build().into();
    let mut response = agent.get(format!("http://{prometheus}/api/v1/query")).query("query", expr).call().ok()?;
    let body: serde_json::Value = serde_json::from_str(&response.body_mut().read_to_string().ok()?).ok()?;
    let value = body["data"]["result"].get(0)?["value"][1].as_str()?;
    value.parse().ok()
}

/// Waits until `expr` has the value `wanted` in Prometheus.
pub(super) fn wait_for(prometheus: &str, expr: &str, wanted: f64) {
    let deadline = Instant::now() + PATIENCE;
    let mut last = None;
    while Instant::now() < deadline {
        last = query(prometheus, expr);
        if last == Some(wanted) {
            return;
        }
        std::thread::sleep(Duration::from_millis(200));
    }
    panic!("{expr} is {last:?} in Prometheus after {PATIENCE:?}, not {wanted}");
}

/// A Prometheus server in `dir` scraping `exporter` every second: it, and
/// the address of its API.
pub(super) fn start_prometheus(prometheus: &Path, dir: &Path, exporter: &str) -> (Running, String) {
    let config = dir.join("prometheus.yml");
    let scrape_config = format!(
        "global:\n  scrape_interval: 1s\n  evaluation_interval: 1s\nscrape_configs:\n  - job_name: errcat\n    static_configs:\n      - targets: [\"{exporter}\"]\n"
    );
    fs::write(&config, scrape_config).unwrap();
    let web = format!("127.0.0.1:{}", free_port());
    let mut command = Command::new(prometheus);
    command
        .arg(format!("--config.file={}", config.display()))
        .arg(format!("--storage.tsdb.path={}", dir.join("tsdb").display()))
        .arg(format!("--web.listen-address={web}"))
        .current_dir(dir);
    (Running::start(command), web)
}

/// A real Prometheus scrapes errcat every second (in OpenMetrics, which it
/// asks for): every record's series is there at 0 from the first scrape,
/// and the counts written before and after a rotation arrive through the
/// query API.
#[test]
fn prometheus_scrapes_the_counts_through_a_rotation() {
    let test = "prometheus_scrapes_the_counts_through_a_rotation";
    let Some(corpus) = nats_corpus_or_skip(test) else { return };
    let Some(prometheus_path) = tool_or_skip("prometheus", test) else { return };
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("nats.log");
    append(&log, &[persist_line("before-start")]);
    let mut command = errcat_command();
    command.arg("--data").arg(&corpus).args(["scan", "--count", "--follow", "--metrics", "127.0.0.1:0"]).arg(&log);
    let mut errcat = Running::start(command);
    let exporter = errcat.metrics_address();
    errcat.expect_error_line("from line 2");

    let (_prometheus, web) = start_prometheus(&prometheus_path, dir.path(), &exporter);

    let records = errcat_command().arg("--data").arg(&corpus).args(["list", "--json"]).output().unwrap();
    let records = String::from_utf8(records.stdout).unwrap().lines().count() as f64;
    wait_for(&web, "count(errcat_matches_total)", records);
    // The corpus's record of `persist_line`: UnableToPersistSessionSeq.
    let persist = "errcat_matches_total{id=\"69c0c8f50f54e0c9\"}";
    wait_for(&web, persist, 0.0);
    wait_for(&web, "sum(errcat_matches_total)", 0.0);

    append(&log, &[persist_line("a"), "[7] 2026/11/29 [INF] client connected".to_owned(), persist_line("b")]);
    wait_for(&web, persist, 2.0);
    // logrotate: renamed, a last line written to the old file, a new file.
    fs::rename(&log, dir.path().join("nats.log.1")).unwrap();
    append(&dir.path().join("nats.log.1"), &[persist_line("old")]);
    append(&log, &[persist_line("new-1"), persist_line("new-2")]);
    wait_for(&web, persist, 5.0);
    wait_for(&web, "sum(errcat_matches_total)", 5.0);
    wait_for(&web, "errcat_lines_read_total", 6.0);
    wait_for(&web, "errcat_unmatched_lines_total{level=\"INF\"}", 1.0);
    wait_for(&web, "errcat_catalog_records", records);

    let (code, stdout) = errcat.terminate();
    assert_eq!(code, 0, "{stdout}");
    assert!(stdout.contains("5 matching line(s)"), "{stdout}");
}
