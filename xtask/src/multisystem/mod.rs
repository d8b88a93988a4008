//! `multisystem DIR LOG LINES`: a benchmark catalog of many systems whose
//! records carry only a `messagePattern` (the pattern dialect), and a log of
//! LINES lines of those systems in which every line matches some record.
//!
//! It is shaped like the Loghub benchmark's 1,363 templates of 16 systems
//! (see `../shared/notes/multi-pattern-engines.md`, §0): about 1,400 records,
//! literal text with wildcards, about a quarter with no placeholder, a few
//! starting with one, a small shared vocabulary (`Received`, ` to `, `.`,
//! `:`), some catch-alls that are almost all wildcards, and
//! specific/general pairs (`Received block <*> of size <*> from <*>` and
//! `Received <*>`) where the most literal record must win. Each system's
//! lines carry its own prefix (timestamp, level, component). Everything is
//! deterministic (a fixed seed).
//!
//! Patterns have no `^`/`$` anchors: like the dataset's own records (the
//! seeds' `messagePattern`s), they describe the message, not the line, and
//! the runtime anchors them itself where needed (`matcher::find_regex`: `^`
//! after the recognised log prefix for a leading placeholder, `$` after a
//! trailing one). A leading placeholder is always `(.*?)`, which can take
//! the part of a system's prefix the runtime does not recognise.
//!
//! The generator then checks every line with errcat's engine (`Catalog`)
//! and with the naive `RegexSet` baseline ranked the same way, and prints the
//! catalog's statistics and the checks' counts.

mod systems;

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::fs::{self, File};
use std::io::{BufWriter, Write};
use std::path::Path;
use std::time::{Duration, Instant};

use catalog_runtime::Catalog;
use serde_json::json;

use crate::naive::Naive;
use crate::rng::Rng;
use crate::synth::{self, slug};
use systems::{System, CATCH_ALLS, CONNECTORS, FILLERS, GENERAL, OPENERS, PLAIN_TAILS, SYSTEMS, TAILS};

/// A piece of a template.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Seg<'t> {
    Lit(&'t str),
    /// `<*>`: `(.*?)`.
    Any,
    /// `<+>`: `(.+?)`.
    Plus,
    /// `<#>`: `(\d+)`.
    Digits,
}

/// One generated record's template.
#[derive(Clone, Debug)]
pub struct Template {
    pub system: usize,
    /// The text with `<*>`, `<+>` and `<#>` placeholders.
    pub text: String,
    pub severity: &'static str,
}

impl Template {
    fn segs(&self) -> Vec<Seg<'_>> {
        segments(&self.text)
    }

    /// The record's `messagePattern`: escaped literals and capture groups.
    pub fn pattern(&self) -> String {
        self.segs()
            .iter()
            .map(|seg| match seg {
                Seg::Lit(text) => regex::escape(text),
                Seg::Any => "(.*?)".to_owned(),
                Seg::Plus => "(.+?)".to_owned(),
                Seg::Digits => r"(\d+)".to_owned(),
            })
            .collect()
    }

    /// The record's `errorMessage`: every placeholder written `<*>`, as in Loghub.
    pub fn message(&self) -> String {
        self.text.replace("<+>", "<*>").replace("<#>", "<*>")
    }

    /// The literal runs between placeholders.
    fn runs(&self) -> Vec<&str> {
        self.segs().into_iter().filter_map(|seg| if let Seg::Lit(text) = seg { Some(text) } else { None }).collect()
    }

    fn literal_chars(&self) -> usize {
        self.runs().iter().map(|run| run.chars().count()).sum()
    }

    fn id(&self) -> String {
        format!("{:016x}", synth::fnv(&format!("{}\n{}", SYSTEMS[self.system].repo, self.text)))
    }
}

