//! `Catalog.classify`'s engine, free of Python: a column of lines (arrow's
//! layout, or buffers borrowed from a Python list; an optional validity
//! bitmap) classified on every core; `columns.rs` lays the hits out.
//!
//! The rows are cut into chunks of about a MiB. A chunk's elements are laid
//! out as lines in a buffer of the thread's, unless they are lines in
//! memory already (each ending with its line break: a file's bytes), which
//! are read where they are. Each chunk's lines are classified by the
//! runtime's chunk classifier
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

use error_catalog::{
    Catalog, ChunkClassifier, ChunkPath, Envelope, EventParts, Found, ScanEvent, ScanOptions, MAX_LINE,
};

/// About this many bytes of lines per unit of work.
const CHUNK_BYTES: usize = 1 << 20;

/// Offsets of an arrow column's elements: element `i` is `data[at(i)..at(i + 1)]`.
pub enum Offsets<'a> {
    I32(&'a [i32]),
    I64(&'a [i64]),
}

impl Offsets<'_> {
    fn at(&self, i: usize) -> usize {
        // Checked non-negative by `Column::packed`.
        match self {
            Offsets::I32(offsets) => offsets[i] as usize,
            Offsets::I64(offsets) => offsets[i] as usize,
        }
    }

    /// The first element from `start` on whose end is `bytes` or more past
    /// the start of element `start` (or the last element).
    fn end_after(&self, start: usize, bytes: usize) -> usize {
        let last = self.len() - 1;
        let goal = self.at(start).saturating_add(bytes);
        let after = match self {
            Offsets::I32(offsets) => offsets[start + 1..].partition_point(|&o| (o as usize) < goal),
            Offsets::I64(offsets) => offsets[start + 1..].partition_point(|&o| (o as usize) < goal),
        };
        (start + after + 1).min(last)
    }

    fn len(&self) -> usize {
        match self {
            Offsets::I32(offsets) => offsets.len(),
            Offsets::I64(offsets) => offsets.len(),
        }
    }
}

/// Where a column's elements are.
enum Elements<'a> {
    /// Arrow's layout: one data buffer and offsets.
    Packed { data: &'a [u8], offsets: Offsets<'a> },
    /// A buffer each, borrowed from its owner (a Python list's `str` and `bytes`).
    Borrowed(Vec<&'a [u8]>),
}

/// A column of lines: arrow's layout, or borrowed buffers; an optional
/// validity bitmap.
pub struct Column<'a> {
    elements: Elements<'a>,
    /// The validity bitmap and the bit of element 0.
    validity: Option<(&'a [u8], usize)>,
    len: usize,
}

impl<'a> Column<'a> {
    /// An arrow column of `offsets.len() - 1` elements, checked: offsets
    /// non-negative, non-decreasing and within `data`, the bitmap long
    /// enough. Hostile buffers are an error, never a crash.
    pub fn packed(data: &'a [u8], offsets: Offsets<'a>, validity: Option<(&'a [u8], usize)>) -> Result<Self, String> {
        let Some(len) = offsets.len().checked_sub(1) else {
            return Err("an arrow array's offsets buffer is empty".into());
        };
        // Non-negative and non-decreasing: the first, then each pair, in
        // one vectorized pass (the place of a decrease looked for after).
        fn ordered<O: Copy + Into<i64>>(offsets: &[O]) -> Result<(), String> {
            let wide = |i: usize| -> i64 { offsets[i].into() };
            if wide(0) < 0 {
                return Err("an arrow array has a negative offset".into());
            }
            if offsets.windows(2).fold(true, |ok, pair| ok & (pair[0].into() <= pair[1].into())) {
                return Ok(());
            }
            let at = offsets.windows(2).position(|pair| pair[0].into() > pair[1].into()).unwrap_or(0);
            Err(format!("an arrow array's offsets decrease at element {at}"))
        }
        match &offsets {
            Offsets::I32(o) => ordered(o)?,
            Offsets::I64(o) => ordered(o)?,
        }
        let previous = offsets.at(len);
        if previous > data.len() {
            return Err("an arrow array's offsets point past its data".into());
        }
        if let Some((bits, first)) = validity {
            if (first + len).div_ceil(8) > bits.len() {
                return Err("an arrow array's validity bitmap is too short".into());
            }
        }
        Ok(Column { elements: Elements::Packed { data, offsets }, validity, len })
    }

    /// A column of borrowed elements; a clear bit of `validity` (one per
    /// element) makes its element null.
    pub fn borrowed(elements: Vec<&'a [u8]>, validity: Option<&'a [u8]>) -> Self {
        let len = elements.len();
        assert!(validity.is_none_or(|bits| bits.len() * 8 >= len), "a bit per element");
        Column { elements: Elements::Borrowed(elements), validity: validity.map(|bits| (bits, 0)), len }
    }

    pub fn len(&self) -> usize {
        self.len
    }

    fn is_valid(&self, i: usize) -> bool {
        self.validity.is_none_or(|(bits, first)| bits[(first + i) / 8] & (1 << ((first + i) % 8)) != 0)
    }

    /// Element `i`, `None` when null.
    pub fn get(&self, i: usize) -> Option<&'a [u8]> {
        if !self.is_valid(i) {
            return None;
        }
        Some(match &self.elements {
            Elements::Packed { data, offsets } => &data[offsets.at(i)..offsets.at(i + 1)],
            Elements::Borrowed(elements) => elements[i],
        })
    }

