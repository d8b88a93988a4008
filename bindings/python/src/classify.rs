//! `Catalog.classify`'s engine, free of Python: a column of lines (arrow's
//! layout: one data buffer, offsets, an optional validity bitmap) classified
//! on every core, then assembled into arrow buffers for the result.
//!
//! The rows are cut into chunks of about a MiB, and each chunk's lines are
//! classified by the runtime's chunk classifier
//! ([`ChunkClassifier`](error_catalog::ChunkClassifier)), the one `errcat
//! scan` runs on the chunks of a file: the same envelopes, the same
//! multi-line events (a trace's lines give no row of their own; the row of
//! the event's message carries them as `context`), the same spans. An
//! element that holds several lines gets the match of the first of them
//! that has one (its spans counted from the element's start); a null gives
//! nothing; an element longer than [`MAX_LINE`] is skipped, as `errcat`
//! skips such a line. Events are grouped within a chunk, as `errcat` groups
//! them within its chunks. The pieces of a long Docker or CRI line may be
//! in any rows: when a chunk in such an envelope is read line by line, the
//! whole column is classified as one chunk.

use std::ops::Range;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use error_catalog::{Catalog, ChunkClassifier, ChunkPath, Envelope, Found, ScanEvent, ScanOptions, MAX_LINE};

/// About this many bytes of lines per unit of work.
const CHUNK_BYTES: usize = 1 << 20;

/// Offsets of a column's elements: element `i` is `data[at(i)..at(i + 1)]`.
pub enum Offsets<'a> {
    I32(&'a [i32]),
    I64(&'a [i64]),
    Owned(Vec<usize>),
}

impl Offsets<'_> {
    fn at(&self, i: usize) -> usize {
        // Checked non-negative by `Column::new`.
        match self {
            Offsets::I32(offsets) => offsets[i] as usize,
            Offsets::I64(offsets) => offsets[i] as usize,
            Offsets::Owned(offsets) => offsets[i],
        }
    }

    fn len(&self) -> usize {
        match self {
            Offsets::I32(offsets) => offsets.len(),
            Offsets::I64(offsets) => offsets.len(),
            Offsets::Owned(offsets) => offsets.len(),
        }
    }
}

/// A column of lines in arrow's layout.
pub struct Column<'a> {
    data: &'a [u8],
    offsets: Offsets<'a>,
    /// The validity bitmap and the bit of element 0.
    validity: Option<(&'a [u8], usize)>,
    len: usize,
}

impl<'a> Column<'a> {
    /// A column of `offsets.len() - 1` elements, checked: offsets
    /// non-negative, non-decreasing and within `data`, the bitmap long
    /// enough. Hostile buffers are an error, never a crash.
    pub fn new(data: &'a [u8], offsets: Offsets<'a>, validity: Option<(&'a [u8], usize)>) -> Result<Self, String> {
        let Some(len) = offsets.len().checked_sub(1) else {
            return Err("an arrow array's offsets buffer is empty".into());
        };
        let signed_ok = match &offsets {
            Offsets::I32(o) => o.iter().all(|&x| x >= 0),
            Offsets::I64(o) => o.iter().all(|&x| x >= 0 && usize::try_from(x).is_ok()),
            Offsets::Owned(_) => true,
        };
        if !signed_ok {
            return Err("an arrow array has a negative offset".into());
        }
        let mut previous = offsets.at(0);
        for i in 1..=len {
            let next = offsets.at(i);
            if next < previous {
                return Err(format!("an arrow array's offsets decrease at element {}", i - 1));
            }
            previous = next;
        }
        if previous > data.len() {
            return Err("an arrow array's offsets point past its data".into());
        }
        if let Some((bits, first)) = validity {
            if (first + len).div_ceil(8) > bits.len() {
                return Err("an arrow array's validity bitmap is too short".into());
            }
        }
        Ok(Column { data, offsets, validity, len })
    }

    pub fn len(&self) -> usize {
        self.len
    }

    /// Element `i`, `None` when null.
    pub fn get(&self, i: usize) -> Option<&'a [u8]> {
        if let Some((bits, first)) = self.validity {
            let bit = first + i;
            if bits[bit / 8] & (1 << (bit % 8)) == 0 {
                return None;
            }
        }
        Some(&self.data[self.offsets.at(i)..self.offsets.at(i + 1)])
    }