fn segments(text: &str) -> Vec<Seg<'_>> {
    let mut segs = Vec::new();
    let mut literal_start = 0;
    let mut at = 0;
    while at < text.len() {
        let seg = match text.get(at..at + 3) {
            Some("<*>") => Seg::Any,
            Some("<+>") => Seg::Plus,
            Some("<#>") => Seg::Digits,
            _ => {
                at += 1;
                continue;
            }
        };
        if literal_start < at {
            segs.push(Seg::Lit(&text[literal_start..at]));
        }
        segs.push(seg);
        at += 3;
        literal_start = at;
    }
    if literal_start < text.len() {
        segs.push(Seg::Lit(&text[literal_start..]));
    }
    segs
}

/// Every template of the catalog, deterministic.
pub fn templates() -> Vec<Template> {
    let mut rng = Rng::new(0x04c0_64ab);
    let mut all = Vec::new();
    let mut catch_alls = CATCH_ALLS.iter();
    for (index, system) in SYSTEMS.iter().enumerate() {
        let mut seen = BTreeSet::new();
        let mut add = |text: String, rng: &mut Rng, all: &mut Vec<Template>| {
            if seen.insert(text.clone()) {
                let severity = rng.pick::<&str>(&["info", "info", "info", "info", "warning", "error"]);
                all.push(Template { system: index, text, severity });
                true
            } else {
                false
            }
        };
        for seed in system.seeds {
            add((*seed).to_owned(), &mut rng, &mut all);
        }
        // A catch-all for most of the larger systems.
        if system.count >= 40 {
            if let Some(text) = catch_alls.next() {
                add((*text).to_owned(), &mut rng, &mut all);
            }
        }
        let mut made = all.iter().filter(|t| t.system == index).count();
        let mut attempts = 0;
        while made < system.count && attempts < 100_000 {
            attempts += 1;
            let text = generated(system, &mut rng);
            if add(text, &mut rng, &mut all) {
                made += 1;
            }
        }
    }
    all
}

/// One generated template text of `system`.
fn generated(system: &System, rng: &mut Rng) -> String {
    let roll = rng.below(100);
    if roll < 28 {
        // No placeholder.
        let mut text = phrase(system, rng, 6, 30);
        if rng.chance(0.3) {
            text.push_str(rng.pick::<&str>(&[": ", ", ", ". ", " - "]));
            text.push_str(&phrase(system, rng, 6, 16));
        }
        text.push_str(rng.pick::<&str>(PLAIN_TAILS));
        text
    } else if roll < 35 {
        // Starts with a placeholder.
        let mut text = String::from("<*>");
        text.push_str(rng.pick::<&str>(&[" ", ": ", " - ", " "]));
        text.push_str(&phrase(system, rng, 4, 24));
        if rng.chance(0.6) {
            text.push_str(rng.pick::<&str>(CONNECTORS));
            text.push_str("<*>");
        }
        text
    } else if roll < 37 {
        // General: an opener and the rest a wildcard (pairs with the
        // specific templates that share the opener).
        format!("{} <*>", rng.pick(GENERAL))
    } else {
        // A phrase, then placeholders joined by short shared connectors.
        let mut text = phrase(system, rng, 2, 22);
        text.push(' ');
        let placeholders = 1 + rng.below(4);
        for n in 0..placeholders {
            if n > 0 {
                if rng.chance(0.25) {
                    text.push(' ');
                    text.push_str(&nouns(system, rng, 4, 14));
                    text.push(' ');
                } else {
                    text.push_str(rng.pick::<&str>(CONNECTORS));
                }
            }
            text.push_str(placeholder(rng));
        }
        text.push_str(rng.pick::<&str>(TAILS));
        text
    }
}

fn placeholder(rng: &mut Rng) -> &'static str {
    match rng.below(100) {
        0..85 => "<*>",
        85..93 => "<+>",
        _ => "<#>",
    }
}

/// Words of `system` of at least `min` bytes plus a random part of
/// `spread`: an opener, then nouns.
fn phrase(system: &System, rng: &mut Rng, min: usize, spread: usize) -> String {
    let mut text = rng.pick(OPENERS).to_string();
    text.push(' ');
    text.push_str(&nouns(system, rng, min, spread));
    text
}