    /// The rows' bytes as they are in memory when they are lines already
    /// (arrow's data buffer read from a file with the line breaks kept):
    /// no null, each element ends with a line break and is no longer than
    /// [`MAX_LINE`] without it. They are then classified in place.
    fn in_place(&self, rows: Range<usize>) -> Option<&'a [u8]> {
        fn lines<O: Copy + TryInto<usize>>(data: &[u8], offsets: &[O]) -> bool {
            let at = |offset: O| offset.try_into().unwrap_or(0);
            offsets.windows(2).all(|pair| {
                let (start, end) = (at(pair[0]), at(pair[1]));
                end > start && end - start <= MAX_LINE + 1 && data[end - 1] == b'\n'
            })
        }
        let Elements::Packed { data, offsets } = &self.elements else { return None };
        if (self.validity.is_some() && !rows.clone().all(|row| self.is_valid(row))) || rows.is_empty() {
            return None;
        }
        let whole = match offsets {
            Offsets::I32(offsets) => lines(data, &offsets[rows.start..=rows.end]),
            Offsets::I64(offsets) => lines(data, &offsets[rows.start..=rows.end]),
        };
        whole.then(|| &data[offsets.at(rows.start)..offsets.at(rows.end)])
    }

    /// Row `row` as a line of a chunk: its element without a trailing line
    /// break; `Err(true)` when it is longer than [`MAX_LINE`], `Err(false)`
    /// when it is null.
    fn line(&self, row: usize) -> Result<&'a [u8], bool> {
        let element = self.get(row).ok_or(false)?;
        let element = element.strip_suffix(b"\n").unwrap_or(element);
        if element.len() > MAX_LINE {
            return Err(true);
        }
        Ok(element)
    }
}

/// Which row, and where in its element, each line of a chunk comes from.
enum LineMap {
    /// Line `i` is row `first + i`, from its start.
    Rows(usize),
    /// Line `i` is `table[i]`: a chunk with nulls, skipped rows or elements of several lines.
    Table(Vec<(usize, usize)>),
}

impl LineMap {
    fn of(&self, line: usize) -> (usize, usize) {
        match self {
            LineMap::Rows(first) => (first + line, 0),
            LineMap::Table(table) => table[line],
        }
    }
}

/// Lays `rows` of `column` out as lines in `buffer`; whether every row is
/// there (none null or too long). Rows too long go to `too_long`.
fn copy_lines(column: &Column<'_>, rows: Range<usize>, buffer: &mut Vec<u8>, too_long: &mut Vec<usize>) -> bool {
    buffer.clear();
    let mut push = |line: &[u8]| {
        buffer.extend_from_slice(line);
        buffer.push(b'\n');
    };
    match (&column.elements, column.validity) {
        (Elements::Borrowed(elements), None) => {
            let mut all = true;
            for (row, element) in rows.clone().zip(&elements[rows]) {
                let line = element.strip_suffix(b"\n").unwrap_or(element);
                if line.len() > MAX_LINE {
                    too_long.push(row);
                    all = false;
                } else {
                    push(line);
                }
            }
            all
        }
        _ => {
            let mut all = true;
            for row in rows {
                match column.line(row) {
                    Ok(line) => push(line),
                    Err(is_too_long) => {
                        if is_too_long {
                            too_long.push(row);
                        }
                        all = false;
                    }
                }
            }
            all
        }
    }
}

