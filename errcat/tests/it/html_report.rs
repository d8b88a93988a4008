//! `errcat scan --html`: the report for the example log and for a hostile log
//! and dataset, through the real binary; the HTML is read with an HTML5
//! parser, and loaded in headless Chromium when one is installed (the test
//! says loudly why it is skipped when none is, and fails in CI).

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::{Duration, Instant};

use assert_cmd::Command;
use base64::Engine;
use flate2::write::GzEncoder;
use scraper::{ElementRef, Html, Selector};
use serde_json::Value;
use sha2::{Digest, Sha256};

/// The repository's root: errcat runs there, on its files (the examples,
/// the seed dataset, the test data).
const ROOT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/..");

const LOG: &str = "examples/nats-server.log";
const DATA: &str = "data/nats-io/nats-server";
const PREFIX: &str = "[7] 2026/11/29 17:20:00.123456 [ERR] ";
/// The example log's errors: name, occurrences.
const EXAMPLE_ERRORS: [(&str, usize); 3] =
    [("CreateQos2IncomingMessagesStreamForAccount", 4), ("Qos1InFlightWindowIsFull", 4), ("UnableToPersistSession", 4)];

/// Where the tests write reports and screenshots (under `target/`).
fn out_dir() -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("scan-report");
    fs::create_dir_all(&dir).unwrap();
    dir
}

fn errcat() -> Command {
    let mut command = Command::cargo_bin("errcat").expect("the errcat binary");
    command.current_dir(ROOT).env("COLUMNS", "80").env("ERRCAT_CACHE_DIR", out_dir().join("cache"));
    // The seed records, whose matches in the example log these tests know.
    command.env("ERRCAT_DATASET", "seeds");
    command
}

/// Runs errcat with `args`, expecting `code`; returns stdout and stderr.
fn run(args: &[&str], stdin: &[u8], code: i32) -> (String, String) {
    let assert = errcat().args(args).write_stdin(stdin).assert().code(code);
    let output = assert.get_output();
    (String::from_utf8(output.stdout.clone()).unwrap(), String::from_utf8(output.stderr.clone()).unwrap())
}

fn path_str(path: &Path) -> &str {
    path.to_str().expect("a UTF-8 path")
}

fn select<'a>(page: &'a Html, selector: &str) -> Vec<ElementRef<'a>> {
    page.select(&Selector::parse(selector).unwrap()).collect()
}

fn text(element: &ElementRef<'_>) -> String {
    element.text().collect()
}

/// Parses a report, checking that the HTML5 parser found no error.
fn parse(html: &str) -> Html {
    let page = Html::parse_document(html);
    assert!(page.errors.is_empty(), "HTML parse errors: {:?}", page.errors);
    page
}

fn sha256_source(text: &str) -> String {
    format!("'sha256-{}'", base64::engine::general_purpose::STANDARD.encode(Sha256::digest(text.as_bytes())))
}

/// The page is self-contained, its one script and one style sheet are the
/// only ones its Content-Security-Policy allows, and nothing is loaded.
fn assert_self_contained(page: &Html) {
    let csp = select(page, "meta[http-equiv=Content-Security-Policy]");
    assert_eq!(csp.len(), 1, "one CSP meta tag");
    let policy = csp[0].value().attr("content").unwrap();
    let scripts = select(page, "script");
    let styles = select(page, "style");
    assert_eq!((scripts.len(), styles.len()), (1, 1), "exactly the report's own script and style");
    let expected = format!(
        "default-src 'none'; script-src {}; style-src {}; img-src 'none'; base-uri 'none'; form-action 'none'",
        sha256_source(&text(&scripts[0])),
        sha256_source(&text(&styles[0]))
    );
    assert_eq!(policy, expected);
    assert!(!policy.contains("unsafe"), "{policy}");
    // Nothing to fetch: no element with a source, no linked style sheet, no style attribute.
    for element in select(page, "*") {
        for (name, value) in element.value().attrs() {
            assert!(!["src", "srcset", "style", "background", "action"].contains(&name), "{name}={value}");
            assert!(!name.starts_with("on"), "event handler attribute {name}={value}");
        }
    }
    assert!(select(page, "link, iframe, object, embed, img, base, form").is_empty());
    for anchor in select(page, "a[href]") {
        let href = anchor.value().attr("href").unwrap();
        assert!(href.starts_with('#') || href.starts_with("https://") || href.starts_with("http://"), "{href}");
    }
}