/// Nouns of `system` (with a few fillers) of at least `min` bytes plus a
/// random part of `spread`.
fn nouns(system: &System, rng: &mut Rng, min: usize, spread: usize) -> String {
    let target = min + rng.below(spread);
    let mut text = String::new();
    while text.len() < target {
        if !text.is_empty() {
            text.push(' ');
        }
        if rng.chance(0.3) {
            text.push_str(rng.pick::<&str>(FILLERS));
            text.push(' ');
        }
        text.push_str(rng.pick::<&str>(system.nouns));
    }
    text
}

/// A value for a placeholder.
fn value(seg: Seg<'_>, system: &System, rng: &mut Rng) -> String {
    if seg == Seg::Digits {
        return rng.below(100_000).to_string();
    }
    match rng.below(12) {
        0 | 1 => rng.below(1_000_000).to_string(),
        2 => format!("10.{}.{}.{}", rng.below(256), rng.below(256), rng.below(256)),
        3 => format!("10.{}.{}.{}:{}", rng.below(256), rng.below(256), rng.below(256), 1024 + rng.below(60_000)),
        4 => format!("0x{:08x}", rng.next() as u32),
        5 => format!("blk_-{}", rng.next() % 10_000_000_000_000_000),
        6 => format!("/var/lib/{}/{}", rng.pick(system.nouns).replace(' ', "_"), rng.below(10_000)),
        7 => rng.pick(system.nouns).to_string(),
        8 => format!("{}ms", rng.below(50_000)),
        9 => format!("{}{}", rng.pick(&["user", "root", "admin", "test", "svc-"]), rng.below(100)),
        10 => format!("{:08x}-{:04x}-{:04x}", rng.next() as u32, rng.below(0x10000), rng.below(0x10000)),
        _ => {
            format!("{}_{}", rng.pick(system.components).split(['.', '[', ' ']).next().unwrap_or("x"), rng.below(1000))
        }
    }
}

/// A message of `template` with random values.
fn render(template: &Template, rng: &mut Rng) -> String {
    let system = &SYSTEMS[template.system];
    template
        .segs()
        .into_iter()
        .map(|seg| match seg {
            Seg::Lit(text) => text.to_owned(),
            other => value(other, system, rng),
        })
        .collect()
}

/// Time of the log, advanced line by line.
struct Clock {
    seconds: u64,
    micros: u32,
}

impl Clock {
    fn tick(&mut self, rng: &mut Rng) {
        let step = rng.below(40_000) as u32;
        self.micros += step;
        self.seconds += u64::from(self.micros / 1_000_000);
        self.micros %= 1_000_000;
    }
}

/// Date and time of the log's clock: (year, month, day, hour, minute,
/// second, weekday 0 = Sunday). The log starts on Tuesday 2017-05-16 and
/// spans hours, not months, so days are counted on from there.
fn civil(seconds: u64) -> (i64, u32, u32, u32, u32, u32, usize) {
    let since = seconds.saturating_sub(START);
    let days = (since / 86_400) as u32;
    let secs = (since % 86_400) as u32;
    (2017, 5, 16 + days, secs / 3600, secs / 60 % 60, secs % 60, (2 + days as usize) % 7)
}

/// 2017-05-16 00:00:00 UTC.
const START: u64 = 1_494_892_800;

const MONTHS: [&str; 12] = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
const DAYS: [&str; 7] = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];

