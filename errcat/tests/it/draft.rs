//! `errcat draft` through the real binary: logs whose lines are corpus
//! records rendered with hostile values, behind nats-server log prefixes,
//! drafted against a catalog that explains only some of them; the groups are
//! checked against the records, the drafts with `errcat check`, and a scan
//! with the drafts as the catalog.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use assert_cmd::Command;
use error_catalog::{Catalog, Value, ValueKind};
use serde_json::Value as Json;

use crate::support;

fn errcat() -> Command {
    let mut command = Command::cargo_bin("errcat").expect("the errcat binary");
    command.arg("--no-cache").env("NO_COLOR", "1");
    command
}

/// The seed dataset: the catalog that explains some lines of the logs.
fn seeds() -> PathBuf {
    support::workspace_root().join("data/nats-io/nats-server")
}

/// A plain word for `n` (letters only, so no mask takes it).
fn word(n: usize) -> String {
    let letter = |d: usize| char::from(b'a' + (d % 26) as u8);
    format!("{}{}{}", letter(n / 676), letter(n / 26), letter(n))
}

/// Hostile values, each made unique by `n`: the formats' delimiters,
/// markup, quotes, backslashes, non-ASCII, several words, key=value, paths.
fn text(n: usize) -> String {
    match n % 9 {
        0 => format!("node-{n}"),
        1 => format!("é日本🎉{}", word(n)),
        2 => format!("{{}}%s${{x}}{n}"),
        3 => format!("<script>alert({n})</script>"),
        4 => format!("{} {} {}", word(n), word(n + 1), word(n + 2)),
        5 => format!("back\\slash{n}"),
        6 => format!("/var/lib/{}/{n}.db", word(n)),
        7 => format!("key=value{n}"),
        _ => word(n),
    }
}

fn value(kind: ValueKind, n: usize) -> Value<'static> {
    match kind {
        ValueKind::Int => Value::Int(n as i64 * 7919 % 100_003),
        ValueKind::Float => Value::Float(n as f64 / 8.0),
        ValueKind::Bool => Value::Bool(n.is_multiple_of(2)),
        _ => Value::Str(text(n).into()),
    }
}

const LEVELS: [&str; 3] = ["ERR", "WRN", "INF"];

/// A log of `records` (their ids, each rendered `times` times) interleaved
/// with lines the seed catalog explains; the true record id of each line
/// (`None` for those the catalog explains).
struct Log {
    path: PathBuf,
    truth: Vec<Option<String>>,
}

fn write_log(dir: &Path, catalog: &Catalog, records: &[usize], times: usize) -> Log {
    let mut lines = Vec::new();
    let mut truth = Vec::new();
    let mut n = 0;
    for round in 0..times {
        for (i, &index) in records.iter().enumerate() {
            let entry = &catalog.entries()[index];
            let values: Vec<Value<'static>> = entry
                .template
                .fields
                .iter()
                .map(|field| {
                    n += 1;
                    value(field.kind, n)
                })
                .collect();
            let message = catalog.render(index, &values).expect("the record renders");
            let level = LEVELS[i % LEVELS.len()];
            lines.push(format!("[7] 2026/11/29 17:{:02}:{:02}.{n:06} [{level}] {message}", round % 60, i % 60));
            truth.push(Some(entry.record().id.to_string()));
        }
        lines.push(format!(
            "[7] 2026/11/29 18:00:00.000000 [ERR] unable to persist session \"s{round}\" (seq={round}): timeout"
        ));
        truth.push(None);
    }
    let path = dir.join("server.log");
    std::fs::write(&path, lines.join("\n") + "\n").unwrap();
    Log { path, truth }
}

/// Records of the nats-server corpus that a log shows apart: with values,
/// one line each, of distinct literal text, not in the seeds.
fn chosen_records(catalog: &Catalog, how_many: usize) -> Vec<usize> {
    let seeds: BTreeSet<String> =
        Catalog::load(seeds()).unwrap().entries().iter().map(|e| e.record().id.to_string()).collect();
    let mut skeletons = BTreeSet::new();
    let mut chosen = Vec::new();
    let mut ids: Vec<(String, usize)> =
        catalog.entries().iter().enumerate().map(|(i, e)| (e.record().id.to_string(), i)).collect();
    ids.sort();
    for (id, index) in ids {
        let entry = &catalog.entries()[index];
        let message = &entry.record().error_message;
        let words = message.split(' ').filter(|w| w.chars().all(char::is_alphabetic) && w.len() > 2).count();
        let fields = entry.template.fields.len();
        if seeds.contains(&id) || message.contains('\n') || !(1..=3).contains(&fields) || words < 3 {
            continue;
        }
        let skeleton: String = message.chars().filter(|c| c.is_alphabetic() || *c == ' ').collect();
        if skeletons.insert(skeleton) {
            chosen.push(index);
        }
        if chosen.len() == how_many {
            break;
        }
    }
    chosen
}