fn card<'a>(page: &'a Html, name: &str) -> ElementRef<'a> {
    let cards: Vec<_> =
        select(page, "article.card").into_iter().filter(|c| c.value().attr("data-name") == Some(name)).collect();
    assert_eq!(cards.len(), 1, "one card for {name}");
    cards[0]
}

fn within<'a>(element: &ElementRef<'a>, selector: &str) -> Vec<ElementRef<'a>> {
    element.select(&Selector::parse(selector).unwrap()).collect()
}

fn example_report(name: &str) -> (PathBuf, String) {
    let path = out_dir().join(name);
    let (stdout, stderr) = run(&["scan", "--count", "--html", path_str(&path), LOG], b"", 0);
    assert!(stderr.contains(&format!("report written to {}", path.display())), "{stderr}");
    assert!(stdout.contains("12 matching line(s), 3 distinct error(s)"), "{stdout}");
    let html = fs::read_to_string(&path).unwrap();
    (path, html)
}

#[test]
fn the_example_log_gives_a_card_per_error_with_its_timeline() {
    let (_, html) = example_report("nats-server.html");
    let page = parse(&html);
    assert_self_contained(&page);
    // Overview.
    let tiles: Vec<String> = select(&page, ".tile").iter().map(text).collect();
    assert!(tiles[0].contains("Lines read202"), "{tiles:?}");
    assert!(tiles[1].contains("Lines matched12") && tiles[1].contains("5.94% of lines"), "{tiles:?}");
    assert!(
        tiles[2].contains("34 min 39 s") && tiles[2].contains("2026-11-29 17:20:06.518 → 17:54:46.075"),
        "{tiles:?}"
    );
    let severities = text(&select(&page, ".severities")[0]);
    assert!(severities.contains("error 3 errors · 12 lines"), "{severities}");
    // Timeline: a lane per error, minute bars over the 35 minutes of matches.
    let lanes = select(&page, ".lane[data-name]");
    assert_eq!(lanes.len(), 3);
    assert!(text(&select(&page, ".timeline .note")[0]).contains("Lines per 1 min bar"));
    for lane in &lanes {
        let bars = within(lane, "svg.bars rect");
        assert_eq!(bars.len(), 4, "4 occurrences in 4 different minutes: {}", lane.html());
        let viewbox = within(lane, "svg")[0].value().attr("viewBox").unwrap().to_owned();
        assert_eq!(viewbox, "0 0 350 40", "35 one-minute bars, 17:20 to 17:55");
    }
    let axis: Vec<String> = within(&select(&page, ".lane-axis")[0], ".axis span").iter().map(text).collect();
    assert_eq!(axis, ["2026-11-29 17:20", "17:28", "17:37", "17:46", "17:55"]);
    // One card per error, most frequent first (ties by name).
    let names: Vec<&str> = select(&page, "article.card").iter().map(|c| c.value().attr("data-name").unwrap()).collect();
    assert_eq!(names, EXAMPLE_ERRORS.map(|(name, _)| name));
    for (name, count) in EXAMPLE_ERRORS {
        let card = card(&page, name);
        assert_eq!(text(&within(&card, ".count b")[0]), count.to_string());
        assert_eq!(within(&card, ".examples li").len(), 3, "three example lines");
        assert_eq!(within(&card, ".card-chart svg rect").len(), 4, "its own chart");
        assert!(!within(&card, ".template .ph").is_empty(), "the template names its fields");
        assert!(!within(&card, ".guide .fixes li").is_empty(), "solutions");
        assert!(!within(&card, ".guide .prevention li").is_empty(), "prevention tips");
        let source = within(&card, ".source a");
        assert!(source[0].value().attr("href").unwrap().starts_with("https://github.com/nats-io/nats-server/"));
    }
    // Example lines with their values marked, first and last occurrences.
    let persist = card(&page, "UnableToPersistSession");
    let first = text(&within(&persist, ".facts dd")[0]);
    assert_eq!(first, "examples/nats-server.log:77 2026-11-29 17:21:20.959");
    let marks: Vec<(String, String)> = within(&persist, ".examples li")[0]
        .select(&Selector::parse("mark").unwrap())
        .map(|m| (m.value().attr("title").unwrap().to_owned(), text(&m)))
        .collect();
    let line_77 = fs::read_to_string(Path::new(ROOT).join(LOG)).unwrap();
    let line_77 = line_77.lines().nth(76).unwrap();
    assert_eq!(text(&within(&persist, ".examples .line")[0]), line_77, "the line, whole");
    let names: Vec<&str> = marks.iter().map(|(field, _)| field.as_str()).collect();
    assert_eq!(names, ["ps_id", "seq", "err"], "{marks:?}");
    for (_, value) in &marks {
        assert!(line_77.contains(value.as_str()) && !value.is_empty(), "{value:?} in {line_77}");
    }
    // The values of each field, most frequent first.
    let tables = within(&persist, "table.values");
    assert_eq!(tables.len(), 3);
    let counts: u64 = within(&tables[2], "td.num").iter().map(|td| text(td).parse::<u64>().unwrap()).sum();
    assert_eq!(counts, 4, "every occurrence's err value is counted");
}