/// The line prefix of `system` at `clock` for a record of `severity`, in the
/// shape that system's real logs have.
fn prefix(system: &System, severity: &str, clock: &Clock, rng: &mut Rng) -> String {
    let (year, month, day, h, m, s, weekday) = civil(clock.seconds);
    let ms = clock.micros / 1000;
    let us = clock.micros;
    let mon = MONTHS[month as usize - 1];
    let component = rng.pick(system.components);
    let level = |names: [&'static str; 3]| match severity {
        "error" => names[2],
        "warning" => names[1],
        _ => names[0],
    };
    let pid = 1000 + rng.below(30_000);
    match system.repo {
        "distributed/hdfs" => format!(
            "{:02}{month:02}{day:02} {h:02}{m:02}{s:02} {} {} {component}: ",
            year % 100,
            rng.below(5000),
            level(["INFO", "WARN", "ERROR"])
        ),
        "distributed/hadoop" => format!(
            "{year}-{month:02}-{day:02} {h:02}:{m:02}:{s:02},{ms:03} {} {component}: ",
            level(["INFO", "WARN", "ERROR"])
        ),
        "distributed/spark" => format!(
            "{:02}/{month:02}/{day:02} {h:02}:{m:02}:{s:02} {} {component}: ",
            year % 100,
            level(["INFO", "WARN", "ERROR"])
        ),
        "distributed/zookeeper" => format!(
            "{year}-{month:02}-{day:02} {h:02}:{m:02}:{s:02},{ms:03} - {} [{component}] - ",
            level(["INFO ", "WARN ", "ERROR"])
        ),
        "distributed/openstack" => format!(
            "nova-compute.log.1.{year}-{month:02}-{day:02}_{h:02}:{m:02}:{s:02} {year}-{month:02}-{day:02} {h:02}:{m:02}:{s:02}.{ms:03} {pid} {} {component} [req-{:08x}-{:04x}-{:04x} {:016x} {:016x} - - -] ",
            level(["INFO", "WARNING", "ERROR"]),
            rng.next() as u32,
            rng.below(0x10000),
            rng.below(0x10000),
            rng.next(),
            rng.next()
        ),
        "supercomputer/bgl" => {
            let node = format!("R{:02}-M{}-N{}-C:J{:02}-U{:02}", rng.below(80), rng.below(2), rng.below(16), rng.below(18), rng.below(12));
            format!(
                "- {} {year}.{month:02}.{day:02} {node} {year}-{month:02}-{day:02}-{h:02}.{m:02}.{s:02}.{us:06} {node} {component} {} ",
                clock.seconds,
                level(["INFO", "WARNING", "FATAL"])
            )
        }
        "supercomputer/hpc" => {
            format!("{} node-{} {component} {} 1 ", 100_000 + rng.below(400_000), rng.below(256), clock.seconds)
        }
        "supercomputer/thunderbird" => {
            let host = format!("dn{}", rng.below(1000));
            format!(
                "- {} {year}.{month:02}.{day:02} {host} {mon} {day} {h:02}:{m:02}:{s:02} {host}/{host} {component}: ",
                clock.seconds
            )
        }
        "os/windows" => format!(
            "{year}-{month:02}-{day:02} {h:02}:{m:02}:{s:02}, {:<22}{component:<6} ",
            level(["Info", "Warning", "Error"])
        ),
        "os/linux" => format!("{mon} {day:2} {h:02}:{m:02}:{s:02} {component}: "),
        "os/mac" => {
            format!("{mon} {day:2} {h:02}:{m:02}:{s:02} calvisitor-10-105-{}-{} {component}: ", rng.below(256), rng.below(256))
        }
        "os/android" => format!(
            "{month:02}-{day:02} {h:02}:{m:02}:{s:02}.{ms:03}  {pid}  {} {} {component}: ",
            pid + rng.below(500),
            level(["I", "W", "E"])
        ),
        "mobile/healthapp" => format!("{year}{month:02}{day:02}-{h:02}:{m:02}:{s:02}:{ms}|{component}|{}|", 30_002_312),
        "server/apache" => format!(
            "[{} {mon} {day:02} {h:02}:{m:02}:{s:02} {year}] [{}] ",
            DAYS[weekday],
            level(["notice", "warn", "error"])
        ),
        "server/openssh" => format!("{mon} {day:2} {h:02}:{m:02}:{s:02} {component}: "),
        _ => format!("[{month:02}.{day:02} {h:02}:{m:02}:{s:02}] {component} - "),
    }
}