    fn bytes(&self, rows: Range<usize>) -> usize {
        self.offsets.at(rows.end) - self.offsets.at(rows.start)
    }
}

/// A matched element.
pub struct Hit {
    pub row: usize,
    /// The entry.
    pub index: usize,
    /// Byte span in the element (as `errcat scan --json`'s `span`).
    pub span: Range<usize>,
    /// The fields, args, field spans and message span as JSON, in the
    /// chunk's `json` buffer.
    pub json: [Range<usize>; 4],
    /// The envelope the message was taken out of (`none`).
    pub envelope: &'static str,
    /// The trace that came with the line.
    pub context: Option<String>,
}

/// What one chunk gave.
#[derive(Default)]
pub struct ChunkResult {
    pub hits: Vec<Hit>,
    pub json: Vec<u8>,
    /// Rows over [`MAX_LINE`], skipped.
    pub too_long: Vec<usize>,
    /// Rows with invalid UTF-8 (classified with replacement characters).
    pub invalid_utf8: Vec<usize>,
}

impl ChunkResult {
    /// Adds the match of `row` (spans in its line that starts `start`
    /// bytes into the element) as `errcat scan --json` writes it.
    fn push(&mut self, catalog: &Catalog, row: usize, start: usize, found: Found) {
        let shift = |range: &Range<usize>| start + range.start..start + range.end;
        let mut details = found.details.expect("classify wants details");
        details.message_span = shift(&details.message_span);
        for span in details.field_spans.iter_mut().flatten().flatten() {
            *span = shift(span);
        }
        let span = shift(&found.found.span);
        let found = error_catalog::Match { span: span.clone(), ..found.found };
        let object = error_catalog::match_object(catalog, &found, Some(&details));
        let message_span = object.get("message_span").cloned().unwrap_or(serde_json::Value::Null);
        let json = ["fields", "args", "field_spans"].map(|key| object.get(key)).map(|value| {
            let start = self.json.len();
            // Writing a JSON value into memory cannot fail.
            let _ = serde_json::to_writer(&mut self.json, value.unwrap_or(&serde_json::Value::Null));
            start..self.json.len()
        });
        let start = self.json.len();
        let _ = serde_json::to_writer(&mut self.json, &message_span);
        let [fields, args, field_spans] = json;
        let json = [fields, args, field_spans, start..self.json.len()];
        self.hits.push(Hit {
            row,
            index: found.index,
            span,
            json,
            envelope: details.envelope.name(),
            context: details.context,
        });
    }
}

/// Classifies `rows` of `column` (see the module's docs); the path the
/// classifier took.
fn classify_rows(
    classifier: &ChunkClassifier<'_>,
    catalog: &Catalog,
    column: &Column<'_>,
    rows: Range<usize>,
) -> (ChunkResult, ChunkPath) {
    let mut result = ChunkResult::default();
    let mut buffer = Vec::with_capacity(column.bytes(rows.clone()) + rows.len());
    // For each line of `buffer`: its row, and where it starts in the row's element.
    let mut lines: Vec<(usize, usize)> = Vec::with_capacity(rows.len());
    for row in rows {
        let Some(element) = column.get(row) else { continue };
        let element = element.strip_suffix(b"\n").unwrap_or(element);
        if element.len() > MAX_LINE {
            result.too_long.push(row);
            continue;
        }
        lines.push((row, 0));
        lines.extend(memchr::memchr_iter(b'\n', element).map(|at| (row, at + 1)));
        buffer.extend_from_slice(element);
        buffer.push(b'\n');
    }
    let classified = classifier.classify(&buffer, 0);
    for event in classified.events {
        match event {
            ScanEvent::Found(found) => {
                let (row, start) = lines[found.line as usize];
                // The first line of an element that matches gives its match.
                if result.hits.last().is_none_or(|hit| hit.row != row) {
                    result.push(catalog, row, start, found);
                }
            }
            ScanEvent::InvalidUtf8 { line } => {
                let (row, _) = lines[line as usize];
                if result.invalid_utf8.last() != Some(&row) {
                    result.invalid_utf8.push(row);
                }
            }
            _ => {}
        }
    }
    (result, classified.path)
}

