//! The report page: one HTML file with its style sheet and script inline,
//! no external resource of any kind, and a Content-Security-Policy that lets
//! the browser run only that script and style (by their SHA-256 hashes).
//!
//! Every text from a log or a record goes through [`esc`]; a record's link
//! becomes a link only when it is an http(s) URL ([`link`]). The page is
//! complete without its script: the script only adds the filter controls.

use std::collections::BTreeMap;
use std::fmt::Write;

use super::chart;
use super::escape::esc;
use super::record::{RecordView, TemplatePart};
use super::timeline::Chart;
use super::timestamp::{Form, Stamp};
use super::{ErrorStats, Example, HtmlReport, Lane, Place, EXAMPLES, TOP_DRAFTS, TOP_VALUES, UNMATCHED_EXAMPLES};

const STYLE: &str = include_str!("report.css");
const SCRIPT: &str = include_str!("report.js");
/// The CSP sources that allow exactly [`SCRIPT`] and [`STYLE`] inline:
/// `'sha256-'` and the base64 of the text's SHA-256, checked by a test
/// (`cargo test -p errcat csp` says the new value when either file changes).
const SCRIPT_HASH: &str = "'sha256-asEVciVtmXlyRCxbAqV7lBfnKgSfrh0zppv+nlUcK/w='";
const STYLE_HASH: &str = "'sha256-vfwGz9ks6cdi+4ab0o7CKssWC7S+l5/hCNGEEYQwC2I='";
const MAX_BARS: usize = 60;

/// A link to `url` showing `text` when `url` is an http or https URL;
/// anything else (`javascript:`, `data:`, relative paths) is shown as text.
pub fn link(url: &str, text: &str) -> String {
    if is_web_url(url) {
        format!("<a href=\"{}\" rel=\"noopener noreferrer\">{}</a>", esc(url), esc(text))
    } else {
        format!(
            "{} <span class=\"muted\">(link not shown: <code class=\"not-a-link\">{}</code> is not an http(s) URL)</span>",
            esc(text),
            esc(url)
        )
    }
}

fn is_web_url(url: &str) -> bool {
    let lower = url.get(..8).unwrap_or(url).to_ascii_lowercase();
    (lower.starts_with("https://") || lower.starts_with("http://"))
        && !url.chars().any(|c| c.is_whitespace() || c.is_control())
}

fn grouped(number: u64) -> String {
    let digits = number.to_string();
    let mut out = String::new();
    for (i, digit) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(digit);
    }
    out
}

/// A duration in words: `55 min 54 s`, `2 h 5 min`, `3 days 4 h`, `850 ms`.
fn duration(micros: i64) -> String {
    let ms = micros / 1000;
    let s = ms / 1000;
    let (m, h, d) = (s / 60, s / 3600, s / 86_400);
    match () {
        _ if s < 1 => format!("{ms} ms"),
        _ if m < 1 => format!("{s} s"),
        _ if h < 1 => format!("{m} min {} s", s % 60),
        _ if d < 1 => format!("{h} h {} min", m % 60),
        _ => format!("{d} day{} {} h", if d == 1 { "" } else { "s" }, h % 24),
    }
}

fn plural(count: u64, one: &str, many: &str) -> String {
    format!("{} {}", grouped(count), if count == 1 { one } else { many })
}

/// How severe a record's severity (as the dataset writes it) is: 0 for the
/// most severe (see [`crate::severity::rank`]).
fn severity_rank(severity: &str) -> u8 {
    crate::severity::rank(&error_catalog::Severity::from_text(severity))
}

/// A CSS class for a severity (only known names: a record's severity is text).
fn severity_class(severity: &str) -> &'static str {
    match severity {
        "fatal" | "critical" => "sev-fatal",
        "error" => "sev-error",
        "warning" => "sev-warning",
        "info" => "sev-info",
        _ => "sev-other",
    }
}

fn card_id(record: &RecordView) -> String {
    let safe: String = record.id.chars().filter(char::is_ascii_alphanumeric).take(40).collect();
    format!("error-{safe}")
}