#[test]
fn text_output_is_unchanged_and_json_stays_json_with_the_report() {
    let path = out_dir().join("unchanged.html");
    let (plain, _) = run(&["scan", LOG], b"", 0);
    let (with_report, stderr) = run(&["scan", "--html", path_str(&path), LOG], b"", 0);
    assert_eq!(plain, with_report);
    assert!(stderr.contains("report written to"), "the note goes to stderr: {stderr}");
    let (json, _) = run(&["scan", "--json", "--html", path_str(&path), LOG], b"", 0);
    assert_eq!(json.lines().count(), 12);
    for line in json.lines() {
        serde_json::from_str::<Value>(line).unwrap();
    }
}

#[test]
fn standard_input_gz_files_and_missing_files_are_reported() {
    let dir = tempfile::tempdir().unwrap();
    let log = fs::read(Path::new(ROOT).join(LOG)).unwrap();
    let gz = dir.path().join("rotated.log.gz");
    let mut encoder = GzEncoder::new(Vec::new(), flate2::Compression::fast());
    encoder.write_all(&log).unwrap();
    fs::write(&gz, encoder.finish().unwrap()).unwrap();
    let missing = dir.path().join("missing.log");
    let binary = dir.path().join("core.dump");
    fs::write(&binary, b"\x7fELF\0\0\0").unwrap();
    let path = dir.path().join("report.html");
    // A missing input is trouble (exit 2), the others are in the report.
    run(
        &["scan", "--count", "--html", path_str(&path), path_str(&gz), "-", path_str(&missing), path_str(&binary)],
        &log,
        2,
    );
    let page = parse(&fs::read_to_string(&path).unwrap());
    let rows: Vec<Vec<String>> =
        select(&page, ".inputs tbody tr").iter().map(|row| within(row, "td").iter().map(text).collect()).collect();
    assert_eq!(rows[0][..3], [path_str(&gz).to_owned(), "202".to_owned(), "12".to_owned()]);
    assert_eq!(rows[1][..3], ["<stdin>", "202", "12"]);
    assert_eq!(rows[2][..3], [path_str(&missing).to_owned(), "0".to_owned(), "0".to_owned()]);
    assert!(rows[2][3].contains("cannot open"), "{rows:?}");
    assert_eq!(rows[3][..3], [path_str(&binary).to_owned(), "0".to_owned(), "0".to_owned()]);
    assert!(rows[3][3].contains("binary file"), "{rows:?}");
    assert_eq!(text(&within(&card(&page, "UnableToPersistSession"), ".count b")[0]), "8");
    assert!(text(&select(&page, "h1")[0]).contains("3 known errors in 24 lines"));
}