/// The envelope of `column`'s lines: `auto` chooses it from the first of them.
pub fn envelope_of(name: &str, column: &Column<'_>) -> Result<Envelope, String> {
    if name.eq_ignore_ascii_case("auto") {
        let first: Vec<String> = (0..column.len().min(16))
            .filter_map(|row| column.get(row))
            .map(|line| String::from_utf8_lossy(line).into_owned())
            .collect();
        return Ok(Envelope::detect(first.iter().map(String::as_str)));
    }
    Envelope::from_name(name)
        .ok_or_else(|| format!("unknown envelope {name:?}; one of auto, {}", error_catalog::ENVELOPE_NAMES))
}

/// Row ranges of about [`CHUNK_BYTES`] each.
fn chunks(column: &Column<'_>) -> Vec<Range<usize>> {
    let mut chunks = Vec::new();
    let mut start = 0;
    while start < column.len() {
        let mut end = start + 1;
        // Grow by steps, to look at few offsets.
        let mut step = 1024;
        while end < column.len() && column.bytes(start..end) < CHUNK_BYTES {
            end = (end + step).min(column.len());
            step = step.min(1 << 16) * 2;
        }
        chunks.push(start..end);
        start = end;
    }
    chunks
}

/// Classifies every element of `column` on `threads` threads; the chunks'
/// results in row order.
pub fn classify(catalog: &Catalog, column: &Column<'_>, threads: usize, envelope: &Envelope) -> Vec<ChunkResult> {
    let options = ScanOptions { envelope: envelope.clone(), unmatched: None, line_text: false, details: true };
    let classifier = ChunkClassifier::new(catalog, options);
    let chunks = chunks(column);
    let results: Vec<Mutex<Option<(ChunkResult, ChunkPath)>>> = chunks.iter().map(|_| Mutex::new(None)).collect();
    let next = AtomicUsize::new(0);
    let work = || loop {
        let i = next.fetch_add(1, Ordering::Relaxed);
        let Some(rows) = chunks.get(i) else { break };
        let result = classify_rows(&classifier, catalog, column, rows.clone());
        *results[i].lock().unwrap_or_else(|e| e.into_inner()) = Some(result);
    };
    let threads = threads.clamp(1, chunks.len().max(1));
    if threads == 1 {
        work();
    } else {
        std::thread::scope(|scope| {
            for _ in 0..threads {
                scope.spawn(work);
            }
        });
    }
    let results: Vec<(ChunkResult, ChunkPath)> =
        results.into_iter().filter_map(|r| r.into_inner().unwrap_or_else(|e| e.into_inner())).collect();
    if envelope.has_pieces() && chunks.len() > 1 && results.iter().any(|(_, path)| *path == ChunkPath::LineByLine) {
        // A chunk may hold a line's piece, whose other pieces may be in any
        // rows: the column as one chunk.
        return vec![classify_rows(&classifier, catalog, column, 0..column.len()).0];
    }
    results.into_iter().map(|(result, _)| result).collect()
}

/// An arrow string column being built.
#[derive(Default)]
pub struct Strings {
    pub offsets: Vec<i64>,
    pub data: Vec<u8>,
}

impl Strings {
    fn with_rows(rows: usize) -> Self {
        let mut offsets = Vec::with_capacity(rows + 1);
        offsets.push(0);
        Strings { offsets, data: Vec::new() }
    }

    fn push(&mut self, text: &[u8]) {
        self.data.extend_from_slice(text);
        self.offsets.push(self.data.len() as i64);
    }

    /// Whether 32-bit offsets (arrow's `string`) can hold it.
    pub fn fits_i32(&self) -> bool {
        self.data.len() <= i32::MAX as usize
    }
}

/// The result columns, in arrow's layout.
pub struct Assembled {
    pub len: usize,
    /// Set bit: the row matched.
    pub validity: Vec<u8>,
    pub null_count: usize,
    pub id: Strings,
    pub slug: Strings,
    pub name: Strings,
    pub severity: Strings,
    /// Two per row (0, 0 for rows without a match).
    pub span: Vec<i64>,
    /// JSON texts, as `errcat scan --json` writes them.
    pub fields: Strings,
    pub args: Strings,
    pub field_spans: Strings,
    pub message_span: Strings,
    pub envelope: Strings,
    /// The trace of the event: null (an unset bit) when there is none.
    pub context: Strings,
    pub context_validity: Vec<u8>,
    pub context_nulls: usize,
    pub too_long: Vec<usize>,
    pub invalid_utf8: Vec<usize>,
}