struct Page<'r> {
    report: &'r HtmlReport,
    records: &'r BTreeMap<usize, RecordView>,
    order: Vec<usize>,
    chart: Option<Chart<Lane>>,
    out: String,
}

pub fn render(report: &HtmlReport, records: &BTreeMap<usize, RecordView>) -> String {
    let mut order: Vec<usize> = report.errors.keys().copied().collect();
    order.sort_by_key(|index| {
        let record = &records[index];
        (severity_rank(&record.severity), std::cmp::Reverse(report.errors[index].count), record.name.clone())
    });
    let chart = report.timeline.chart(MAX_BARS);
    let mut page = Page { report, records, order, chart, out: String::with_capacity(64 << 10) };
    page.head();
    page.header();
    page.out.push_str("<main>");
    page.overview();
    page.timeline();
    page.controls();
    page.cards();
    page.unmatched();
    page.notes();
    page.out.push_str("</main>");
    let _ = writeln!(page.out, "<script>{SCRIPT}</script></body></html>");
    page.out
}

impl Page<'_> {
    fn head(&mut self) {
        let csp = format!(
            "default-src 'none'; script-src {}; style-src {}; img-src 'none'; base-uri 'none'; form-action 'none'",
            SCRIPT_HASH, STYLE_HASH
        );
        let inputs: Vec<&str> = self.report.inputs.iter().map(|input| input.label.as_str()).collect();
        let _ = write!(
            self.out,
            "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
             <meta http-equiv=\"Content-Security-Policy\" content=\"{csp}\">\
             <meta name=\"referrer\" content=\"no-referrer\">\
             <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
             <meta name=\"generator\" content=\"errcat {}\">\
             <title>errcat report: {}</title><style>{STYLE}</style></head><body>",
            env!("CARGO_PKG_VERSION"),
            esc(&inputs.join(", ")),
        );
    }

    fn header(&mut self) {
        let report = self.report;
        let distinct = report.errors.len() as u64;
        let occurrences: u64 = report.errors.values().map(|e| e.count).sum();
        let title = if distinct == 0 {
            "No known error found".to_owned()
        } else {
            format!("{} in {}", plural(distinct, "known error", "known errors"), plural(occurrences, "line", "lines"))
        };
        let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_micros());
        let generated = Stamp { micros: now as i64 }.display(false);
        // Errors (fatal and critical too) and warnings apart from the rest.
        let mut by_severity = [0u64; 3];
        for (index, stats) in &report.errors {
            let rank = severity_rank(&self.records[index].severity);
            by_severity[match rank {
                0..=1 => 0,
                2 => 1,
                _ => 2,
            }] += stats.count;
        }
        let severities = if distinct == 0 {
            String::new()
        } else {
            let [errors, warnings, rest] = by_severity;
            format!(
                "{}, {}, {} · ",
                plural(errors, "error line", "error lines"),
                plural(warnings, "warning line", "warning lines"),
                plural(rest, "info/debug line", "info/debug lines")
            )
        };
        let _ = write!(
            self.out,
            "<header class=\"top\"><div class=\"wrap\"><p class=\"brand\">errcat · scan report</p><h1>{}</h1>\
             <p class=\"sub\">{}{} · generated {} UTC by errcat {}</p></div></header>",
            esc(&title),
            esc(&severities),
            esc(&self.inputs_phrase()),
            esc(&generated[..19]),
            env!("CARGO_PKG_VERSION"),
        );
    }

    fn inputs_phrase(&self) -> String {
        match &self.report.inputs[..] {
            [] => "no input".to_owned(),
            [one] => one.label.clone(),
            [first, rest @ ..] => format!("{} and {} more", first.label, plural(rest.len() as u64, "input", "inputs")),
        }
    }

    fn overview(&mut self) {
        let report = self.report;
        let lines: u64 = report.inputs.iter().map(|i| i.lines).sum();
        let matched: u64 = report.inputs.iter().map(|i| i.matched).sum();
        let untimed: u64 = report.errors.values().map(|e| e.untimed).sum();
        let share = if lines == 0 { 0.0 } else { matched as f64 * 100.0 / lines as f64 };
        self.out.push_str("<section class=\"overview\" aria-label=\"Overview\"><div class=\"tiles\">");
        self.tile(
            "Lines read",
            &grouped(lines),
            &format!("in {}", plural(report.inputs.len() as u64, "input", "inputs")),
        );
        self.tile(
            "Lines matched",
            &grouped(matched),
            &format!(
                "{share:.2}% of lines · {}",
                plural(report.errors.len() as u64, "distinct error", "distinct errors")
            ),
        );
        match report.timeline.range() {
            Some((first, last)) => {
                let note = duration(last - first);
                let range = format!(
                    "{} → {}",
                    Stamp { micros: first }.display(false),
                    chart::time_label(Stamp { micros: last }, 1, !same_day(first, last))
                );
                self.tile("Time range of the matches", &note, &range);
            }
            None => self.tile("Time range", "unknown", "no matched line has a timestamp"),
        }
        if untimed > 0 {
            let _ = write!(
                self.out,
                "<p class=\"note untimed\">{} without a timestamp: counted, not on the timeline.</p>",
                plural(untimed, "matched line", "matched lines")
            );
        }
        self.out.push_str("</div>");
        // Errors by severity.
        let mut by_severity: BTreeMap<(u8, &str), (u64, u64)> = BTreeMap::new();
        for (index, stats) in &report.errors {
            let severity = self.records[index].severity.as_str();
            let entry = by_severity.entry((severity_rank(severity), severity)).or_default();
            entry.0 += 1;
            entry.1 += stats.count;
        }
        self.out.push_str("<div class=\"severities\"><h2>By severity</h2><ul>");
        if by_severity.is_empty() {
            self.out.push_str("<li class=\"muted\">none</li>");
        }
        for ((_, severity), (errors, count)) in &by_severity {
            let _ = write!(
                self.out,
                "<li><span class=\"badge {}\">{}</span> {} · {}</li>",
                severity_class(severity),
                esc(severity),
                plural(*errors, "error", "errors"),
                plural(*count, "line", "lines"),
            );
        }
        self.out.push_str("</ul></div>");
        self.out.push_str(
            "<div class=\"inputs\"><h2>Inputs</h2><table><thead><tr><th>input</th><th class=\"num\">lines</th>\
             <th class=\"num\">matched</th><th>note</th></tr></thead><tbody>",
        );
        for input in &report.inputs {
            let _ = write!(
                self.out,
                "<tr><td><code>{}</code></td><td class=\"num\">{}</td><td class=\"num\">{}</td><td>{}</td></tr>",
                esc(&input.label),
                grouped(input.lines),
                grouped(input.matched),
                input.problem.as_deref().map(esc).unwrap_or_default(),
            );
        }
        self.out.push_str("</tbody></table></div></section>");
    }

    fn tile(&mut self, title: &str, value: &str, note: &str) {
        let _ = write!(
            self.out,
            "<div class=\"tile\"><div class=\"tile-title\">{}</div><div class=\"tile-value\">{}</div>\
             <div class=\"tile-note\">{}</div></div>",
            esc(title),
            esc(value),
            esc(note)
        );
    }

    fn timeline(&mut self) {
        let report = self.report;
        self.out.push_str("<section class=\"timeline\" id=\"timeline\"><h2>Timeline</h2>");
        let Some(chart) = &self.chart else {
            let _ = write!(
                self.out,
                "<p class=\"note\">No matched line has a timestamp errcat recognises (nats-server \
                 <code>YYYY/MM/DD HH:MM:SS</code>, RFC 3339 / ISO 8601, syslog <code>Mon DD HH:MM:SS</code>): \
                 {} not on a timeline.</p></section>",
                plural(
                    report.errors.values().map(|e| e.untimed).sum::<u64>() + report.unmatched.untimed,
                    "line",
                    "lines"
                )
            );
            return;
        };
        let _ = write!(
            self.out,
            "<p class=\"note\">Lines per {} bar; each row is scaled to its own peak.</p><div class=\"lanes\">",
            esc(chart.width.1)
        );
        let mut rows: Vec<(Lane, String, &str, String)> = self
            .order
            .iter()
            .map(|index| {
                let record = &self.records[index];
                let anchor = format!("#{}", card_id(record));
                (Lane::Error(*index), record.name.clone(), record.severity.as_str(), anchor)
            })
            .collect();
        if report.unmatched.count > 0 {
            rows.push((Lane::Unmatched, "unmatched lines".to_owned(), "unmatched", "#unmatched".to_owned()));
        }
        for (lane, name, severity, anchor) in rows {
            let counts = chart.lanes.get(&lane).cloned().unwrap_or_else(|| vec![0; chart.bars]);
            let max = counts.iter().copied().max().unwrap_or(0);
            let total = match lane {
                Lane::Error(index) => report.errors[&index].count,
                Lane::Unmatched => report.unmatched.count,
            };
            let class = if lane == Lane::Unmatched { "sev-unmatched" } else { severity_class(severity) };
            let _ = write!(
                self.out,
                "<div class=\"lane\" data-name=\"{}\" data-severity=\"{}\"><a class=\"lane-name\" href=\"{}\">{}</a>{}\
                 <span class=\"lane-count\">{}</span></div>",
                esc(&name),
                esc(severity),
                esc(&anchor),
                esc(&name),
                chart::bars(chart, &counts, max, class, &format!("{name}: occurrences over time")),
                grouped(total),
            );
        }
        let _ = write!(
            self.out,
            "<div class=\"lane lane-axis\"><span></span>{}<span></span></div></div>",
            chart::axis(chart)
        );
        let untimed: u64 = report.errors.values().map(|e| e.untimed).sum::<u64>() + report.unmatched.untimed;
        if untimed > 0 {
            let _ = write!(
                self.out,
                "<p class=\"note\">{} had no recognisable timestamp and are counted but not charted.</p>",
                plural(untimed, "matched line", "matched lines")
            );
        }
        self.out.push_str("</section>");
    }

    /// The filter controls: hidden until the script shows them, so a page
    /// without scripts shows everything and no control that does nothing.
    fn controls(&mut self) {
        let mut severities: Vec<&str> = self.order.iter().map(|i| self.records[i].severity.as_str()).collect();
        let mut seen = std::collections::BTreeSet::new();
        severities.retain(|s| seen.insert(*s));
        self.out.push_str(
            "<nav class=\"controls\" id=\"controls\" hidden aria-label=\"Filter\">\
             <input type=\"search\" id=\"search\" placeholder=\"Search errors by name…\" aria-label=\"Search errors by name\">",
        );
        for severity in severities {
            let _ = write!(
                self.out,
                "<label class=\"chip {}\"><input type=\"checkbox\" value=\"{}\" checked> {}</label>",
                severity_class(severity),
                esc(severity),
                esc(severity)
            );
        }
        self.out.push_str("<span id=\"shown\" class=\"muted\"></span></nav>");
    }

    fn cards(&mut self) {
        self.out.push_str("<section class=\"errors\" id=\"errors\"><h2>Errors found</h2>");
        if self.order.is_empty() {
            self.out.push_str("<p class=\"note\">No line matched a record of the catalog.</p>");
        }
        for index in self.order.clone() {
            self.card(index);
        }
        self.out.push_str("</section>");
    }

    fn place(&self, place: &Place) -> String {
        let input = self.report.inputs.get(place.input).map_or("?", |i| i.label.as_str());
        let mut text = format!("<code>{}:{}</code>", esc(input), place.line);
        match place.time {
            Some(time) => {
                let _ = write!(text, " <time>{}</time>", esc(&time.display(false)));
            }
            None => text.push_str(" <span class=\"muted\">(no timestamp)</span>"),
        }
        text
    }

    fn card(&mut self, index: usize) {
        let record = &self.records[&index];
        let stats = &self.report.errors[&index];
        let class = severity_class(&record.severity);
        let _ = write!(
            self.out,
            "<article class=\"card {class}\" id=\"{}\" data-name=\"{}\" data-severity=\"{}\">\
             <header class=\"card-head\"><span class=\"badge {class}\">{}</span><h3>{}</h3>\
             <div class=\"count\"><b>{}</b> {}</div></header>",
            card_id(record),
            esc(&record.name),
            esc(&record.severity),
            esc(&record.severity),
            esc(&record.name),
            grouped(stats.count),
            if stats.count == 1 { "line" } else { "lines" },
        );
        // The message template, placeholders named.
        self.out.push_str("<p class=\"template\"><code>");
        for part in &record.template {
            match part {
                TemplatePart::Literal(text) => self.out.push_str(&esc(text)),
                TemplatePart::Field(name) => {
                    let _ = write!(self.out, "<span class=\"ph\">{{{}}}</span>", esc(name));
                }
            }
        }
        self.out.push_str("</code></p><div class=\"card-body\"><div class=\"seen\">");
        let untimed = if stats.untimed > 0 {
            format!("<dt>No timestamp</dt><dd>{}</dd>", plural(stats.untimed, "line", "lines"))
        } else {
            String::new()
        };
        let _ = write!(
            self.out,
            "<dl class=\"facts\"><dt>First</dt><dd>{}</dd><dt>Last</dt><dd>{}</dd>{untimed}\
             <dt>Record</dt><dd><code>errcat show {}</code></dd></dl>",
            self.place(&stats.first),
            self.place(&stats.last),
            esc(&record.id),
        );
        if let Some(chart) = &self.chart {
            let counts = chart.lanes.get(&Lane::Error(index)).cloned().unwrap_or_else(|| vec![0; chart.bars]);
            let max = counts.iter().copied().max().unwrap_or(0);
            let _ = write!(
                self.out,
                "<figure class=\"card-chart\"><figcaption>Per {}: peak {}</figcaption>{}{}</figure>",
                esc(chart.width.1),
                plural(max, "line", "lines"),
                chart::bars(chart, &counts, max, class, &format!("{}: occurrences over time", record.name)),
                chart::axis(chart),
            );
        }
        self.examples(record, stats);
        self.values(record, stats);
        self.out.push_str("</div><div class=\"guide\">");
        self.guidance(record);
        self.out.push_str("</div></div></article>");
    }

    fn examples(&mut self, record: &RecordView, stats: &ErrorStats) {
        let _ = write!(
            self.out,
            "<h4>Example lines <span class=\"muted\">(first {EXAMPLES})</span></h4><ol class=\"examples\">"
        );
        for example in &stats.examples {
            let _ = write!(
                self.out,
                "<li><div class=\"where\">{}</div><code class=\"line\">{}</code>",
                self.place(&example.place),
                highlighted(example, record),
            );
            // The trace of a multi-line event, as text.
            if let Some(context) = &example.context {
                let _ = write!(self.out, "<code class=\"line context\" title=\"trace\">{}</code>", esc(context));
            }
            self.out.push_str("</li>");
        }
        self.out.push_str("</ol>");
    }

    fn values(&mut self, record: &RecordView, stats: &ErrorStats) {
        if stats.values.is_empty() {
            return;
        }
        let _ = write!(
            self.out,
            "<h4>Most frequent values <span class=\"muted\">(top {TOP_VALUES})</span></h4><div class=\"fields\">"
        );
        for (field, counts) in stats.values.iter().enumerate() {
            let name = record.field_names.get(field).map_or("?", String::as_str);
            let _ = write!(
                self.out,
                "<table class=\"values\"><caption><span class=\"ph\">{{{}}}</span> {}</caption><tbody>",
                esc(name),
                plural(counts.distinct() as u64, "distinct value", "distinct values"),
            );
            for (value, count) in counts.top(TOP_VALUES) {
                let share = count as f64 / stats.count.max(1) as f64;
                let _ = write!(
                    self.out,
                    "<tr><td class=\"value\"><code>{}</code></td><td class=\"num\">{}</td>\
                     <td class=\"share\"><svg viewBox=\"0 0 100 8\" preserveAspectRatio=\"none\" aria-hidden=\"true\">\
                     <rect class=\"track\" width=\"100\" height=\"8\"/><rect class=\"fill\" width=\"{:.1}\" height=\"8\"/></svg></td></tr>",
                    if value.is_empty() { "<span class=\"muted\">(empty)</span>".to_owned() } else { esc(value) },
                    grouped(count),
                    share * 100.0,
                );
            }
            if counts.untracked > 0 {
                let _ = write!(
                    self.out,
                    "<tr><td colspan=\"3\" class=\"muted\">{} of values first seen after {} distinct ones not itemised</td></tr>",
                    plural(counts.untracked, "occurrence", "occurrences"),
                    grouped(counts.distinct() as u64)
                );
            }
            self.out.push_str("</tbody></table>");
        }
        self.out.push_str("</div>");
    }

    fn guidance(&mut self, record: &RecordView) {
        if !record.documentation.trim().is_empty() {
            let _ = write!(self.out, "<h4>What it means</h4><p>{}</p>", esc(&record.documentation));
        }
        for (title, text) in &record.causes {
            let _ = write!(self.out, "<h4>{}</h4><p>{}</p>", esc(title), esc(text));
        }
        for (title, items, class) in
            [("How to fix", &record.solutions, "fixes"), ("Prevention", &record.prevention, "prevention")]
        {
            if items.is_empty() {
                continue;
            }
            let _ = write!(self.out, "<h4>{title}</h4><ul class=\"{class}\">");
            for item in items {
                let _ = write!(self.out, "<li>{}</li>", esc(item));
            }
            self.out.push_str("</ul>");
        }
        if !record.source_file.is_empty() || record.source_url.is_some() {
            let source = match &record.source_url {
                Some(url) => link(url, &record.source_file),
                None => esc(&record.source_file),
            };
            let _ = write!(self.out, "<p class=\"source\"><span class=\"muted\">Source</span> {source}</p>");
        }
    }

    fn unmatched(&mut self) {
        let report = self.report;
        if report.unmatched_levels.is_empty() {
            return;
        }
        let unmatched = &report.unmatched;
        let levels = report.unmatched_levels.join("/");
        let _ = write!(
            self.out,
            "<section class=\"card sev-unmatched unmatched\" id=\"unmatched\"><header class=\"card-head\">\
             <span class=\"badge sev-unmatched\">unmatched</span><h3>{} lines no record explains</h3>\
             <div class=\"count\"><b>{}</b> {}</div></header>",
            esc(&levels),
            grouped(unmatched.count),
            if unmatched.count == 1 { "line" } else { "lines" },
        );
        if !unmatched.by_level.is_empty() {
            self.out.push_str("<p>");
            for (level, count) in &unmatched.by_level {
                let _ =
                    write!(self.out, "<span class=\"pill\"><code>{}</code> {}</span> ", esc(level), grouped(*count));
            }
            self.out.push_str("</p>");
        }
        self.draft_groups();
        let _ = write!(
            self.out,
            "<h4>Example lines <span class=\"muted\">(first {UNMATCHED_EXAMPLES})</span></h4><ol class=\"examples\">"
        );
        for example in &unmatched.examples {
            let _ = write!(
                self.out,
                "<li><div class=\"where\">{}</div><code class=\"line\">{}</code></li>",
                self.place(&example.place),
                esc(&example.text)
            );
        }
        self.out.push_str("</ol></section>");
    }

    /// The largest groups of unmatched lines, with their draft templates.
    fn draft_groups(&mut self) {
        let drafts = self.report.drafts.drafts(error_catalog::Dialect::Go);
        if drafts.is_empty() {
            return;
        }
        let _ = write!(
            self.out,
            "<h4>Largest groups <span class=\"muted\">({} of {}; <code>errcat draft --out DIR</code> writes them as \
             draft records)</span></h4><table class=\"drafts\"><thead><tr><th>lines</th><th>draft template</th>\
             <th>draft id</th><th>first</th></tr></thead><tbody>",
            drafts.len().min(TOP_DRAFTS),
            grouped(drafts.len() as u64),
        );
        for draft in drafts.iter().take(TOP_DRAFTS) {
            let _ = write!(
                self.out,
                "<tr><td class=\"num\">{}</td><td><code class=\"template\">{}</code></td><td><code>{}</code></td>\
                 <td>{}:{}</td></tr>",
                grouped(draft.count),
                esc(&draft.error_message),
                esc(&draft.id),
                esc(&draft.first.0),
                draft.first.1,
            );
        }
        self.out.push_str("</tbody></table>");
    }

    fn notes(&mut self) {
        let report = self.report;
        let mut notes = vec![format!(
            "Bounded report: the first {EXAMPLES} example lines of each error, its {TOP_VALUES} most frequent values per \
             field (counted exactly for the first {} distinct values), example lines cut at {} bytes.",
            grouped(super::values::TRACKED as u64),
            grouped(super::MAX_EXAMPLE_LEN as u64),
        )];
        if report.forms.iter().any(|form| *form != Form::IsoWithOffset) {
            notes.push("Times without a UTC offset are shown as written in the log.".to_owned());
        }
        if report.forms.contains(&Form::IsoWithOffset) {
            notes.push("Times written with a UTC offset are shown in UTC.".to_owned());
        }
        if report.forms.contains(&Form::Syslog) {
            notes.push(format!("Syslog times have no year; {} was assumed.", report.syslog_year));
        }
        self.out.push_str("<footer class=\"notes\"><ul>");
        for note in notes {
            let _ = write!(self.out, "<li>{}</li>", esc(&note));
        }
        self.out.push_str("</ul></footer>");
    }
}