#[test]
fn lines_without_a_timestamp_are_counted_and_said_so() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("report.html");
    let persist = "unable to persist session \"s1\" (seq=3): nats: timeout";
    let log = format!("{persist}\n2026-11-29T17:20:00.5+01:00 {persist}\nNov 29 16:30:00 host nats[1]: {persist}\n");
    run(&["scan", "--count", "--html", path_str(&path)], log.as_bytes(), 0);
    let page = parse(&fs::read_to_string(&path).unwrap());
    let card = card(&page, "UnableToPersistSession");
    let facts: Vec<String> = within(&card, ".facts dd").iter().map(text).collect();
    assert_eq!(facts[0], "<stdin>:1 (no timestamp)");
    assert_eq!(facts[1], "<stdin>:3 2026-11-29 16:30:00.000", "syslog: the year is assumed");
    assert_eq!(facts[2], "1 line", "{facts:?}");
    let overview = text(&select(&page, ".overview")[0]);
    assert!(overview.contains("1 matched line without a timestamp: counted, not on the timeline."), "{overview}");
    let notes = text(&select(&page, ".notes")[0]);
    assert!(notes.contains("shown in UTC") && notes.contains("Syslog times have no year"), "{notes}");
    // 16:20 (UTC) and 16:30: 61 ten-second bars would be too many, 30-second ones fit.
    assert!(text(&select(&page, ".timeline .note")[0]).contains("Lines per 30 s bar"));
    assert_eq!(within(&select(&page, ".lane")[0], "rect").len(), 2);
}

/// Sets an attribute on the page's root when it runs: a report that was
/// fooled into running it shows `data-pwned`.
fn payload(tag: &str) -> String {
    format!("document.documentElement.setAttribute('data-pwned','{tag}')")
}

/// A copy of the seed dataset whose records carry markup and a
/// `javascript:` link.
fn hostile_dataset(dir: &Path) -> PathBuf {
    let data = dir.join("data");
    fs::create_dir_all(&data).unwrap();
    let seeds = Path::new(ROOT).join(DATA);
    for entry in fs::read_dir(seeds).unwrap() {
        let path = entry.unwrap().path();
        let mut record: Value = serde_json::from_str(&fs::read_to_string(&path).unwrap()).unwrap();
        if path.file_name().unwrap() == "503f49fe39cf5793.json" {
            let fields = record["record"].as_object_mut().unwrap();
            fields.insert("githubUrl".into(), format!("javascript:{}", payload("link")).into());
            fields.insert(
                "documentation".into(),
                format!("<img src=x onerror=\"{}\"> & <b>bold</b>", payload("documentation")).into(),
            );
            let solutions = fields["solutions"].as_array_mut().unwrap();
            solutions.push(format!("</script><script>{}</script>", payload("solution")).into());
            fields.insert("severity".into(), "error\" onmouseover=\"alert(1)".into());
        }
        if path.file_name().unwrap() == "443048c6cb7c33f3.json" {
            record["record"]["githubUrl"] = "data:text/html,<script>alert(1)</script>".into();
        }
        fs::write(data.join(path.file_name().unwrap()), record.to_string()).unwrap();
    }
    data
}

