//! `errcat scan --follow DIR` as a node agent, through the real binary: a
//! simulated `/var/log/pods` tree where pods are created, write in CRI
//! format, rotate as kubelet does (rename, then compress the rotation
//! before) and are deleted while errcat follows it; a restart with
//! `--state`; a thousand files at once. Every matching line written is
//! reported exactly once: each carries a session id of its own, `p<pod>#<n>#`.

#![cfg(target_os = "linux")]

use std::collections::BTreeMap;
use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::mpsc::RecvTimeoutError;
use std::time::{Duration, Instant};

use super::live::{append, cri_line, persist_line, start_in, Running};
use super::metrics;

/// The longest the reports of what was written may take to come.
const PATIENCE: Duration = Duration::from_secs(30);

/// A container's log directory in a simulated `/var/log/pods`.
struct Pod {
    dir: PathBuf,
    /// Its sessions' prefix, `p<n>#`.
    name: String,
    /// Lines written so far.
    written: usize,
    /// Rotations made so far.
    rotations: usize,
}

impl Pod {
    fn create(pods: &Path, n: usize, namespace: &str, container: &str) -> Pod {
        let dir = pods.join(format!("{namespace}_pod-{n}_0b1c2d3e-0000-4000-8000-{n:012}")).join(container);
        fs::create_dir_all(&dir).unwrap();
        Pod { dir, name: format!("p{n}#"), written: 0, rotations: 0 }
    }

    fn log(&self) -> PathBuf {
        self.dir.join("0.log")
    }

    /// Writes `count` matching lines to `file` (its `0.log` by default).
    fn write_to(&mut self, file: &Path, count: usize) {
        let lines: Vec<String> = (0..count)
            .map(|i| cri_line("stderr", "F", &persist_line(&format!("{}{}#", self.name, self.written + i))))
            .collect();
        self.written += count;
        append(file, &lines);
    }

    fn write(&mut self, count: usize) {
        self.write_to(&self.log(), count);
    }

    /// Rotates as kubelet does: `0.log` renamed `0.log.<timestamp>`, the
    /// rotation before it compressed (written to `.gz.tmp`, renamed `.gz`,
    /// the plain one removed); the renamed file is written to a little more
    /// (the runtime reopens its log after the rename), then a new `0.log`.
    fn rotate(&mut self) {
        let rotated = |n: usize| self.dir.join(format!("0.log.20261203-1524{n:02}"));
        let current = rotated(self.rotations);
        fs::rename(self.log(), &current).unwrap();
        if self.rotations > 0 {
            let older = rotated(self.rotations - 1);
            let mut gzip = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
            gzip.write_all(&fs::read(&older).unwrap()).unwrap();
            let temporary = older.with_extension(format!("{}.gz.tmp", older.extension().unwrap().to_str().unwrap()));
            fs::write(&temporary, gzip.finish().unwrap()).unwrap();
            fs::rename(&temporary, temporary.with_extension("")).unwrap();
            fs::remove_file(older).unwrap();
        }
        self.rotations += 1;
        self.write_to(&current, 2);
        self.write(3);
    }

    /// The sessions written.
    fn sessions(&self) -> impl Iterator<Item = String> + '_ {
        (0..self.written).map(|i| format!("{}{i}#", self.name))
    }
}