fn json_lines(output: &[u8]) -> Vec<Json> {
    String::from_utf8(output.to_vec()).unwrap().lines().map(|l| serde_json::from_str(l).expect("JSON")).collect()
}

/// Each line's draft id when `log` is scanned with the drafts in `drafts`
/// (and the seeds, in a dataset of both).
fn rescan(dir: &Path, drafts: &Path, log: &Path) -> BTreeMap<u64, String> {
    let both = dir.join("both");
    std::fs::create_dir_all(&both).unwrap();
    for source in [drafts.to_owned(), seeds()] {
        for file in std::fs::read_dir(source).unwrap() {
            let file = file.unwrap().path();
            if file.extension().is_some_and(|e| e == "json") {
                std::fs::copy(&file, both.join(file.file_name().unwrap())).unwrap();
            }
        }
    }
    let output = errcat().arg("--data").arg(&both).args(["scan", "--json"]).arg(log).output().unwrap();
    // 2 when the log has invalid UTF-8 (reported, and read all the same).
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success() || stderr.contains("invalid UTF-8"), "{stderr}");
    json_lines(&output.stdout)
        .into_iter()
        .map(|found| (found["line"].as_u64().unwrap(), found["id"].as_str().unwrap().to_owned()))
        .collect()
}

#[test]
fn drafts_of_rendered_corpus_records_group_each_record_and_a_rescan_keeps_the_groups() {
    let Some(corpus) = support::corpus(
        "nats-server",
        "drafts_of_rendered_corpus_records_group_each_record_and_a_rescan_keeps_the_groups",
    ) else {
        return;
    };
    let catalog = Catalog::load(&corpus).expect("the corpus loads");
    let records = chosen_records(&catalog, 40);
    assert_eq!(records.len(), 40);
    let dir = tempfile::tempdir().unwrap();
    let log = write_log(dir.path(), &catalog, &records, 4);
    let drafts = dir.path().join("drafts");
    let output = errcat()
        .arg("--data")
        .arg(seeds())
        .args(["draft", "--json", "--out"])
        .arg(&drafts)
        .arg(&log.path)
        .output()
        .unwrap();
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let groups = json_lines(&output.stdout);

    // Every draft is a file; `errcat check` accepts them all.
    let files: BTreeSet<String> = std::fs::read_dir(&drafts)
        .unwrap()
        .map(|f| f.unwrap().file_name().to_string_lossy().trim_end_matches(".json").to_owned())
        .collect();
    let ids: BTreeSet<String> = groups.iter().map(|g| g["id"].as_str().unwrap().to_owned()).collect();
    assert_eq!(files, ids);
    let check = errcat().arg("check").arg(&drafts).output().unwrap();
    let report = String::from_utf8_lossy(&check.stdout);
    assert!(check.status.success() && report.contains(" 0 error(s)"), "{report}");

    // The lines the seeds explain are in no draft; the others all are.
    let grouped: u64 = groups.iter().map(|g| g["count"].as_u64().unwrap()).sum();
    assert_eq!(grouped as usize, log.truth.iter().filter(|t| t.is_some()).count());

    // Scanned with the drafts, every line is explained, each draft
    // explains as many lines as it grouped, and the groups are the records.
    let found = rescan(dir.path(), &drafts, &log.path);
    let log_text = std::fs::read_to_string(&log.path).unwrap();
    let unexplained: Vec<&str> =
        log_text.lines().enumerate().filter(|(i, _)| !found.contains_key(&(*i as u64 + 1))).map(|(_, l)| l).collect();
    assert!(
        unexplained.is_empty(),
        "every line is explained: {unexplained:#?}\n{}",
        String::from_utf8_lossy(&output.stdout)
    );
    for group in &groups {
        let id = group["id"].as_str().unwrap();
        let explained = found.values().filter(|found| *found == id).count() as u64;
        assert_eq!(explained, group["count"].as_u64().unwrap(), "{group}");
    }
    let mut lines_of_record: BTreeMap<&str, BTreeSet<u64>> = BTreeMap::new();
    let mut lines_of_draft: BTreeMap<&str, BTreeSet<u64>> = BTreeMap::new();
    for (line, truth) in log.truth.iter().enumerate() {
        let line = line as u64 + 1;
        if let Some(record) = truth {
            lines_of_record.entry(record).or_default().insert(line);
            lines_of_draft.entry(&found[&line]).or_default().insert(line);
        }
    }
    let wrong: Vec<&str> = lines_of_record
        .iter()
        .filter(|(_, lines)| lines_of_draft[found[lines.first().unwrap()].as_str()] != **lines)
        .map(|(record, _)| *record)
        .collect();
    // Loghub's grouping accuracy, per record: at most 2 of 40 records wrong.
    let text = std::fs::read_to_string(&log.path).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let shown: Vec<String> = wrong
        .iter()
        .flat_map(|record| &lines_of_record[record])
        .map(|line| {
            format!(
                "{record} {} {}",
                found[line],
                lines[*line as usize - 1],
                record = log.truth[*line as usize - 1].as_deref().unwrap()
            )
        })
        .collect();
    assert!(wrong.len() <= 2, "records not grouped alone: {wrong:?}\n{shown:#?}");

    // The severity is the lines' level; the documentation says it is a draft.
    for group in &groups {
        let id = group["id"].as_str().unwrap();
        let line = found.iter().find(|(_, draft)| *draft == id).map(|(line, _)| *line).unwrap();
        let record = log.truth[line as usize - 1].as_deref().unwrap();
        let position = records.iter().position(|&r| catalog.entries()[r].record().id == record).unwrap();
        let severity = ["error", "warning", "info"][position % LEVELS.len()];
        if !wrong.contains(&record) {
            assert_eq!(group["severity"], severity, "{group}");
        }
        let file = std::fs::read_to_string(drafts.join(format!("{}.json", group["id"].as_str().unwrap()))).unwrap();
        let record: Json = serde_json::from_str(&file).unwrap();
        let documentation = record["record"]["documentation"].as_str().unwrap();
        assert!(documentation.starts_with("Draft written by `errcat draft`"), "{documentation}");
        assert!(documentation.contains(&format!("{} log line(s)", group["count"])), "{documentation}");
        assert_eq!(record["record"]["solutions"], serde_json::json!([]));
    }
}