/// Writes the catalog's records under `dir`, one folder per system.
pub fn write_catalog(dir: &Path, templates: &[Template]) -> Result<(), String> {
    for system in SYSTEMS {
        let folder = dir.join(system.repo);
        if folder.exists() {
            fs::remove_dir_all(&folder).map_err(|e| format!("{}: {e}", folder.display()))?;
        }
        fs::create_dir_all(&folder).map_err(|e| format!("{}: {e}", folder.display()))?;
    }
    for template in templates {
        let system = &SYSTEMS[template.system];
        let message = template.message();
        let id = template.id();
        let record = json!({
            "record": {
                "id": id,
                "repo": system.repo,
                "slug": Some(slug(&message)).filter(|s| !s.is_empty()).unwrap_or_else(|| "wildcards".to_owned()),
                "errorCode": null,
                "errorMessage": message,
                "messagePattern": template.pattern(),
                "errorType": "log",
                "severity": template.severity,
                "filePath": null,
                "lineNumber": null,
                "documentation": format!("A {} log message (synthetic benchmark record).", system.repo),
                "solutions": [],
                "preventionTips": [],
                "tags": [system.repo.split('/').next().unwrap_or("system")],
                "schemaVersion": 2
            },
            "datasetVersion": "multisystem-benchmark"
        });
        let path = dir.join(system.repo).join(format!("{id}.json"));
        fs::write(&path, record.to_string()).map_err(|e| format!("{}: {e}", path.display()))?;
    }
    Ok(())
}

/// A generated line: the template it comes from and where its message starts.
pub struct Line {
    pub template: usize,
    pub message_start: usize,
    pub text: String,
}

/// `lines` log lines, each rendered from one template after its system's prefix.
pub fn log_lines(templates: &[Template], lines: usize) -> Vec<Line> {
    let mut by_system: Vec<Vec<usize>> = vec![Vec::new(); SYSTEMS.len()];
    for (index, template) in templates.iter().enumerate() {
        by_system[template.system].push(index);
    }
    let mut rng = Rng::new(0x1065);
    let mut clock = Clock { seconds: START, micros: 0 };
    (0..lines)
        .map(|_| {
            clock.tick(&mut rng);
            let own = &by_system[rng.below(SYSTEMS.len())];
            // Skewed: the first (hand-written) templates are the most frequent, as in real logs.
            let u = (rng.next() >> 11) as f64 / (1u64 << 53) as f64;
            let index = own[((u * u * own.len() as f64) as usize).min(own.len() - 1)];
            let template = &templates[index];
            let prefix = prefix(&SYSTEMS[template.system], template.severity, &clock, &mut rng);
            let message = render(template, &mut rng);
            Line { template: index, message_start: prefix.len(), text: prefix + &message }
        })
        .collect()
}

pub fn run(dir: &Path, log: &Path, lines: usize) -> Result<(), String> {
    let templates = templates();
    write_catalog(dir, &templates)?;
    let generated = log_lines(&templates, lines);
    let file = File::create(log).map_err(|e| format!("{}: {e}", log.display()))?;
    let mut w = BufWriter::new(file);
    for line in &generated {
        writeln!(w, "{}", line.text).map_err(|e| e.to_string())?;
    }
    w.flush().map_err(|e| e.to_string())?;
    let bytes: usize = generated.iter().map(|l| l.text.len() + 1).sum();
    eprintln!(
        "wrote {} records of {} systems in {} and {lines} lines ({:.1} MB) in {}",
        templates.len(),
        SYSTEMS.len(),
        dir.display(),
        bytes as f64 / 1e6,
        log.display()
    );
    eprint!("{}", Stats::of(&templates, &generated));
    let catalog = Catalog::load(dir).map_err(|e| e.to_string())?;
    let check = Check::run(&catalog, &templates, &generated);
    eprint!("{check}");
    Ok(())
}