fn hostile_log() -> String {
    let script = format!("<script>{}</script>", payload("log"));
    let img = format!("\"><img src=x onerror=\"{}\">", payload("img"));
    [
        format!("{PREFIX}unable to persist session {script:?} (seq={img}): <svg onload=alert(1)>"),
        format!("{PREFIX}create QoS2 incoming messages stream for account {img:?}: {script}"),
        format!("[7] 2026/11/29 17:21:00.000000 [ERR] unknown trouble {script} \u{1b}[31m\u{7}"),
        hostile_trace().join("\n"),
        format!("{PREFIX}unable to persist session \"a\" (seq=<!--): --> '\" {}", "<".repeat(3000)),
    ]
    .join("\n")
}

/// A matching line and the Java stack trace after it, markup in its frames
/// and cause: the trace is the match's context.
fn hostile_trace() -> [String; 4] {
    [
        format!("{PREFIX}unable to persist session \"t\" (seq=9): store failed"),
        format!("\tat com.example.Store.write(</code><script>{}</script>:42)", payload("trace")),
        format!("Caused by: java.io.IOException: \"><img src=x onerror=\"{}\"> & more", payload("cause")),
        "\t... 3 more".to_owned(),
    ]
}

fn hostile_report(dir: &Path, name: &str) -> (PathBuf, String) {
    let data = hostile_dataset(dir);
    let log = dir.join("hostile.log");
    fs::write(&log, hostile_log()).unwrap();
    let path = out_dir().join(name);
    let args = ["--data", path_str(&data), "scan", "--count", "--unmatched", "ERR", "--html", path_str(&path)];
    run(&[&args[..], &[path_str(&log)]].concat(), b"", 0);
    let html = fs::read_to_string(&path).unwrap();
    (path, html)
}

#[test]
fn hostile_values_and_records_show_as_text() {
    let dir = tempfile::tempdir().unwrap();
    let (_, html) = hostile_report(dir.path(), "hostile.html");
    let page = parse(&html);
    assert_self_contained(&page);
    let persist = card(&page, "UnableToPersistSession");
    assert_eq!(persist.value().attr("data-severity"), Some("error\" onmouseover=\"alert(1)"));
    let marks: Vec<String> = within(&persist, "mark").iter().map(text).collect();
    let script = format!("<script>{}</script>", payload("log"));
    assert!(marks.contains(&format!("{script:?}")), "the value, marked as text: {marks:?}");
    assert!(marks.contains(&format!("\"><img src=x onerror=\"{}\">", payload("img"))), "{marks:?}");
    let values: Vec<String> = within(&persist, "table.values td.value").iter().map(text).collect();
    assert!(values.contains(&script), "{values:?}");
    let guide = text(&within(&persist, ".guide")[0]);
    assert!(guide.contains(&format!("<img src=x onerror=\"{}\"> & <b>bold</b>", payload("documentation"))));
    assert!(guide.contains(&format!("</script><script>{}</script>", payload("solution"))));
    // Links only for http(s): the javascript: and data: URLs are text.
    assert!(within(&persist, ".source a").is_empty());
    assert_eq!(text(&within(&persist, ".source .not-a-link")[0]), format!("javascript:{}", payload("link")));
    let qos2 = card(&page, "CreateQos2IncomingMessagesStreamForAccount");
    assert!(within(&qos2, ".source a").is_empty());
    assert!(text(&within(&qos2, ".source")[0]).contains("data:text/html,<script>alert(1)</script>"));
    // The unmatched line, control characters replaced.
    let unmatched = text(&select(&page, "#unmatched .examples .line")[0]);
    assert_eq!(
        unmatched,
        format!("[7] 2026/11/29 17:21:00.000000 [ERR] unknown trouble {script} \u{FFFD}[31m\u{FFFD}")
    );
    // The trace after a line is shown with it, as text, as `--json` gives it.
    let traced = within(&persist, ".examples li").into_iter().find(|li| text(li).contains("store failed")).unwrap();
    let contexts: Vec<String> = within(&traced, ".context").iter().map(text).collect();
    let trace = hostile_trace()[1..].join("\n");
    assert_eq!(contexts, std::slice::from_ref(&trace));
    assert!(within(&persist, "img").is_empty() && within(&persist, "script").is_empty());
    let (json, _) =
        run(&["--data", path_str(&hostile_dataset(dir.path())), "scan", "--json", "-"], hostile_log().as_bytes(), 0);
    let contexts: Vec<Value> =
        json.lines().map(|line| serde_json::from_str::<Value>(line).unwrap()["context"].clone()).collect();
    assert!(contexts.contains(&Value::from(trace)), "{json}");
    // A line without a trace has none.
    assert_eq!(within(&persist, ".context").len(), 1);
    // The long line is cut, not the report.
    let long = within(&persist, ".examples .line").iter().map(text).find(|l| l.contains("<!--")).unwrap();
    assert!(long.ends_with('…') && long.len() < 1100, "{}", long.len());
}

