//! The result columns of `Catalog.classify`, laid out in arrow's layout
//! from the chunks' hits in one pass: the rows without a match cost a
//! repeated offset in each column (filled in bulk), no more.

use error_catalog::Catalog;

use crate::classify::ChunkResult;

/// An arrow offset: `i32` for `string`, `i64` for `large_string`.
pub trait Offset: Copy + Send + 'static {
    /// The arrow format of a string column with these offsets.
    const STRING_FORMAT: &'static str;
    /// The offset of `bytes` (which fits: see [`assemble`]).
    fn of(bytes: usize) -> Self;
}

impl Offset for i32 {
    const STRING_FORMAT: &'static str = "u";
    fn of(bytes: usize) -> Self {
        bytes as i32
    }
}

impl Offset for i64 {
    const STRING_FORMAT: &'static str = "U";
    fn of(bytes: usize) -> Self {
        bytes as i64
    }
}

/// An arrow string column being built, a row at a time: as many offsets
/// as rows, plus one, up to the capacity of the rows wanted.
pub struct Strings<O> {
    pub offsets: Vec<O>,
    pub data: Vec<u8>,
}

impl<O: Offset> Strings<O> {
    fn with_rows(rows: usize) -> Self {
        let mut offsets = Vec::with_capacity(rows + 1);
        offsets.push(O::of(0));
        Strings { offsets, data: Vec::new() }
    }

    /// Empty strings up to row `row` (excluded), in bulk.
    fn empty_until(&mut self, row: usize) {
        let end = O::of(self.data.len());
        self.offsets.resize(row + 1, end);
    }

    fn push(&mut self, text: &[u8]) {
        self.data.extend_from_slice(text);
        self.offsets.push(O::of(self.data.len()));
    }
}

/// An arrow string column that may have nulls: a clear bit of `validity`.
pub struct Nullable<O> {
    pub strings: Strings<O>,
    pub validity: Vec<u8>,
    pub nulls: usize,
}

impl<O: Offset> Nullable<O> {
    fn with_rows(rows: usize) -> Self {
        Nullable { strings: Strings::with_rows(rows), validity: vec![0; rows.div_ceil(8)], nulls: rows }
    }

    /// Row `row`'s text (the rows before it empty), or null.
    fn push(&mut self, row: usize, text: Option<&[u8]>) {
        self.strings.empty_until(row);
        self.strings.push(text.unwrap_or_default());
        if text.is_some() {
            self.validity[row / 8] |= 1 << (row % 8);
            self.nulls -= 1;
        }
    }
}

/// The event columns' integers: the first and last rows of an event of
/// several lines, null for other rows. Their buffers are made at the first
/// event: most batches have none.
pub struct EventBounds {
    rows: usize,
    /// Empty when no row is an event's, else a value a row.
    pub first: Vec<i64>,
    pub last: Vec<i64>,
    /// Set bit: the row's match is an event's.
    pub validity: Vec<u8>,
    pub nulls: usize,
}

impl EventBounds {
    fn with_rows(rows: usize) -> Self {
        EventBounds { rows, first: Vec::new(), last: Vec::new(), validity: vec![0; rows.div_ceil(8)], nulls: rows }
    }

    fn set(&mut self, row: usize, first: usize, last: usize) {
        if self.first.is_empty() {
            (self.first, self.last) = (vec![0; self.rows], vec![0; self.rows]);
        }
        (self.first[row], self.last[row]) = (first as i64, last as i64);
        self.validity[row / 8] |= 1 << (row % 8);
        self.nulls -= 1;
    }
}