/// The catalog's statistics, as in the note's §0.
pub struct Stats {
    pub records: usize,
    pub systems: usize,
    pub median_longest_run: usize,
    pub no_placeholder: f64,
    pub leading_placeholder: f64,
    pub short_runs: usize,
    pub shared_runs: Vec<(String, usize)>,
    /// Mean and maximum of candidates per line (templates whose longest run
    /// is in the line's message; in the whole line).
    pub candidates_message: (f64, usize),
    pub candidates_line: (f64, usize),
    pub mean_message_len: f64,
}

impl Stats {
    pub fn of(templates: &[Template], lines: &[Line]) -> Stats {
        let longest: Vec<&str> =
            templates.iter().map(|t| t.runs().into_iter().max_by_key(|r| r.len()).unwrap_or("")).collect();
        let mut lengths: Vec<usize> = longest.iter().map(|r| r.len()).collect();
        lengths.sort_unstable();
        let share = |n: usize| n as f64 / templates.len().max(1) as f64;
        let no_placeholder = templates.iter().filter(|t| t.segs().iter().all(|s| matches!(s, Seg::Lit(_)))).count();
        let leading = templates.iter().filter(|t| !matches!(t.segs().first(), Some(Seg::Lit(_)))).count();
        let mut shared: BTreeMap<&str, usize> = BTreeMap::new();
        for template in templates {
            let runs: BTreeSet<&str> = template.runs().into_iter().collect();
            for run in runs {
                *shared.entry(run).or_default() += 1;
            }
        }
        let mut shared: Vec<(String, usize)> = shared.into_iter().map(|(r, n)| (r.to_owned(), n)).collect();
        shared.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
        shared.truncate(6);
        // Candidates: every template whose longest run occurs in the text.
        let mut owners: HashMap<&str, Vec<usize>> = HashMap::new();
        for (index, run) in longest.iter().enumerate() {
            owners.entry(run).or_default().push(index);
        }
        let runs: Vec<&str> = owners.keys().copied().filter(|r| !r.is_empty()).collect();
        let always = owners.get("").map_or(0, Vec::len);
        let searcher = aho_corasick::AhoCorasick::new(&runs).expect("literal runs");
        let count = |text: &str| {
            let mut hit = vec![false; runs.len()];
            for m in searcher.find_overlapping_iter(text) {
                hit[m.pattern().as_usize()] = true;
            }
            always + hit.iter().zip(&runs).filter(|(h, _)| **h).map(|(_, r)| owners[r].len()).sum::<usize>()
        };
        let sample = &lines[..lines.len().min(50_000)];
        let mean_max = |counts: Vec<usize>| {
            let max = counts.iter().copied().max().unwrap_or(0);
            (counts.iter().sum::<usize>() as f64 / counts.len().max(1) as f64, max)
        };
        let candidates_message = mean_max(sample.iter().map(|l| count(&l.text[l.message_start..])).collect());
        let candidates_line = mean_max(sample.iter().map(|l| count(&l.text)).collect());
        let mean_message_len =
            sample.iter().map(|l| l.text.len() - l.message_start).sum::<usize>() as f64 / sample.len().max(1) as f64;
        Stats {
            records: templates.len(),
            systems: SYSTEMS.len(),
            median_longest_run: lengths.get(lengths.len() / 2).copied().unwrap_or(0),
            no_placeholder: share(no_placeholder),
            leading_placeholder: share(leading),
            short_runs: lengths.iter().filter(|&&n| n < 8).count(),
            shared_runs: shared,
            candidates_message,
            candidates_line,
            mean_message_len,
        }
    }
}

impl std::fmt::Display for Stats {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(f, "catalog: {} records, {} systems", self.records, self.systems)?;
        writeln!(
            f,
            "  median longest literal run {} B; {} templates with no run of 8 B or more",
            self.median_longest_run, self.short_runs
        )?;
        writeln!(
            f,
            "  {:.1}% with no placeholder, {:.1}% starting with one",
            self.no_placeholder * 100.0,
            self.leading_placeholder * 100.0
        )?;
        let shared: Vec<String> = self.shared_runs.iter().map(|(r, n)| format!("{r:?} {n}")).collect();
        writeln!(f, "  most shared runs (templates): {}", shared.join(", "))?;
        writeln!(
            f,
            "  candidates per line by longest run (first 50,000 lines): message {:.2} (max {}), whole line {:.2} (max {}); mean message {:.1} B",
            self.candidates_message.0,
            self.candidates_message.1,
            self.candidates_line.0,
            self.candidates_line.1,
            self.mean_message_len
        )
    }
}