// ---- In a real browser ----

/// A Chromium to run: `$CHROMIUM`, else the first of the usual names on the
/// PATH, else Debian's `/usr/bin/chromium`.
fn find_chromium() -> Result<PathBuf, String> {
    if let Some(path) = std::env::var_os("CHROMIUM").filter(|p| !p.is_empty()) {
        return Ok(PathBuf::from(path));
    }
    let names = ["chromium", "chromium-browser", "google-chrome", "google-chrome-stable"];
    let path = std::env::var_os("PATH").unwrap_or_default();
    for dir in std::env::split_paths(&path) {
        for name in names {
            if dir.join(name).is_file() {
                return Ok(dir.join(name));
            }
        }
    }
    let debian = Path::new("/usr/bin/chromium");
    if debian.is_file() {
        return Ok(debian.to_owned());
    }
    Err(format!("none of {names:?} is on the PATH, $CHROMIUM is not set and /usr/bin/chromium does not exist"))
}

/// The browser, or `None` after saying loudly why the test is skipped. In CI
/// (`CI` set) a missing browser fails the test: `.ci/run` installs one.
fn browser_or_skip(test: &str) -> Option<PathBuf> {
    match find_chromium() {
        Ok(path) => Some(path),
        Err(why) => {
            assert!(std::env::var_os("CI").is_none(), "no browser in CI ({why}); .ci/run installs chromium");
            // Written to the process's stderr, not through the test harness's
            // capture, so that the skip is seen even when the test "passes".
            let _ = writeln!(
                std::io::stderr(),
                "\n*** SKIPPED {test}: no headless browser: {why}. Install one with `apt-get install -y chromium`. ***\n"
            );
            None
        }
    }
}

/// Runs Chromium headless on `page` with `extra` arguments; its stdout.
fn chromium(browser: &Path, page: &Path, extra: &[String]) -> String {
    let profile = tempfile::tempdir().unwrap();
    let mut child = std::process::Command::new(browser)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--hide-scrollbars",
            "--run-all-compositor-stages-before-draw",
        ])
        .arg(format!("--user-data-dir={}", profile.path().display()))
        .args(extra)
        .arg(format!("file://{}", page.canonicalize().unwrap().display()))
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|err| panic!("cannot start {}: {err}", browser.display()));
    let (stdout, stderr) = (child.stdout.take().unwrap(), child.stderr.take().unwrap());
    let read = |mut pipe: Box<dyn std::io::Read + Send>| {
        std::thread::spawn(move || {
            let mut text = String::new();
            let _ = pipe.read_to_string(&mut text);
            text
        })
    };
    let (stdout, stderr) = (read(Box::new(stdout)), read(Box::new(stderr)));
    let deadline = Instant::now() + Duration::from_secs(120);
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("{} did not finish in 120 s", browser.display());
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    let (stdout, stderr) = (stdout.join().unwrap(), stderr.join().unwrap());
    assert!(status.success(), "{} failed ({status}): {stderr}", browser.display());
    stdout
}