/// The result columns, in arrow's layout.
pub struct Assembled<O> {
    pub len: usize,
    /// Set bit: the row matched.
    pub validity: Vec<u8>,
    pub null_count: usize,
    pub id: Strings<O>,
    pub slug: Strings<O>,
    pub name: Strings<O>,
    pub severity: Strings<O>,
    /// Two per row (0, 0 for rows without a match).
    pub span: Vec<i64>,
    /// JSON texts, as `errcat scan --json` writes them.
    pub fields: Strings<O>,
    pub args: Strings<O>,
    pub field_spans: Strings<O>,
    pub message_span: Strings<O>,
    pub envelope: Strings<O>,
    /// The trace of the event, or null.
    pub context: Nullable<O>,
    /// The name of the record's dataset, or null.
    pub dataset: Nullable<O>,
    /// An event's first and last rows (`start_row`, `end_row`).
    pub event: EventBounds,
    /// An event's introducing line and causes (JSON texts), or null.
    pub intro: Nullable<O>,
    pub causes: Nullable<O>,
}

impl<O: Offset> Assembled<O> {
    fn texts(&mut self) -> [&mut Strings<O>; 13] {
        [
            &mut self.id,
            &mut self.slug,
            &mut self.name,
            &mut self.severity,
            &mut self.fields,
            &mut self.args,
            &mut self.field_spans,
            &mut self.message_span,
            &mut self.envelope,
            &mut self.context.strings,
            &mut self.dataset.strings,
            &mut self.intro.strings,
            &mut self.causes.strings,
        ]
    }
}

/// Whether a column may need 64-bit offsets (arrow's `large_string`): when
/// all the hits' texts together do not fit 32-bit ones.
pub fn needs_large(catalog: &Catalog, results: &[ChunkResult]) -> bool {
    let mut total = 0usize;
    for result in results {
        total += result.json.len();
        for hit in &result.hits {
            let entry = &catalog.entries()[hit.index];
            let record = entry.record();
            total +=
                record.id.len() + record.slug.len() + entry.name.len() + record.severity_or_default().as_str().len();
            total += hit.envelope.len() + hit.context.as_ref().map_or(0, String::len);
            total += catalog.dataset(hit.index).map_or(0, str::len);
            // (An event's intro and causes are in `json`.)
        }
    }
    total > i32::MAX as usize
}

/// Lays the chunks' results out as arrow columns of `len` rows.
pub fn assemble<O: Offset>(catalog: &Catalog, len: usize, results: &[ChunkResult]) -> Assembled<O> {
    let mut out = Assembled {
        len,
        validity: vec![0; len.div_ceil(8)],
        null_count: len,
        id: Strings::with_rows(len),
        slug: Strings::with_rows(len),
        name: Strings::with_rows(len),
        severity: Strings::with_rows(len),
        span: vec![0; len * 2],
        fields: Strings::with_rows(len),
        args: Strings::with_rows(len),
        field_spans: Strings::with_rows(len),
        message_span: Strings::with_rows(len),
        envelope: Strings::with_rows(len),
        context: Nullable::with_rows(len),
        dataset: Nullable::with_rows(len),
        event: EventBounds::with_rows(len),
        intro: Nullable::with_rows(len),
        causes: Nullable::with_rows(len),
    };
    let severities: Vec<String> =
        catalog.entries().iter().map(|entry| entry.record().severity_or_default().as_str().to_owned()).collect();
    for result in results {
        for hit in &result.hits {
            let row = hit.row;
            for column in out.texts() {
                column.empty_until(row);
            }
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
            out.context.push(row, hit.context.as_deref().map(str::as_bytes));
            out.dataset.push(row, catalog.dataset(hit.index).map(str::as_bytes));
            let event = hit.event.as_deref();
            let json = |range: &Option<std::ops::Range<usize>>| range.clone().map(|range| &result.json[range]);
            out.intro.push(row, event.and_then(|event| json(&event.intro)));
            out.causes.push(row, event.and_then(|event| json(&event.causes)));
            if let Some(event) = event {
                out.event.set(row, event.first, event.last);
            }
            out.span[2 * row..2 * row + 2].copy_from_slice(&[hit.span.start as i64, hit.span.end as i64]);
            out.validity[row / 8] |= 1 << (row % 8);
            out.null_count -= 1;
        }
    }
    for column in out.texts() {
        column.empty_until(len);
    }
    out
}