/// The session of a reported match (`p<pod>#<n>#`), if it is one.
fn session_of(line: &str) -> Option<String> {
    static SESSION: std::sync::LazyLock<regex::Regex> =
        std::sync::LazyLock::new(|| regex::Regex::new(r#""(p[0-9]+#[0-9]+#)""#).unwrap());
    Some(SESSION.captures(line)?[1].to_owned())
}

/// Reads errcat's output until `wanted` matches were reported (or
/// [`PATIENCE`] is over): how many times each session was.
fn reports(errcat: &mut Running, wanted: usize, counted: &mut BTreeMap<String, usize>) {
    let deadline = Instant::now() + PATIENCE;
    while counted.values().sum::<usize>() < wanted {
        let left = deadline.saturating_duration_since(Instant::now());
        match errcat.stdout.recv_timeout(left) {
            Ok(line) => {
                if let Some(session) = session_of(&line) {
                    *counted.entry(session).or_default() += 1;
                }
                errcat.seen.push(line);
            }
            Err(RecvTimeoutError::Timeout) => break,
            Err(RecvTimeoutError::Disconnected) => panic!("errcat ended: {:?}", errcat.stderr_now()),
        }
    }
}

/// Checks that each of `sessions` was reported once, and nothing else.
fn once_each(counted: &BTreeMap<String, usize>, sessions: impl Iterator<Item = String>) {
    let expected: BTreeMap<String, usize> = sessions.map(|session| (session, 1)).collect();
    let lost: Vec<&String> = expected.keys().filter(|session| !counted.contains_key(*session)).collect();
    let twice: Vec<(&String, &usize)> = counted.iter().filter(|(_, count)| **count > 1).collect();
    let unexpected: Vec<&String> = counted.keys().filter(|session| !expected.contains_key(*session)).collect();
    assert!(
        lost.is_empty() && twice.is_empty() && unexpected.is_empty(),
        "lost {lost:?}, twice {twice:?}, not written {unexpected:?}"
    );
}

fn start_agent(dir: &Path, args: &[&str]) -> Running {
    let mut all = vec!["--dataset", "seeds", "scan", "--json", "--follow"];
    all.extend_from_slice(args);
    start_in(dir, &all)
}

/// Pods come, write, rotate twice, go; one has a namespace with a quote in
/// it. Every line is reported once, with its namespace, pod and container;
/// the metrics carry them as labels, escaped.
#[test]
fn pods_that_come_rotate_and_go_are_each_line_reported_once() {
    let dir = tempfile::tempdir().unwrap();
    let pods_dir = dir.path().join("pods");
    let mut pods = vec![
        Pod::create(&pods_dir, 0, "default", "app"),
        Pod::create(&pods_dir, 1, "kube-system", "dns"),
        Pod::create(&pods_dir, 2, "evil\"ns", "c"),
    ];
    for pod in &mut pods {
        pod.write(2);
    }
    let args = ["--from-start", "--metrics", "127.0.0.1:0", "--metrics-labels", "namespace,container", "pods"];
    let mut errcat = start_agent(dir.path(), &args);
    let address = errcat.expect_error_line("serving metrics on http://");
    let address = address.split("http://").nth(1).unwrap().strip_suffix("/metrics").unwrap().to_owned();
    let mut counted = BTreeMap::new();
    reports(&mut errcat, 6, &mut counted);

    for _ in 0..2 {
        for pod in &mut pods {
            pod.write(4);
            pod.rotate();
        }
    }
    let written: usize = pods.iter().map(|pod| pod.written).sum();
    reports(&mut errcat, written, &mut counted);
    // A pod that comes, and one that goes just after writing (a file is
    // read to its end after it is removed).
    let mut late = Pod::create(&pods_dir, 3, "default", "late");
    late.write(3);
    pods[1].write(2);
    fs::remove_dir_all(pods[1].dir.parent().unwrap()).unwrap();
    pods.push(late);

    let total = pods.iter().map(|pod| pod.written).sum();
    reports(&mut errcat, total, &mut counted);
    once_each(&counted, pods.iter().flat_map(Pod::sessions));

    let first = errcat.seen.iter().find(|line| line.contains("\"p0#0#\"")).unwrap();
    let object: serde_json::Value = serde_json::from_str(first).unwrap();
    assert_eq!(
        (&object["namespace"], &object["pod"], &object["container"]),
        (&"default".into(), &"pod-0".into(), &"app".into())
    );
    assert!(object["file"].as_str().unwrap().ends_with("/app/0.log"), "{object}");

    let text = metrics::scrape(&address);
    let series = |namespace: &str, container: &str| {
        let labels = format!("namespace=\"{namespace}\",container=\"{container}\"}}");
        text.lines()
            .filter(|line| line.starts_with("errcat_matches_total{") && line.contains(&labels))
            .map(|line| line.rsplit(' ').next().unwrap().parse::<usize>().unwrap())
            .sum::<usize>()
    };
    assert_eq!(series("default", "app"), pods[0].written, "{text}");
    assert_eq!(series("kube-system", "dns"), pods[1].written, "{text}");
    assert_eq!(series("evil\\\"ns", "c"), pods[2].written, "{text}");
    assert!(text.contains("errcat_series_dropped_total 0\n"), "{text}");
    let lines_read: usize = text
        .lines()
        .filter(|line| line.starts_with("errcat_lines_read_total{"))
        .map(|line| line.rsplit(' ').next().unwrap().parse::<usize>().unwrap())
        .sum();
    assert_eq!(lines_read, total, "{text}");

    errcat.seen.clear();
    errcat.signal(libc::SIGTERM);
    let (stdout, stderr, code) = errcat.wait_for_exit();
    assert_eq!(code, 0, "{stderr:#?}");
    assert!(stdout.iter().all(|line| session_of(line).is_none()), "reported after the end: {stdout:#?}");
}

/// Stopped with SIGTERM and started again with the same `--state`, errcat
/// reads what was written while it was down (a rotation and a new pod
/// included) and nothing it had read before; a bad state file is named.
#[test]
fn a_restart_with_state_neither_loses_nor_repeats_lines() {
    let dir = tempfile::tempdir().unwrap();
    let pods_dir = dir.path().join("pods");
    let mut pod = Pod::create(&pods_dir, 0, "default", "app");
    pod.write(3);
    let args = ["--state", "state.json", "pods"];
    let mut errcat = start_agent(dir.path(), &args);
    errcat.expect_error_line("from line 4");
    pod.write(2);
    let mut counted = BTreeMap::new();
    reports(&mut errcat, 2, &mut counted);
    errcat.signal(libc::SIGTERM);
    let (_, stderr, code) = errcat.wait_for_exit();
    assert_eq!(code, 0, "{stderr:#?}");
    assert!(fs::read_to_string(dir.path().join("state.json")).unwrap().contains("\"offset\""));

    // While it is down: lines, a rotation, a new pod.
    let before = pod.written;
    pod.write(2);
    pod.rotate();
    let mut new = Pod::create(&pods_dir, 1, "default", "new");
    new.write(2);
    let mut errcat = start_agent(dir.path(), &args);
    let wanted = pod.written - before + new.written;
    let mut again = BTreeMap::new();
    reports(&mut errcat, wanted, &mut again);
    once_each(&again, pod.sessions().skip(before).chain(new.sessions()));
    errcat.seen.clear();
    errcat.signal(libc::SIGTERM);
    let (stdout, _, code) = errcat.wait_for_exit();
    assert_eq!(code, 0);
    assert!(stdout.iter().all(|line| session_of(line).is_none()), "{stdout:#?}");

    fs::write(dir.path().join("state.json"), "{\"version\": 1, \"files\": [{\"device\": 1}]}").unwrap();
    let (_, stderr, code) = start_agent(dir.path(), &args).wait_for_exit();
    assert_eq!(code, 2);
    assert!(
        stderr
            .iter()
            .any(|line| line == "errcat: --state state.json: files[0]: field `inode`: expected a non-negative integer"),
        "{stderr:#?}"
    );
}

/// A thousand files at once, each in a pod of its own, at most 100 of them
/// open: every line is reported once, with few descriptors open.
#[test]
fn a_thousand_files_at_once_take_a_bounded_number_of_descriptors() {
    let dir = tempfile::tempdir().unwrap();
    let pods_dir = dir.path().join("pods");
    let mut pods: Vec<Pod> = (0..1000).map(|n| Pod::create(&pods_dir, n, "load", "c")).collect();
    for pod in &mut pods {
        pod.write(1);
    }
    let mut errcat = start_agent(dir.path(), &["--from-start", "--max-open-files", "100", "pods"]);
    let mut counted = BTreeMap::new();
    reports(&mut errcat, 1000, &mut counted);
    for pod in &mut pods {
        pod.write(1);
    }
    reports(&mut errcat, 2000, &mut counted);
    once_each(&counted, pods.iter().flat_map(Pod::sessions));
    let descriptors = fs::read_dir(format!("/proc/{}/fd", errcat.child.id())).unwrap().count();
    // 100 files at most, and errcat's own (standard streams, inotify...).
    assert!(descriptors <= 100 + 16, "{descriptors} descriptors open");
    let status = fs::read_to_string(format!("/proc/{}/status", errcat.child.id())).unwrap();
    let peak_kib: u64 = status
        .lines()
        .find_map(|line| line.strip_prefix("VmHWM:"))
        .unwrap()
        .trim()
        .trim_end_matches(" kB")
        .parse()
        .unwrap();
    assert!(peak_kib < 200 << 10, "peak RSS {peak_kib} KiB");
    errcat.signal(libc::SIGTERM);
    assert_eq!(errcat.wait_for_exit().2, 0);
}

/// A real Prometheus scrapes the workload-labelled series.
#[test]
fn prometheus_scrapes_the_workload_labels() {
    let test = "prometheus_scrapes_the_workload_labels";
    let Some(prometheus_path) = metrics::tool_or_skip("prometheus", test) else { return };
    let dir = tempfile::tempdir().unwrap();
    let pods_dir = dir.path().join("pods");
    let mut pod = Pod::create(&pods_dir, 0, "shop", "api");
    pod.write(2);
    let mut command = metrics::errcat_command();
    command.args(["scan", "--count", "--follow", "--from-start", "--metrics", "127.0.0.1:0"]);
    command.args(["--metrics-labels", "namespace,pod,container"]).arg(&pods_dir);
    let mut errcat = metrics::Running::start(command);
    let exporter = errcat.metrics_address();
    let (_prometheus, web) = metrics::start_prometheus(&prometheus_path, dir.path(), &exporter);
    let series = "sum(errcat_matches_total{namespace=\"shop\",pod=\"pod-0\",container=\"api\"})";
    metrics::wait_for(&web, series, 2.0);
    pod.write(3);
    metrics::wait_for(&web, series, 5.0);
    metrics::wait_for(&web, "sum(errcat_lines_read_total{container=\"api\"})", 5.0);
    let (code, stdout) = errcat.terminate();
    assert_eq!(code, 0, "{stdout}");
}