#[test]
fn draft_ids_are_the_same_on_every_run_and_in_any_line_order() {
    let Some(corpus) = support::corpus("nats-server", "draft_ids_are_the_same_on_every_run_and_in_any_line_order")
    else {
        return;
    };
    let catalog = Catalog::load(&corpus).expect("the corpus loads");
    let records = chosen_records(&catalog, 12);
    let dir = tempfile::tempdir().unwrap();
    let log = write_log(dir.path(), &catalog, &records, 3);
    let run = |log: &Path, threads: &str| {
        let output = errcat()
            .arg("--data")
            .arg(seeds())
            .args(["draft", "--json", "--threads", threads])
            .arg(log)
            .output()
            .unwrap();
        assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
        output.stdout
    };
    let first = run(&log.path, "1");
    assert_eq!(first, run(&log.path, "3"), "the same output on every run");
    let mut reversed: Vec<String> = std::fs::read_to_string(&log.path).unwrap().lines().map(str::to_owned).collect();
    reversed.reverse();
    let reversed_path = dir.path().join("reversed.log");
    std::fs::write(&reversed_path, reversed.join("\n") + "\n").unwrap();
    let ids = |output: &[u8]| -> BTreeSet<String> {
        json_lines(output).iter().map(|g| g["id"].as_str().unwrap().to_owned()).collect()
    };
    assert_eq!(ids(&first), ids(&run(&reversed_path, "1")), "ids come from the templates, not the order");
}