/// Where each line of `rows` laid out as lines comes from, when some are
/// null, too long or of several lines.
fn line_table(column: &Column<'_>, rows: Range<usize>) -> LineMap {
    let mut table = Vec::with_capacity(rows.len());
    for row in rows {
        if let Ok(line) = column.line(row) {
            table.push((row, 0));
            table.extend(memchr::memchr_iter(b'\n', line).map(|at| (row, at + 1)));
        }
    }
    LineMap::Table(table)
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
    /// When the match is the message of an event of several lines.
    pub event: Option<Box<EventRows>>,
}

/// An event of several lines as `errcat scan --json` writes it, its line
/// numbers as rows: `start_line` and `end_line` become the event's first
/// and last rows, the `line` of its intro and causes their `row`.
pub struct EventRows {
    pub first: usize,
    pub last: usize,
    /// The line that introduced the trace, as JSON in the chunk's `json` buffer.
    pub intro: Option<Range<usize>>,
    /// The causes (the nearest first), a JSON array in the chunk's `json` buffer.
    pub causes: Option<Range<usize>>,
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
    /// Adds the match found on chunk line `line` (its row's, with its spans
    /// in the element) as `errcat scan --json` writes it.
    fn push(&mut self, catalog: &Catalog, lines: &LineMap, found: Found) {
        let (row, start) = lines.of(found.line as usize);
        let shift = |range: &Range<usize>| start + range.start..start + range.end;
        let mut details = found.details.expect("classify wants details");
        details.message_span = shift(&details.message_span);
        for span in details.field_spans.iter_mut().flatten().flatten() {
            *span = shift(span);
        }
        let event = details.event.take().map(|event| Box::new(self.event_rows(catalog, lines, &event)));
        let span = shift(&found.found.span);
        let found = error_catalog::Match { span: span.clone(), ..found.found };
        let object = error_catalog::match_object(catalog, &found, Some(&details));
        let message_span = object.get("message_span").unwrap_or(&serde_json::Value::Null);
        let json = ["fields", "args", "field_spans"]
            .map(|key| object.get(key).unwrap_or(&serde_json::Value::Null))
            .map(|value| self.write_json(value));
        let [fields, args, field_spans] = json;
        let json = [fields, args, field_spans, self.write_json(message_span)];
        self.hits.push(Hit {
            row,
            index: found.index,
            span,
            json,
            envelope: details.envelope.name(),
            context: details.context,
            event,
        });
    }

    /// `event`'s rows, its intro and causes written with rows for lines.
    fn event_rows(&mut self, catalog: &Catalog, lines: &LineMap, event: &EventParts) -> EventRows {
        let row_of = |line: u64| lines.of(line as usize).0;
        let mut object = error_catalog::event_object(catalog, event);
        // A part's `line` (a chunk line) as the `row` it is in.
        let mut numbered = |part: &mut serde_json::Value| {
            if let Some(part) = part.as_object_mut() {
                if let Some(line) = part.remove("line").and_then(|line| line.as_u64()) {
                    part.insert("row".into(), row_of(line).into());
                }
            }
        };
        let intro = object.get_mut("intro").map(|intro| {
            numbered(intro);
            self.write_json(intro)
        });
        let causes = object.get_mut("causes").map(|causes| {
            causes.as_array_mut().into_iter().flatten().for_each(&mut numbered);
            self.write_json(causes)
        });
        EventRows { first: row_of(event.start_line), last: row_of(event.end_line), intro, causes }
    }

    /// Writes `value` at the end of the `json` buffer; where it is.
    fn write_json(&mut self, value: &serde_json::Value) -> Range<usize> {
        let start = self.json.len();
        // Writing a JSON value into memory cannot fail.
        let _ = serde_json::to_writer(&mut self.json, value);
        start..self.json.len()
    }
}