/// Every line classified by errcat's engine and by the naive baseline.
pub struct Check {
    pub lines: usize,
    pub unmatched: Vec<usize>,
    /// Lines won by their own template.
    pub own: usize,
    /// Lines won by another template with at least as many literal characters.
    pub other_as_literal: usize,
    /// Lines won by a template with fewer literal characters than their own
    /// (the ranking broken).
    pub less_literal: Vec<usize>,
    /// Lines several records match (from the naive pass).
    pub several: usize,
    /// Lines where the naive baseline's best record differs from errcat's.
    pub disagreements: Vec<(usize, Option<usize>, Option<usize>)>,
    /// Catalog index of each line's winner, `None` when unmatched.
    pub winners: Vec<Option<usize>>,
    pub template_of_entry: Vec<usize>,
    /// Time of each pass (on every core).
    pub errcat_time: Duration,
    pub naive_time: Duration,
    /// How many lines (the first) the naive baseline classified.
    pub naive_lines: usize,
}

/// The naive baseline checks the first lines only: it takes about 20 times
/// as long as errcat's engine on this catalog.
const NAIVE_LINES: usize = 20_000;

/// `f` of every line, in order, on a few threads.
fn parallel<T: Send>(lines: &[Line], f: impl Fn(&Line) -> T + Sync) -> Vec<T> {
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get()).min(4);
    let chunk = lines.len().div_ceil(threads).max(1);
    std::thread::scope(|scope| {
        let f = &f;
        let handles: Vec<_> =
            lines.chunks(chunk).map(|part| scope.spawn(move || part.iter().map(f).collect::<Vec<T>>())).collect();
        handles.into_iter().flat_map(|h| h.join().expect("a checking thread")).collect()
    })
}

impl Check {
    pub fn run(catalog: &Catalog, templates: &[Template], lines: &[Line]) -> Check {
        let by_id: HashMap<String, usize> = templates.iter().enumerate().map(|(i, t)| (t.id(), i)).collect();
        let template_of_entry: Vec<usize> = catalog
            .entries()
            .iter()
            .map(|e| by_id.get(e.record().id.as_ref()).copied().unwrap_or(usize::MAX))
            .collect();
        let naive = Naive::new(catalog).expect("the catalog's patterns compile");
        let started = Instant::now();
        let errcat = parallel(lines, |line| catalog.find(&line.text).map(|m| m.index));
        let errcat_time = started.elapsed();
        let started = Instant::now();
        let naive = parallel(&lines[..lines.len().min(NAIVE_LINES)], |line| naive.classify(&line.text));
        let naive_time = started.elapsed();
        let naive_lines = naive.len();
        let naive = naive.into_iter().map(Some).chain(std::iter::repeat(None));
        let results = errcat.into_iter().zip(naive);
        let mut check = Check {
            lines: lines.len(),
            unmatched: Vec::new(),
            own: 0,
            other_as_literal: 0,
            less_literal: Vec::new(),
            several: 0,
            disagreements: Vec::new(),
            winners: Vec::new(),
            template_of_entry,
            errcat_time,
            naive_time,
            naive_lines,
        };
        for (number, (line, (errcat, naive))) in lines.iter().zip(results).enumerate() {
            if let Some((best, count)) = naive {
                check.several += usize::from(count > 1);
                if errcat != best {
                    check.disagreements.push((number, errcat, best));
                }
            }
            check.winners.push(errcat);
            let Some(entry) = errcat else {
                check.unmatched.push(number);
                continue;
            };
            let winner = check.template_of_entry[entry];
            if winner == line.template {
                check.own += 1;
            } else if templates[winner].literal_chars() >= templates[line.template].literal_chars() {
                check.other_as_literal += 1;
            } else {
                check.less_literal.push(number);
            }
        }
        check
    }
}