#[test]
fn hostile_lines_are_grouped_and_their_drafts_load_and_check() {
    let dir = tempfile::tempdir().unwrap();
    let mut lines = Vec::new();
    for n in 0..4 {
        // Markup, the miner's own marker characters, control characters,
        // regex and format syntax, non-ASCII, an empty value, text around.
        lines.push(format!(
            "2026-11-29T17:20:0{n}Z ERROR: <b>bad</b> {{}} \u{E000}\u{E00F} (x|y)* é日本🎉 user=u{n} \u{7} id {n}"
        ));
        lines.push(format!("WARNING: quota of \"tenant {n}\" at {n}% ( ) [ ] $ ^ \\ end"));
        lines.push(format!("session  closed after {n}.5s"));
    }
    lines.push(String::new());
    lines.push("   ".to_owned());
    let log = dir.path().join("hostile.log");
    let mut bytes = (lines.join("\n") + "\n").into_bytes();
    bytes.extend_from_slice(b"invalid \xff\xfe utf-8 line\n");
    std::fs::write(&log, bytes).unwrap();
    let drafts = dir.path().join("drafts");
    let output =
        errcat().arg("--data").arg(seeds()).args(["draft", "--json", "--out"]).arg(&drafts).arg(&log).output().unwrap();
    // Invalid UTF-8 is reported (status 2), and the lines are still drafted.
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("hostile.log:15: invalid UTF-8"));
    let groups = json_lines(&output.stdout);
    let counts: Vec<u64> = groups.iter().map(|g| g["count"].as_u64().unwrap()).collect();
    assert_eq!(counts, [4, 4, 4, 1], "{groups:?}");
    let templates: Vec<&str> = groups.iter().map(|g| g["template"].as_str().unwrap()).collect();
    assert!(templates.contains(&"session  closed after %s"), "{templates:?}");
    assert!(templates.contains(&"quota of %q at %d%% ( ) [ ] $ ^ \\ end"), "{templates:?}");
    let severity = |start: &str| {
        groups.iter().find(|g| g["template"].as_str().unwrap().starts_with(start)).unwrap()["severity"].clone()
    };
    assert_eq!(severity("<b>bad</b>"), "error");
    assert_eq!(severity("quota"), "warning");
    assert_eq!(severity("session"), Json::Null, "no level, no severity");
    let check = errcat().arg("check").arg(&drafts).output().unwrap();
    assert!(check.status.success(), "{}", String::from_utf8_lossy(&check.stdout));
    let found = rescan(dir.path(), &drafts, &log);
    assert_eq!(found.len(), 13, "every drafted line is explained: {found:?}");
}

#[test]
fn levels_min_count_dialects_and_a_missing_file() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("a.log");
    let lines = [
        "[1] 2026/11/29 17:20:00.000001 [ERR] disk sda1 failed with code 5",
        "[1] 2026/11/29 17:20:00.000002 [ERR] disk sdb2 failed with code 7",
        "[1] 2026/11/29 17:20:00.000003 [INF] cache {warm} after 3 tries",
        "[1] 2026/11/29 17:20:00.000004 [INF] cache {cold} after 4 tries",
        "[1] 2026/11/29 17:20:00.000005 [WRN] only once",
    ];
    std::fs::write(&log, lines.join("\n") + "\n").unwrap();
    let templates = |args: &[&str]| -> (Option<i32>, Vec<String>) {
        let output = errcat().arg("--data").arg(seeds()).arg("draft").args(args).output().unwrap();
        let groups = json_lines(&output.stdout);
        let mut templates: Vec<String> = groups.iter().map(|g| g["template"].as_str().unwrap().to_owned()).collect();
        templates.sort();
        (output.status.code(), templates)
    };
    let log = log.to_str().unwrap();
    let (status, all) = templates(&["--json", log]);
    assert_eq!(status, Some(0));
    assert_eq!(all, ["cache {%s} after %d tries", "disk %s failed with code %d", "only once"]);
    assert_eq!(templates(&["--json", "--level", "ERR,WRN", log]).1, ["disk %s failed with code %d", "only once"]);
    assert_eq!(templates(&["--json", "--min-count", "2", log]).1.len(), 2);
    assert_eq!(
        templates(&["--json", "--dialect", "rust", log]).1,
        ["cache {{{}}} after {} tries", "disk {} failed with code {}", "only once"]
    );
    // A missing file is reported, the others drafted, the status is 2.
    let (status, kept) = templates(&["--json", "missing.log", log]);
    assert_eq!((status, kept.len()), (Some(2), 3));
    let refused = errcat().args(["--dialect", "java-format", "draft", log]).output().unwrap();
    assert_eq!(refused.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&refused.stderr).contains("not in java-format"));
    // The table, most lines first.
    let table = errcat().arg("--data").arg(seeds()).args(["draft", log]).output().unwrap();
    let text = String::from_utf8(table.stdout).unwrap();
    assert!(text.contains("5 unexplained line(s), 5 in 3 group(s)"), "{text}");
}