/// Lays the chunks' results out as arrow columns of `len` rows.
pub fn assemble(catalog: &Catalog, len: usize, results: Vec<ChunkResult>) -> Assembled {
    let mut out = Assembled {
        len,
        validity: vec![0; len.div_ceil(8)],
        null_count: len,
        id: Strings::with_rows(len),
        slug: Strings::with_rows(len),
        name: Strings::with_rows(len),
        severity: Strings::with_rows(len),
        span: Vec::with_capacity(len * 2),
        fields: Strings::with_rows(len),
        args: Strings::with_rows(len),
        field_spans: Strings::with_rows(len),
        message_span: Strings::with_rows(len),
        envelope: Strings::with_rows(len),
        context: Strings::with_rows(len),
        context_validity: vec![0; len.div_ceil(8)],
        context_nulls: len,
        too_long: Vec::new(),
        invalid_utf8: Vec::new(),
    };
    let severities: Vec<String> =
        catalog.entries().iter().map(|entry| entry.record().severity_or_default().as_str().to_owned()).collect();
    let mut row = 0;
    let empty_until = |out: &mut Assembled, until: usize, row: &mut usize| {
        while *row < until {
            for column in [
                &mut out.id,
                &mut out.slug,
                &mut out.name,
                &mut out.severity,
                &mut out.fields,
                &mut out.args,
                &mut out.field_spans,
                &mut out.message_span,
                &mut out.envelope,
                &mut out.context,
            ] {
                column.push(b"");
            }
            out.span.extend([0, 0]);
            *row += 1;
        }
    };
    for result in results {
        for hit in &result.hits {
            empty_until(&mut out, hit.row, &mut row);
            let entry = &catalog.entries()[hit.index];
            out.id.push(entry.record().id.as_bytes());
            out.slug.push(entry.record().slug.as_bytes());
            out.name.push(entry.name.as_bytes());
            out.severity.push(severities[hit.index].as_bytes());
            let [fields, args, field_spans, message_span] = &hit.json;
            out.fields.push(&result.json[fields.clone()]);
            out.args.push(&result.json[args.clone()]);
            out.field_spans.push(&result.json[field_spans.clone()]);
            out.message_span.push(&result.json[message_span.clone()]);
            out.envelope.push(hit.envelope.as_bytes());
            out.context.push(hit.context.as_deref().unwrap_or_default().as_bytes());
            if hit.context.is_some() {
                out.context_validity[row / 8] |= 1 << (row % 8);
                out.context_nulls -= 1;
            }
            out.span.extend([hit.span.start as i64, hit.span.end as i64]);
            out.validity[row / 8] |= 1 << (row % 8);
            out.null_count -= 1;
            row += 1;
        }
        out.too_long.extend(result.too_long);
        out.invalid_utf8.extend(result.invalid_utf8);
    }
    empty_until(&mut out, len, &mut row);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn catalog() -> Catalog {
        Catalog::from_entries(error_catalog::nats_server::NatsServerError::entries().to_vec())
    }

    fn owned(lines: &[&[u8]]) -> (Vec<u8>, Vec<usize>) {
        let mut data = Vec::new();
        let mut offsets = vec![0];
        for line in lines {
            data.extend_from_slice(line);
            offsets.push(data.len());
        }
        (data, offsets)
    }

    #[test]
    fn hostile_offsets_are_errors() {
        let data = b"abc";
        assert!(Column::new(data, Offsets::I32(&[0, 2, 1]), None).is_err());
        assert!(Column::new(data, Offsets::I32(&[0, 4]), None).is_err());
        assert!(Column::new(data, Offsets::I32(&[-1, 2]), None).is_err());
        assert!(Column::new(data, Offsets::I64(&[]), None).is_err());
        assert!(Column::new(data, Offsets::I32(&[0; 10]), Some((&[0xff], 0))).is_err());
        assert!(Column::new(data, Offsets::I32(&[0, 1, 3]), Some((&[0b10], 0))).is_ok());
    }

    #[test]
    fn each_row_is_classified_as_find_classifies_it() {
        let catalog = catalog();
        let good = br#"[1] 2026/11/29 17:20:00.123456 [ERR] unable to persist session "s1" (seq=3): nats: timeout"#;
        let mut invalid = good.to_vec();
        invalid.splice(0..0, [0xff, 0xfe]);
        let two_lines = [&good[..], b"\nnoise"].concat();
        let crlf = [&good[..], b"\r\n"].concat();
        let lines: Vec<&[u8]> = vec![b"noise", good, &invalid, &two_lines, b"", &crlf];
        let (data, offsets) = owned(&lines);
        let column = Column::new(&data, Offsets::Owned(offsets), None).unwrap();
        for threads in [1, 3] {
            let out = assemble(&catalog, lines.len(), classify(&catalog, &column, threads, &Envelope::None));
            let rows: Vec<usize> = (0..lines.len()).filter(|&i| out.validity[i / 8] & (1 << (i % 8)) != 0).collect();
            assert_eq!(rows, [1, 2, 3, 5]);
            assert_eq!(out.invalid_utf8, [2]);
            let found = catalog.find(std::str::from_utf8(good).unwrap()).unwrap();
            assert_eq!(&out.span[2..4], [found.span.start as i64, found.span.end as i64]);
            // The span of the invalid line is in its original bytes.
            assert_eq!(&out.span[4..6], [found.span.start as i64 + 2, found.span.end as i64 + 2]);
            // Several lines: the first that matches.
            assert_eq!(&out.span[6..8], &out.span[2..4]);
            let noise_first = [&b"noise\r\n"[..], good].concat();
            let (data, offsets) = owned(&[&noise_first]);
            let column = Column::new(&data, Offsets::Owned(offsets), None).unwrap();
            let out = assemble(&catalog, 1, classify(&catalog, &column, threads, &Envelope::None));
            assert_eq!(out.span, [found.span.start as i64 + 7, found.span.end as i64 + 7]);
        }
    }

    #[test]
    fn rows_in_an_envelope_are_unwrapped_and_their_pieces_joined() {
        let catalog = catalog();
        let message = r#"unable to persist session \"s \u003c7\u003e\" (seq=3): nats: timeout"#;
        let lines: Vec<String> = vec![
            format!(r#"{{"log":"{}","stream":"stderr","time":"t"}}"#, &message[..30]),
            r#"{"log":"noise\n","stream":"stdout","time":"t"}"#.to_owned(),
            format!(r#"{{"log":"{}\n","stream":"stderr","time":"t"}}"#, &message[30..]),
        ];
        let lines: Vec<&[u8]> = lines.iter().map(|line| line.as_bytes()).collect();
        let (data, offsets) = owned(&lines);
        let column = Column::new(&data, Offsets::Owned(offsets), None).unwrap();
        let envelope = envelope_of("auto", &column).unwrap();
        assert_eq!(envelope, Envelope::Docker);
        let out = assemble(&catalog, lines.len(), classify(&catalog, &column, 2, &envelope));
        let rows: Vec<usize> = (0..lines.len()).filter(|&i| out.validity[i / 8] & (1 << (i % 8)) != 0).collect();
        assert_eq!(rows, [0], "the match is the first piece's row");
        let bare = catalog.find(r#"unable to persist session "s <7>" (seq=3): nats: timeout"#).unwrap();
        assert_eq!(&out.span[..2], [bare.span.start as i64, bare.span.end as i64]);
        assert!(envelope_of("xml", &column).is_err());
    }

    /// `message` in `envelope`, as its producer writes it.
    fn wrapped(envelope: &Envelope, message: &str) -> String {
        let json = |value: serde_json::Value| value.to_string();
        match envelope {
            Envelope::Docker => {
                json(serde_json::json!({"log": format!("{message}\n"), "stream": "stderr", "time": "t"}))
            }
            Envelope::Cri => format!("2026-11-29T17:20:35.1Z stderr F {message}"),
            Envelope::Journald => json(serde_json::json!({"__CURSOR": "s", "PRIORITY": "3", "MESSAGE": message})),
            Envelope::Syslog => format!("<11>1 2026-11-29T17:20:35Z h app 1 - - {message}"),
            Envelope::Logfmt => format!("level=error msg={}", json(message.into())),
            _ => json(serde_json::json!({"level": "error", "msg": message})),
        }
    }

    /// The hits of `results` (row, entry, span, fields), the long rows and
    /// the rows with invalid UTF-8.
    type Flat = (Vec<(usize, usize, Range<usize>, String)>, Vec<usize>, Vec<usize>);

    fn flat(results: &[ChunkResult]) -> Flat {
        let mut out = Flat::default();
        for result in results {
            out.0.extend(result.hits.iter().map(|hit| {
                let json = hit.json.iter().map(|range| String::from_utf8_lossy(&result.json[range.clone()]));
                (hit.row, hit.index, hit.span.clone(), json.collect::<Vec<_>>().join(" "))
            }));
            out.1.extend(&result.too_long);
            out.2.extend(&result.invalid_utf8);
        }
        out
    }

    #[test]
    fn rows_classified_at_once_are_classified_as_row_by_row() {
        let catalog = catalog();
        let prefix = "[1] 2026/11/29 17:20:00.123456 [ERR] ";
        let qos = "create QoS2 incoming messages stream for account \"日本\": nats: timeout";
        for name in ["docker", "cri", "journald", "syslog", "logfmt", "json"] {
            let envelope = &Envelope::from_name(name).unwrap();
            // Matches, noise, nulls, `\r\n`, several lines, empty and plain
            // rows, and a row too long: over a MiB, so several chunks.
            let mut lines: Vec<Option<Vec<u8>>> = (0..14_000)
                .map(|i| {
                    let good = format!(r#"{prefix}unable to persist session "s{i}" (seq={i}): nats: timeout"#);
                    let line = match i % 7 {
                        0 => wrapped(envelope, &good),
                        1 => wrapped(envelope, &format!("GET /healthz 200 {}", "-".repeat(i % 90))),
                        2 => return None,
                        3 => wrapped(envelope, qos) + "\r\n",
                        4 => wrapped(envelope, &good) + "\nsecond line",
                        5 => String::new(),
                        _ => good,
                    };
                    Some(line.into_bytes())
                })
                .collect();
            lines[100] = Some(vec![b'x'; MAX_LINE + 1]);
            let a_piece = match envelope {
                Envelope::Docker => r#"{"log":"unable to persist ","stream":"stderr","time":"t"}"#.to_owned(),
                Envelope::Cri => "2026-11-29T17:20:35.1Z stderr P unable to persist ".to_owned(),
                Envelope::Journald => r#"{"__CURSOR":"s","PRIORITY":"3","MESSAGE":null}"#.to_owned(),
                // A line break or a `\r` in the message.
                Envelope::Syslog => wrapped(envelope, &format!("{prefix}{qos}\rx")),
                _ => wrapped(envelope, &format!("{prefix}{qos}\nat main")),
            };
            let mut invalid = wrapped(envelope, qos).into_bytes();
            invalid.insert(0, 0xff);
            for forced in [None, Some(a_piece.into_bytes()), Some(invalid)] {
                let mut lines = lines.clone();
                if let Some(forced) = &forced {
                    lines[9_000] = Some(forced.clone());
                }
                let (data, offsets) =
                    owned(&lines.iter().map(|line| line.as_deref().unwrap_or(b"")).collect::<Vec<_>>());
                let mut validity = vec![0u8; lines.len().div_ceil(8)];
                for (i, line) in lines.iter().enumerate() {
                    if line.is_some() {
                        validity[i / 8] |= 1 << (i % 8);
                    }
                }
                let column = Column::new(&data, Offsets::Owned(offsets), Some((&validity, 0))).unwrap();
                assert!(chunks(&column).len() > 1);
                // Asking for unmatched lines (of no level) forces the
                // line-by-line path, with the same matches.
                let no_level = |_: &error_catalog::LogLine<'_>| None;
                let options = ScanOptions {
                    envelope: envelope.clone(),
                    unmatched: Some(&no_level),
                    line_text: false,
                    details: true,
                };
                let line_by_line = ChunkClassifier::new(&catalog, options);
                let (row_by_row, path) = classify_rows(&line_by_line, &catalog, &column, 0..column.len());
                assert_eq!(path, ChunkPath::LineByLine);
                let row_by_row = flat(&[row_by_row]);
                assert_eq!(flat(&classify(&catalog, &column, 2, envelope)), row_by_row, "{envelope}");
                let options =
                    ScanOptions { envelope: envelope.clone(), unmatched: None, line_text: false, details: true };
                let (at_once, path) =
                    classify_rows(&ChunkClassifier::new(&catalog, options), &catalog, &column, 0..column.len());
                assert_eq!(path == ChunkPath::Unwrapped, forced.is_none(), "{envelope}: at once unless forced");
                assert_eq!(flat(&[at_once]), row_by_row, "{envelope}");
                let (hits, too_long, _) = row_by_row;
                assert_eq!(too_long, [100]);
                if forced.is_none() {
                    assert_eq!(hits.len(), 14_000 / 7 * 4, "{envelope}");
                }
            }
        }
    }
}