fn dump_dom(browser: &Path, page: &Path) -> Html {
    let dom = chromium(browser, page, &["--dump-dom".to_owned()]);
    assert!(dom.contains("</html>"), "no DOM dumped: {dom}");
    Html::parse_document(&dom)
}

fn root_attr<'a>(dom: &'a Html, name: &str) -> Option<&'a str> {
    dom.root_element().value().attr(name)
}

#[test]
fn in_a_browser_the_report_renders_its_cards_and_chart_and_runs_only_its_script() {
    let Some(browser) = browser_or_skip("the browser test") else { return };
    let (path, _) = example_report("nats-server-browser.html");
    let dom = dump_dom(&browser, &path);
    assert_eq!(root_attr(&dom, "data-report-script"), Some("ran"), "the report's script ran under its CSP");
    assert_eq!(root_attr(&dom, "data-pwned"), None);
    // The script showed the filter and counted the cards.
    let controls = select(&dom, "#controls");
    assert_eq!(controls[0].value().attr("hidden"), None, "the controls are shown");
    assert_eq!(text(&select(&dom, "#shown")[0]), "3 of 3 errors shown");
    for (name, _) in EXAMPLE_ERRORS {
        let card = card(&dom, name);
        assert_eq!(within(&card, ".card-chart svg.bars rect").len(), 4, "{name}'s chart");
    }
    assert_eq!(select(&dom, ".lanes svg.bars").len(), 3, "the timeline");
    // A screenshot a person can open; the README's picture is this one.
    let screenshot = out_dir().join("nats-server.png");
    let _ = fs::remove_file(&screenshot);
    chromium(
        &browser,
        &path,
        &[format!("--screenshot={}", screenshot.display()), "--window-size=1280,2300".to_owned()],
    );
    let png = fs::read(&screenshot).expect("a screenshot was written");
    assert!(png.starts_with(b"\x89PNG\r\n\x1a\n") && png.len() > 50_000, "{} bytes", png.len());
    let _ = writeln!(std::io::stderr(), "screenshot of the report: {}", screenshot.display());
    if std::env::var_os("ERRCAT_UPDATE_SCREENSHOT").is_some() {
        let docs = Path::new(ROOT).join("docs");
        fs::create_dir_all(&docs).unwrap();
        fs::copy(&screenshot, docs.join("scan-report.png")).unwrap();
    }
}

#[test]
fn in_a_browser_no_injected_script_runs() {
    let Some(browser) = browser_or_skip("the hostile browser test") else { return };
    let dir = tempfile::tempdir().unwrap();
    let (path, _) = hostile_report(dir.path(), "hostile-browser.html");
    let dom = dump_dom(&browser, &path);
    assert_eq!(root_attr(&dom, "data-report-script"), Some("ran"), "the report's own script ran");
    assert_eq!(root_attr(&dom, "data-pwned"), None, "an injected script ran");
    assert!(select(&dom, "img").is_empty());
    assert_eq!(select(&dom, "script").len(), 1);
    let persist = card(&dom, "UnableToPersistSession");
    let examples = text(&within(&persist, ".examples")[0]);
    assert!(examples.contains(&format!("<script>{}</script>", payload("log"))), "shown as text: {examples}");
    // The trace is shown with its line, as text.
    let contexts: Vec<String> = within(&persist, ".examples .context").iter().map(text).collect();
    assert_eq!(contexts, [hostile_trace()[1..].join("\n")]);
    let screenshot = out_dir().join("hostile.png");
    chromium(
        &browser,
        &path,
        &[format!("--screenshot={}", screenshot.display()), "--window-size=1280,1600".to_owned()],
    );
    assert!(fs::metadata(&screenshot).unwrap().len() > 20_000);
}