#[test]
fn the_html_reports_unmatched_section_shows_the_largest_groups_with_their_draft_templates() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("server.log");
    let mut lines = Vec::new();
    for n in 0..5 {
        lines.push(format!(
            "[1] 2026/11/29 17:20:0{n}.000000 [ERR] backup of volume{n} failed: <script>alert({n})</script>"
        ));
        if n < 2 {
            lines.push(format!("[1] 2026/11/29 17:21:0{n}.000000 [ERR] cert for \"host {n}\" expires in {n} days"));
        }
    }
    std::fs::write(&log, lines.join("\n") + "\n").unwrap();
    let report = dir.path().join("report.html");
    let output = errcat()
        .arg("--data")
        .arg(seeds())
        .args(["scan", "--count", "--unmatched", "ERR", "--html"])
        .arg(&report)
        .arg(&log)
        .output()
        .unwrap();
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let html = std::fs::read_to_string(&report).unwrap();
    let page = scraper::Html::parse_document(&html);
    let rows = scraper::Selector::parse("#unmatched table.drafts tbody tr").unwrap();
    let cell = scraper::Selector::parse("td").unwrap();
    let rows: Vec<Vec<String>> =
        page.select(&rows).map(|row| row.select(&cell).map(|td| td.text().collect::<String>()).collect()).collect();
    assert_eq!(rows.len(), 2, "{rows:?}");
    assert_eq!(rows[0][0], "5");
    assert_eq!(rows[0][1], "backup of %s failed: <script>alert(%d)</script>", "the markup is text");
    assert_eq!(rows[1][..2], ["2".to_owned(), "cert for %q expires in %d days".to_owned()]);
    // The ids are those `errcat draft` gives the same lines.
    let drafted = errcat().arg("--data").arg(seeds()).args(["draft", "--json"]).arg(&log).output().unwrap();
    let ids: Vec<String> = json_lines(&drafted.stdout).iter().map(|g| g["id"].as_str().unwrap().to_owned()).collect();
    assert_eq!(ids, [rows[0][2].clone(), rows[1][2].clone()]);
    assert!(!html.contains("<script>alert("), "no markup from the log in the page");
}