impl std::fmt::Display for Check {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(
            f,
            "errcat's engine ({:.1?}): {} of {} lines matched ({} unmatched); {} won by their own record, {} by another at least as literal, {} by a less literal one",
            self.errcat_time,
            self.lines - self.unmatched.len(),
            self.lines,
            self.unmatched.len(),
            self.own,
            self.other_as_literal,
            self.less_literal.len()
        )?;
        writeln!(
            f,
            "naive RegexSet, same ranking, first {} lines ({:.1?}): {} lines matched by several records; {} lines classified differently from errcat",
            self.naive_lines,
            self.naive_time,
            self.several,
            self.disagreements.len()
        )?;
        for (number, errcat, naive) in self.disagreements.iter().take(5) {
            writeln!(f, "  line {}: errcat {errcat:?}, naive {naive:?} (catalog indexes)", number + 1)?;
        }
        for number in self.unmatched.iter().take(5) {
            writeln!(f, "  unmatched: line {}", number + 1)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_catalog_and_log_are_deterministic_and_every_line_is_matched() {
        let templates = templates();
        let again = super::templates();
        assert_eq!(
            templates.iter().map(|t| &t.text).collect::<Vec<_>>(),
            again.iter().map(|t| &t.text).collect::<Vec<_>>()
        );
        assert!((1_300..=1_500).contains(&templates.len()), "{} records", templates.len());
        let lines = log_lines(&templates, 400);
        let texts: Vec<&str> = lines.iter().map(|l| l.text.as_str()).collect();
        let again = log_lines(&templates, 400);
        assert_eq!(texts, again.iter().map(|l| l.text.as_str()).collect::<Vec<_>>());

        let stats = Stats::of(&templates, &lines);
        assert!((25..=40).contains(&stats.median_longest_run), "{stats}");
        assert!((0.2..0.35).contains(&stats.no_placeholder), "{stats}");
        assert!((0.04..0.1).contains(&stats.leading_placeholder), "{stats}");

        let dir = std::env::temp_dir().join(format!("xtask-multisystem-{}", std::process::id()));
        write_catalog(&dir, &templates).unwrap();
        let catalog = Catalog::load(&dir).unwrap();
        assert_eq!(catalog.len(), templates.len());
        let check = Check::run(&catalog, &templates, &lines);
        assert_eq!(check.unmatched, Vec::<usize>::new(), "{check}");
        assert_eq!(check.less_literal, Vec::<usize>::new(), "{check}");
        assert_eq!(check.disagreements, Vec::new(), "{check}");

        // Specific/general pairs: the most literal record wins.
        let id_of = |text: &str| templates.iter().find(|t| t.text == text).map(Template::id).expect(text);
        let mut rng = Rng::new(7);
        for (specific, general) in [
            ("Received block <*> of size <#> from <*>", "Received <*>"),
            ("Starting task <*> in stage <*> (TID <#>, <*>, partition <#>, PROCESS_LOCAL, <#> bytes)", "Starting <*>"),
            ("Assigned container <*> to <*>", "Assigned <*>"),
        ] {
            let general_id = id_of(general);
            let template = templates.iter().find(|t| t.text == specific).expect(specific);
            let line = format!("17/06/09 20:10:40 INFO x: {}", render(template, &mut rng));
            let all: Vec<&str> =
                catalog.find_all(&line).iter().map(|m| catalog.entries()[m.index].record().id.as_ref()).collect();
            assert!(all.contains(&general_id.as_str()), "{line}: the general record matches too");
            let found = catalog.find(&line).expect("a match");
            assert_eq!(catalog.entries()[found.index].record().id.as_ref(), id_of(specific), "{line}");
        }
        fs::remove_dir_all(&dir).unwrap();
    }
}