/// Classifies `rows` of `column` (see the module's docs), laid out in
/// `buffer` unless they are lines in memory already; the path the
/// classifier took.
fn classify_rows(
    classifier: &ChunkClassifier<'_>,
    catalog: &Catalog,
    column: &Column<'_>,
    rows: Range<usize>,
    buffer: &mut Vec<u8>,
) -> (ChunkResult, ChunkPath) {
    let mut result = ChunkResult::default();
    let (chunk, every_row) = match column.in_place(rows.clone()) {
        Some(chunk) => (chunk, true),
        None => {
            let every_row = copy_lines(column, rows.clone(), buffer, &mut result.too_long);
            (&buffer[..], every_row)
        }
    };
    let classified = classifier.classify(chunk, 0);
    // A line a row, unless some row was left out or holds several lines.
    let lines = if every_row && classified.line_breaks == rows.len() as u64 {
        LineMap::Rows(rows.start)
    } else {
        line_table(column, rows)
    };
    for event in classified.events {
        match event {
            ScanEvent::Found(found) => {
                let (row, _) = lines.of(found.line as usize);
                // The first line of an element that matches gives its match.
                if result.hits.last().is_none_or(|hit| hit.row != row) {
                    result.push(catalog, &lines, found);
                }
            }
            ScanEvent::InvalidUtf8 { line } => {
                let (row, _) = lines.of(line as usize);
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
    match &column.elements {
        Elements::Packed { offsets, .. } => {
            // Chunk ends looked up in the offsets.
            let mut start = 0;
            while start < column.len() {
                let end = offsets.end_after(start, CHUNK_BYTES);
                chunks.push(start..end);
                start = end;
            }
        }
        Elements::Borrowed(elements) => {
            let (mut start, mut bytes) = (0, 0);
            for (row, element) in elements.iter().enumerate() {
                bytes += element.len() + 1;
                if bytes >= CHUNK_BYTES {
                    chunks.push(start..row + 1);
                    (start, bytes) = (row + 1, 0);
                }
            }
            if start < column.len() {
                chunks.push(start..column.len());
            }
        }
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
    let work = || {
        // One buffer a thread, reused: its pages stay mapped and in cache.
        let mut buffer = Vec::with_capacity(2 * CHUNK_BYTES);
        loop {
            let i = next.fetch_add(1, Ordering::Relaxed);
            let Some(rows) = chunks.get(i) else { break };
            let result = classify_rows(&classifier, catalog, column, rows.clone(), &mut buffer);
            *results[i].lock().unwrap_or_else(|e| e.into_inner()) = Some(result);
        }
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
        return vec![classify_rows(&classifier, catalog, column, 0..column.len(), &mut Vec::new()).0];
    }
    results.into_iter().map(|(result, _)| result).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn catalog() -> Catalog {
        Catalog::from_entries(error_catalog::nats_server::NatsServerError::entries().to_vec())
    }

    /// `lines` in arrow's layout.
    fn owned(lines: &[&[u8]]) -> (Vec<u8>, Vec<i64>) {
        let mut data = Vec::new();
        let mut offsets = vec![0];
        for line in lines {
            data.extend_from_slice(line);
            offsets.push(data.len() as i64);
        }
        (data, offsets)
    }

    /// The rows that matched, the spans and the rows with invalid UTF-8.
    fn outcome(
        catalog: &Catalog,
        column: &Column<'_>,
        threads: usize,
        envelope: &Envelope,
    ) -> (Vec<usize>, Vec<i64>, Vec<usize>) {
        let results = classify(catalog, column, threads, envelope);
        let out = crate::columns::assemble::<i32>(catalog, column.len(), &results);
        let rows = (0..column.len()).filter(|&i| out.validity[i / 8] & (1 << (i % 8)) != 0).collect();
        (rows, out.span, results.iter().flat_map(|result| result.invalid_utf8.clone()).collect())
    }

    #[test]
    fn hostile_offsets_are_errors() {
        let data = b"abc";
        assert!(Column::packed(data, Offsets::I32(&[0, 2, 1]), None).is_err());
        assert!(Column::packed(data, Offsets::I32(&[0, 4]), None).is_err());
        assert!(Column::packed(data, Offsets::I32(&[-1, 2]), None).is_err());
        assert!(Column::packed(data, Offsets::I64(&[]), None).is_err());
        assert!(Column::packed(data, Offsets::I32(&[0; 10]), Some((&[0xff], 0))).is_err());
        assert!(Column::packed(data, Offsets::I32(&[0, 1, 3]), Some((&[0b10], 0))).is_ok());
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
        let packed = Column::packed(&data, Offsets::I64(&offsets), None).unwrap();
        let borrowed = Column::borrowed(lines.clone(), None);
        for (column, threads) in [(&packed, 1), (&packed, 3), (&borrowed, 1), (&borrowed, 3)] {
            let (rows, span, invalid_utf8) = outcome(&catalog, column, threads, &Envelope::None);
            assert_eq!(rows, [1, 2, 3, 5]);
            assert_eq!(invalid_utf8, [2]);
            let found = catalog.find(std::str::from_utf8(good).unwrap()).unwrap();
            assert_eq!(&span[2..4], [found.span.start as i64, found.span.end as i64]);
            // The span of the invalid line is in its original bytes.
            assert_eq!(&span[4..6], [found.span.start as i64 + 2, found.span.end as i64 + 2]);
            // Several lines: the first that matches.
            assert_eq!(&span[6..8], &span[2..4]);
            let noise_first = [&b"noise\r\n"[..], good].concat();
            let column = Column::borrowed(vec![&noise_first], None);
            let (_, span, _) = outcome(&catalog, &column, threads, &Envelope::None);
            assert_eq!(span, [found.span.start as i64 + 7, found.span.end as i64 + 7]);
        }
    }

    #[test]
    fn lines_read_in_place_are_classified_as_lines_laid_out() {
        let catalog = catalog();
        let good = r#"[1] 2026/11/29 17:20:00.123456 [ERR] unable to persist session "s1" (seq=3): nats: timeout"#;
        let trace = "panic: unable to persist session \"s2\" (seq=4): eof\n\ngoroutine 1 [running]:\nmain.main()\n";
        // A file's bytes, its lines' offsets with their line breaks (as
        // bench/python_classify.py reads a log), over several chunks.
        let text = format!("{good}\r\nnoise\n\n{trace}").repeat(20_000);
        let mut offsets = vec![0i64];
        offsets.extend(memchr::memchr_iter(b'\n', text.as_bytes()).map(|at| at as i64 + 1));
        let packed = Column::packed(text.as_bytes(), Offsets::I64(&offsets), None).unwrap();
        assert!(chunks(&packed).len() > 1);
        assert!(chunks(&packed).iter().all(|rows| packed.in_place(rows.clone()).is_some()));
        let lines: Vec<&[u8]> =
            text.as_bytes().split_inclusive(|&b| b == b'\n').map(|line| &line[..line.len() - 1]).collect();
        let borrowed = Column::borrowed(lines, None);
        assert!(borrowed.in_place(0..2).is_none());
        let (rows, span, invalid) = outcome(&catalog, &packed, 2, &Envelope::None);
        assert_eq!((rows.len(), invalid.len()), (40_000, 0), "each good line and each panic");
        assert_eq!(outcome(&catalog, &borrowed, 2, &Envelope::None), (rows, span, invalid));
        // Not in place: a null, an element without its line break.
        let validity = [0b1111_1101u8];
        let with_null = Column::packed(text.as_bytes(), Offsets::I64(&offsets[..5]), Some((&validity, 0))).unwrap();
        assert!(with_null.in_place(0..4).is_none());
        // Elements of two lines each: in place too, their lines mapped back to them.
        let pairs: Vec<i64> = offsets.iter().copied().step_by(2).collect();
        assert_eq!(pairs.last(), offsets.last());
        let two_lines = Column::packed(text.as_bytes(), Offsets::I64(&pairs), None).unwrap();
        assert!(two_lines.in_place(0..2).is_some());
        let elements = pairs.windows(2).map(|pair| &text.as_bytes()[pair[0] as usize..pair[1] as usize]).collect();
        let (rows, span, _) = outcome(&catalog, &two_lines, 2, &Envelope::None);
        assert!(rows.len() > 20_000);
        assert_eq!(outcome(&catalog, &Column::borrowed(elements, None), 2, &Envelope::None), (rows, span, vec![]));
        let unended = [0, offsets[1] - 1];
        assert!(Column::packed(text.as_bytes(), Offsets::I64(&unended), None).unwrap().in_place(0..1).is_none());
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
        let column = Column::borrowed(lines, None);
        let envelope = envelope_of("auto", &column).unwrap();
        assert_eq!(envelope, Envelope::Docker);
        let (rows, span, _) = outcome(&catalog, &column, 2, &envelope);
        assert_eq!(rows, [0], "the match is the first piece's row");
        let bare = catalog.find(r#"unable to persist session "s <7>" (seq=3): nats: timeout"#).unwrap();
        assert_eq!(&span[..2], [bare.span.start as i64, bare.span.end as i64]);
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
                let column = Column::packed(&data, Offsets::I64(&offsets), Some((&validity, 0))).unwrap();
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
                let (row_by_row, path) =
                    classify_rows(&line_by_line, &catalog, &column, 0..column.len(), &mut Vec::new());
                assert_eq!(path, ChunkPath::LineByLine);
                let row_by_row = flat(&[row_by_row]);
                assert_eq!(flat(&classify(&catalog, &column, 2, envelope)), row_by_row, "{envelope}");
                let options =
                    ScanOptions { envelope: envelope.clone(), unmatched: None, line_text: false, details: true };
                let (at_once, path) = classify_rows(
                    &ChunkClassifier::new(&catalog, options),
                    &catalog,
                    &column,
                    0..column.len(),
                    &mut Vec::new(),
                );
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