/// The fixture: a log of known templates (`errcat/tests/data/draft/server.log`,
/// behind nats-server prefixes, with two lines the seed catalog explains)
/// and its drafts as `errcat draft --out` wrote them (`drafts/`), which the
/// root crate's tests compile with `#[catalog]` (`tests/it/drafted.rs`).
/// Drafted again here, the files must be the same bytes, so that they cannot
/// go stale; `ERRCAT_UPDATE_GOLDEN=1` writes them anew.
#[test]
fn the_fixture_log_drafts_to_the_checked_in_golden_files() {
    let fixture = support::workspace_root().join("errcat/tests/data/draft");
    let golden = fixture.join("drafts");
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("drafts");
    // Run in the fixture's folder: the documentation names the log as given.
    let output = errcat()
        .current_dir(&fixture)
        .arg("--data")
        .arg(seeds())
        .args(["draft", "--json", "--out"])
        .arg(&out)
        .arg("server.log")
        .output()
        .unwrap();
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let files = |dir: &Path| -> BTreeMap<String, String> {
        let mut files = BTreeMap::new();
        for file in std::fs::read_dir(dir).unwrap() {
            let path = file.unwrap().path();
            if path.extension().is_some_and(|e| e == "json") {
                let name = path.file_name().unwrap().to_string_lossy().into_owned();
                files.insert(name, std::fs::read_to_string(&path).unwrap());
            }
        }
        files
    };
    let written = files(&out);
    if std::env::var_os("ERRCAT_UPDATE_GOLDEN").is_some() {
        for name in files(&golden).keys() {
            std::fs::remove_file(golden.join(name)).unwrap();
        }
        for (name, text) in &written {
            std::fs::write(golden.join(name), text).unwrap();
        }
    }
    let checked_in = files(&golden);
    assert_eq!(written.keys().collect::<Vec<_>>(), checked_in.keys().collect::<Vec<_>>(), "the same drafts");
    for (name, text) in &written {
        assert_eq!(
            text, &checked_in[name],
            "{name} differs from the checked-in draft (ERRCAT_UPDATE_GOLDEN=1 rewrites it)"
        );
    }

    // The groups are the log's templates, told apart where one word differs.
    let groups: BTreeMap<String, (u64, String)> = json_lines(&output.stdout)
        .iter()
        .map(|g| {
            let id = g["id"].as_str().unwrap().to_owned();
            (g["template"].as_str().unwrap().to_owned(), (g["count"].as_u64().unwrap(), id))
        })
        .collect();
    let counts: Vec<(&str, u64)> = groups.iter().map(|(t, (count, _))| (t.as_str(), *count)).collect();
    assert_eq!(
        counts,
        [
            ("cache %q evicted %d entries (limit=%d)", 3),
            ("feature `%s` of package `%s` is unknown", 4),
            ("replica %s lost its lease after %d ms: %s", 5),
            ("user %s signed in from %s", 2),
            ("user %s signed out from %s", 3),
        ]
    );
    let check = errcat().args(["check"]).arg(&golden).output().unwrap();
    assert!(check.status.success(), "{}", String::from_utf8_lossy(&check.stderr));

    // Scanned with the drafts, each line is explained by its group's draft,
    // and the lines the seeds explain by none.
    let log = std::fs::read_to_string(fixture.join("server.log")).unwrap();
    let scan = errcat().arg("--data").arg(&golden).args(["scan", "--json"]).arg(fixture.join("server.log")).output();
    let found: BTreeMap<u64, String> = json_lines(&scan.unwrap().stdout)
        .iter()
        .map(|f| (f["line"].as_u64().unwrap(), f["id"].as_str().unwrap().to_owned()))
        .collect();
    let template_of = |line: &str| {
        let starts = [
            ("cache ", "cache %q evicted %d entries (limit=%d)"),
            ("feature ", "feature `%s` of package `%s` is unknown"),
            ("replica ", "replica %s lost its lease after %d ms: %s"),
        ];
        let message = &line[line.find("] ").unwrap() + 2..];
        let message = &message[message.find("] ").unwrap() + 2..];
        match starts.iter().find(|(start, _)| message.starts_with(start)) {
            Some((_, template)) => Some(*template),
            None if message.starts_with("user ") && message.contains(" signed in ") => {
                Some("user %s signed in from %s")
            }
            None if message.starts_with("user ") => Some("user %s signed out from %s"),
            None => None,
        }
    };
    for (number, line) in (1..).zip(log.lines()) {
        let expected = template_of(line).map(|template| &groups[template].1);
        assert_eq!(found.get(&number), expected, "line {number}: {line}");
    }
    assert_eq!(found.len(), 17);
}

/// Values of the kinds that once left a line to another group's draft on a
/// re-scan: empty, several words, a template's own delimiters (`, `, `: `,
/// `.`), negative numbers, quotes with escapes, non-ASCII, addresses, paths
/// with dots, text glued to a word; each unique by `n`.
fn overlapping_value(n: usize) -> String {
    match n % 11 {
        0 => String::new(),
        1 => format!("a, b; c{n}"),
        2 => format!("x: y{}", word(n)),
        3 => format!("{} {}", word(n), word(n + 1)),
        4 => format!("/var/lib/{}/{n}.db", word(n)),
        5 => format!("é日本🎉{}", word(n)),
        6 => format!("-{n}"),
        7 => format!("10.1.2.{}:4222", n % 250),
        8 => format!("{}.", word(n)),
        9 => format!("\"q\\\"{n}\""),
        _ => format!("{}-{n}", word(n)),
    }
}