fn same_day(first: i64, last: i64) -> bool {
    const DAY: i64 = 86_400_000_000;
    first.div_euclid(DAY) == last.div_euclid(DAY)
}

/// An example line, escaped, with each field's value in a `<mark>` naming
/// the field (where the scan placed it in the line).
fn highlighted(example: &Example, record: &RecordView) -> String {
    let text = &example.text;
    let mut values: Vec<(usize, &std::ops::Range<usize>)> =
        example.fields.iter().enumerate().filter_map(|(field, span)| Some((field, span.as_ref()?))).collect();
    values.sort_by_key(|(_, span)| (span.start, span.end));
    let mut out = String::new();
    let mut at = 0;
    for (field, span) in values {
        if span.start < at || span.is_empty() {
            continue;
        }
        let name = record.field_names.get(field).map_or("?", String::as_str);
        let _ = write!(
            out,
            "{}<mark title=\"{}\">{}</mark>",
            esc(&text[at..span.start]),
            esc(name),
            esc(&text[span.clone()])
        );
        at = span.end;
    }
    out.push_str(&esc(&text[at..]));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_web_urls_become_links() {
        assert!(link("https://github.com/x", "f.go:1").starts_with("<a href=\"https://github.com/x\""));
        assert!(link("HTTP://example.invalid/a?b=1&c=2", "t").contains("href=\"HTTP://example.invalid/a?b=1&amp;c=2\""));
        for url in
            ["javascript:alert(1)", " javascript:alert(1)", "data:text/html,x", "//evil", "https://a b", "http:x"]
        {
            let html = link(url, "f.go");
            assert!(!html.contains("<a "), "{url}: {html}");
            assert!(html.contains("not an http(s) URL"), "{url}");
        }
    }

    #[test]
    fn csp_hashes_are_those_of_the_inline_script_and_style() {
        use base64::Engine;
        use sha2::{Digest, Sha256};
        let csp_hash = |text: &str| {
            format!("'sha256-{}'", base64::engine::general_purpose::STANDARD.encode(Sha256::digest(text.as_bytes())))
        };
        // printf 'abc' | openssl dgst -sha256 -binary | base64
        assert_eq!(csp_hash("abc"), "'sha256-ungWv48Bz+pBQUDeXa4iI7ADYaOWF3qctBD/YfIAFa0='");
        assert_eq!(SCRIPT_HASH, csp_hash(SCRIPT), "report.js changed: set SCRIPT_HASH to this");
        assert_eq!(STYLE_HASH, csp_hash(STYLE), "report.css changed: set STYLE_HASH to this");
    }

    #[test]
    fn numbers_and_durations_read_well() {
        assert_eq!(grouped(0), "0");
        assert_eq!(grouped(1234567), "1,234,567");
        assert_eq!(grouped(100), "100");
        assert_eq!(duration(850_000), "850 ms");
        assert_eq!(duration(3_354_000_000), "55 min 54 s");
        assert_eq!(duration(7_500_000_000), "2 h 5 min");
        assert_eq!(duration(3 * 86_400_000_000 + 4 * 3_600_000_000), "3 days 4 h");
    }
}