#[test]
fn lines_whose_drafts_overlap_are_each_explained_by_their_own_draft_on_a_rescan() {
    // Templates that another's pattern also matches, in part or in whole:
    // one with literal text where another has a value, one that is another
    // with text after it (`name` and `name%s`, `%s` and `%s.`), values at
    // the start, values that may be empty.
    type Render<'a> = &'a dyn Fn(&dyn Fn(usize) -> String) -> String;
    let templates: [Render<'_>; 14] = [
        &|_| "Shutting down".to_owned(),
        &|_| "Shutting down.".to_owned(),
        &|v| format!("Shutting down {}", v(0)),
        &|v| format!("Received inconsistent topic ID error in fetch for partition {}.", v(0)),
        &|v| format!("Received inconsistent topic ID error in fetch for partition {}", v(0)),
        &|v| format!("[patch] entry `{}` should be a URL or registry name", v(0)),
        &|v| format!("[patch] entry `{}` should be a URL or registry name{}", v(0), v(1)),
        &|v| format!("Found wrong number ({}) of {} constraints for {}", v(0), v(1), v(2)),
        &|v| format!("Found wrong number ({}) of constraints for {}", v(0), v(1)),
        &|v| format!("retry {} of {} for {} failed: {}", v(3), v(4), v(5), v(0)),
        &|v| format!("{} Failed record: {}", v(0), v(1)),
        &|v| format!("Node is not ready, handle the request in the next event loop: node={}, request={}", v(0), v(1)),
        &|v| format!("config reload not supported for {}: {}", v(0), v(1)),
        &|v| format!("config reload not supported for cluster host: old={}, new={}", v(0), v(1)),
    ];
    // Seeded, so a failure is repeated: the values and the line order vary
    // with the seed, never the checks.
    let mut state: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state as usize
    };
    let mut lines: Vec<String> = Vec::new();
    for (t, template) in templates.iter().enumerate() {
        for r in 0..8 {
            let base = next();
            let value = |i: usize| match i {
                // Numbers, negative ones too, and a quoted string.
                3 => format!("{}", (base % 200) as i64 - 100),
                4 => format!("-{}", base % 7),
                5 => format!("\"job \\\"{t}-{r}\\\"\""),
                i => overlapping_value(base.wrapping_add(i * 7)),
            };
            lines.push(template(&value));
        }
    }
    for i in (1..lines.len()).rev() {
        lines.swap(i, next() % (i + 1));
    }
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("overlapping.log");
    std::fs::write(&log, lines.join("\n") + "\n").unwrap();
    let drafts = dir.path().join("drafts");
    let output =
        errcat().arg("--data").arg(seeds()).args(["draft", "--json", "--out"]).arg(&drafts).arg(&log).output().unwrap();
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let groups = json_lines(&output.stdout);
    let counts: BTreeMap<String, u64> =
        groups.iter().map(|g| (g["id"].as_str().unwrap().to_owned(), g["count"].as_u64().unwrap())).collect();
    assert_eq!(counts.values().sum::<u64>(), lines.len() as u64, "every line is grouped: {groups:#?}");
    let check = errcat().arg("check").arg(&drafts).output().unwrap();
    assert!(check.status.success(), "{}", String::from_utf8_lossy(&check.stdout));
    // The re-scan: every line explained, each draft given exactly its count...
    let found = rescan(dir.path(), &drafts, &log);
    assert_eq!(found.len(), lines.len(), "every grouped line is explained by the drafts");
    let mut rescanned: BTreeMap<String, u64> = BTreeMap::new();
    for id in found.values() {
        *rescanned.entry(id.clone()).or_default() += 1;
    }
    assert_eq!(rescanned, counts, "each draft is given exactly its group's count: {groups:#?}");
    // ...and its own lines: its first, last and example lines are its own.
    let line_of = |text: &str| lines.iter().position(|l| l == text).unwrap() as u64 + 1;
    for group in &groups {
        let id = group["id"].as_str().unwrap();
        let mut own = vec![group["first"]["line"].as_u64().unwrap(), group["last"]["line"].as_u64().unwrap()];
        own.extend(group["examples"].as_array().unwrap().iter().map(|e| line_of(e.as_str().unwrap())));
        for line in own {
            assert_eq!(found[&line], id, "line {line} ({:?}) of {group}", lines[line as usize - 1]);
        }
    }
    // Negative numbers are numbers, a quoted string with escaped quotes one
    // `%q`: each placeholder typed from all of its group's lines.
    let retry = groups.iter().find(|g| g["template"].as_str().unwrap().starts_with("retry")).unwrap();
    assert_eq!(
        (&retry["template"], &retry["count"]),
        (&Json::from("retry %d of %d for %q failed: %s"), &Json::from(8))
    );
}
