//! The scanning pipeline of `errcat scan`: an input is read in chunks of
//! whole lines, each chunk is classified with the matcher's buffer scan
//! ([`Matcher::find_lines`](error_catalog::Matcher::find_lines)) on a pool of
//! worker threads, and the results come back in input order. Memory stays
//! bounded: at most a few chunks per worker are in flight.
//!
//! When a live input pauses (a pipe from `tail -f`, a terminal), its chunk
//! ends early; the chunks in flight are then all delivered before reading on,
//! followed by [`Delivery::CaughtUp`] so that the output is flushed: what has
//! arrived is printed while the writer is quiet.
//!
//! Lines in an envelope (Docker, CRI, JSON logs...; see
//! [`Envelope`]) are unwrapped before they are
//! matched, and the pieces of a long container line joined: the reader ends
//! chunks only after a whole line (see [`Input::line_ends_chunk`]), and a
//! live input's pieces wait for the rest of their line (see
//! [`Input::piece_wait`]), so that the pieces of a line are all in one chunk.

use std::collections::BTreeMap;
use std::io;
use std::sync::mpsc;

use error_catalog::{Catalog, Envelope, EnvelopeKind, LineRole, LogLine, Match, MultiLine, PartialLines};

use crate::input::{Chunk, Input, CHUNK};

/// What the pipeline passes on, in input order.
pub enum Delivery {
    /// The events of a chunk.
    Events(Vec<Event>),
    /// Everything read so far has been delivered and the input is waiting
    /// for its writer: the moment to flush the output.
    CaughtUp,
}

/// Something found in a chunk, in line order.
pub enum Event {
    Found {
        line: u64,
        found: Match<'static>,
        /// The message matched (unwrapped from its envelope), when
        /// [`Wanted::line_text`] (lossily decoded if it is not UTF-8;
        /// `found.span` is then in the original bytes).
        text: Option<Box<str>>,
        /// What the envelope said, for a line in one.
        wrapped: Option<Box<Wrapped>>,
    },
    Unmatched {
        line: u64,
        level: String,
        text: String,
    },
    InvalidUtf8 {
        line: u64,
    },
    /// A line longer than [`MAX_LINE`](crate::input::MAX_LINE), skipped.
    TooLong {
        line: u64,
    },
    /// Something the envelope tells of a line (see [`LogLine::note`]).
    Note {
        line: u64,
        note: &'static str,
    },
}

impl Wrapped {
    /// Of a line in no envelope (which may carry a trace as context).
    fn plain() -> Wrapped {
        Wrapped { envelope: EnvelopeKind::None, span_in_input: 0..0, context: None }
    }

    /// What the envelope said of `unwrapped`; `None` for a line in no envelope.
    fn of(unwrapped: &LogLine<'_>) -> Option<Box<Wrapped>> {
        (unwrapped.envelope() != EnvelopeKind::None).then(|| {
            Box::new(Wrapped {
                envelope: unwrapped.envelope(),
                span_in_input: unwrapped.span_in_input(),
                context: unwrapped.context().map(str::to_owned),
            })
        })
    }
}

/// What an envelope said of a matching line, and the trace it carries.
pub struct Wrapped {
    /// The envelope's name (`docker`, `json`...).
    pub envelope: EnvelopeKind,
    /// Where the message was in the input line (see [`LogLine::span_in_input`]).
    pub span_in_input: std::ops::Range<usize>,
    /// A stack trace carried beside the message (by the envelope, or in
    /// the lines after it).
    pub context: Option<String>,
}

/// Gives the level of a line (`ERR`, ...) when it is one of those wanted.
pub type LevelOf<'f> = dyn Fn(&LogLine<'_>) -> Option<String> + Sync + 'f;

/// What to look for besides matches.
pub struct Wanted<'a> {
    /// The level of a line to report when it matches nothing, if wanted.
    pub unmatched: Option<&'a LevelOf<'a>>,
    /// Whether matches carry their line's text (for `--html`).
    pub line_text: bool,
    /// Whether matches carry what the envelope said of their line (for
    /// `--json` and `--html`).
    pub wrapped: bool,
    /// The envelope of the input's lines.
    pub envelope: Envelope,
}

/// What a chunk holds.
pub struct Classified {
    pub events: Vec<Event>,
    /// The chunk's line breaks.
    pub line_breaks: u64,
}

/// Classifies one chunk.
pub fn classify(catalog: &Catalog, chunk: &Chunk, wanted: &Wanted<'_>) -> Classified {
    let mut events = Vec::new();
    // Lines are classified each on its own, at once, unless unmatched lines
    // are wanted or some lines may be grouped into an event (which an
    // envelope's pass tells: see `classify_unwrapped`).
    let at_once = wanted.unmatched.is_none();
    // The matcher numbers the lines and checks that they are UTF-8 in its
    // own pass over the chunk.
    let plain = at_once && wanted.envelope == Envelope::None && !Envelope::None.may_hold_events(&chunk.data);
    let scanned = plain.then(|| {
        catalog.matcher().find_numbered_lines_in(&chunk.data, |number, range, found| {
            let line = chunk.first_line + number as u64;
            let text = wanted.line_text.then(|| String::from_utf8_lossy(&chunk.data[range]).into());
            events.push(Event::Found { line, found: found.into_owned(), text, wrapped: None });
        })
    });
    let line_breaks = match scanned.flatten() {
        Some(line_breaks) => line_breaks as u64,
        None => {
            events.clear();
            let unwrapped_at_once = at_once && wanted.envelope != Envelope::None;
            match unwrapped_at_once.then(|| classify_unwrapped(catalog, chunk, wanted, &mut events)).flatten() {
                Some(line_breaks) => line_breaks,
                None => {
                    events.clear();
                    classify_lines(catalog, chunk, wanted, &mut events);
                    memchr::memchr_iter(b'\n', &chunk.data).count() as u64
                }
            }
        }
    };
    Classified { events, line_breaks }
}

/// Classifies a chunk in an envelope as the plain fast path does (see
/// [`Envelope::find_lines_at_once`]): the matcher's prefilter runs over the
/// raw chunk, and only the lines that may match are unwrapped and matched;
/// the chunk's line breaks, counted on the way. `None` (with nothing to keep in `events`) when some
/// line needs the line-by-line path: invalid UTF-8, a piece of a longer
/// line, a note, a message holding a line break, a line that may be
/// grouped into an event.
fn classify_unwrapped(catalog: &Catalog, chunk: &Chunk, wanted: &Wanted<'_>, events: &mut Vec<Event>) -> Option<u64> {
    let text = &chunk.data[..];
    let lines =
        wanted.envelope.find_lines_at_once_unless_grouped(catalog.matcher(), text, |number, unwrapped, found| {
            let line = chunk.first_line + number as u64;
            let text = wanted.line_text.then(|| Box::from(unwrapped.text()));
            let wrapped = wanted.wrapped.then(|| Wrapped::of(unwrapped)).flatten();
            events.push(Event::Found { line, found: found.into_owned(), text, wrapped });
        })?;
    // The lines end with line breaks but for the last, unless the text ends with one.
    Some(lines as u64 - 1 + u64::from(text.ends_with(b"\n")))
}

/// Classifies a chunk line by line: needed for unmatched lines, invalid
/// UTF-8, envelopes and multi-line events.
fn classify_lines(catalog: &Catalog, chunk: &Chunk, wanted: &Wanted<'_>, events: &mut Vec<Event>) {
    let mut pieces = PartialLines::new();
    let mut grouped = Grouped { multi_line: MultiLine::new(), last_line: None };
    let body = chunk.data.strip_suffix(b"\n").unwrap_or(&chunk.data);
    for (offset, bytes) in body.split(|&b| b == b'\n').enumerate() {
        let line = chunk.first_line + offset as u64;
        let bytes = bytes.strip_suffix(b"\r").unwrap_or(bytes);
        let text = match std::str::from_utf8(bytes) {
            Ok(text) => std::borrow::Cow::Borrowed(text),
            Err(_) => {
                events.push(Event::InvalidUtf8 { line });
                String::from_utf8_lossy(bytes)
            }
        };
        let unwrapped = wanted.envelope.unwrap(&text);
        // A plain line read lossily: the span is given in its own bytes.
        let lossy_plain = matches!(text, std::borrow::Cow::Owned(_)) && unwrapped.envelope() == EnvelopeKind::None;
        if !wanted.envelope.has_pieces() {
            grouped.classify(catalog, wanted, line, unwrapped, lossy_plain.then_some(bytes), events);
        } else if let Some((line, whole)) = pieces.push(line, unwrapped) {
            grouped.classify(catalog, wanted, line, whole, lossy_plain.then_some(bytes), events);
        }
    }
    for (line, whole) in pieces.finish() {
        grouped.classify(catalog, wanted, line, whole, None, events);
    }
}

/// Lines grouped into multi-line events (see [`MultiLine`]) as they are
/// classified.
struct Grouped {
    multi_line: MultiLine,
    /// The line whose event the trace lines that follow belong to, and
    /// where its event (if any) is in the events.
    last_line: Option<Option<usize>>,
}

impl Grouped {
    fn classify(
        &mut self,
        catalog: &Catalog,
        wanted: &Wanted<'_>,
        line: u64,
        unwrapped: LogLine<'_>,
        lossy_of: Option<&[u8]>,
        events: &mut Vec<Event>,
    ) {
        let context = match self.multi_line.role(line, unwrapped.text()) {
            LineRole::Held => return,
            LineRole::Context => {
                // A trace line: context of the event of the line it follows.
                if let Some(wrapped) = self.last_line.flatten().and_then(|at| wrapped_found(events, at)) {
                    match &mut wrapped.context {
                        Some(context) => {
                            context.push('\n');
                            context.push_str(unwrapped.text());
                        }
                        None => wrapped.context = Some(unwrapped.text().to_owned()),
                    }
                }
                return;
            }
            LineRole::Message { context, .. } => Some(context),
            _ => None,
        };
        let before = events.len();
        classify_line(catalog, wanted, line, unwrapped, lossy_of, events);
        let found = events[before..].iter().position(|event| matches!(event, Event::Found { .. }));
        self.last_line = Some(found.map(|at| before + at));
        if let Some(context) = context {
            if let Some(wrapped) = self.last_line.flatten().and_then(|at| wrapped_found(events, at)) {
                wrapped.context = Some(context);
            }
        }
    }
}

/// What the envelope said of the match at `at` in `events` (made for a
/// line in no envelope), to carry a trace as its context.
fn wrapped_found(events: &mut [Event], at: usize) -> Option<&mut Wrapped> {
    match events.get_mut(at) {
        Some(Event::Found { wrapped, .. }) => Some(wrapped.get_or_insert_with(|| Box::new(Wrapped::plain()))),
        _ => None,
    }
}

/// Classifies one line (its message, out of its envelope); `lossy_of` is
/// the line's bytes when its text was decoded lossily.
fn classify_line(
    catalog: &Catalog,
    wanted: &Wanted<'_>,
    line: u64,
    unwrapped: LogLine<'_>,
    lossy_of: Option<&[u8]>,
    events: &mut Vec<Event>,
) {
    if let Some(note) = unwrapped.note() {
        events.push(Event::Note { line, note });
    }
    match catalog.find(unwrapped.text()) {
        Some(mut found) => {
            if let Some(bytes) = lossy_of {
                found.span = found.span_in_bytes(bytes);
            }
            let text = wanted.line_text.then(|| Box::from(unwrapped.text()));
            let wrapped = wanted.wrapped.then(|| Wrapped::of(&unwrapped)).flatten();
            events.push(Event::Found { line, found: found.into_owned(), text, wrapped });
        }
        None => {
            if let Some(level) = wanted.unmatched.and_then(|level_of| level_of(&unwrapped)) {
                events.push(Event::Unmatched { line, level, text: unwrapped.text().to_owned() });
            }
        }
    }
}

/// Passes on the results that are next in input order.
fn deliver(
    pending: &mut BTreeMap<u64, Vec<Event>>,
    delivered: &mut u64,
    each: &mut impl FnMut(Delivery) -> io::Result<()>,
) -> io::Result<()> {
    while let Some(events) = pending.remove(delivered) {
        each(Delivery::Events(events))?;
        *delivered += 1;
    }
    Ok(())
}

/// Reads `input` in chunks and classifies them on `workers` threads; `each`
/// gets every chunk's events in input order (skipped long lines are passed on
/// as soon as they are read). Read errors end the input after the events of
/// what was read before them.
pub fn scan(
    catalog: &Catalog,
    input: &mut Input,
    wanted: &Wanted<'_>,
    workers: usize,
    mut each: impl FnMut(Delivery) -> io::Result<()>,
) -> io::Result<()> {
    let too_long = |lines: Vec<u64>| Delivery::Events(lines.into_iter().map(|line| Event::TooLong { line }).collect());
    let mut carry = Vec::new();
    let mut next_line = 1u64;
    if workers <= 1 {
        // The classification counts the chunk's lines (see
        // `Matcher::find_numbered_lines`), not the reader.
        input.count_lines = false;
        loop {
            let (chunk, skipped) = input.next_chunk(&mut carry, &mut next_line, CHUNK)?;
            if !skipped.is_empty() {
                each(too_long(skipped))?;
            }
            let Some(chunk) = chunk else { return Ok(()) };
            let classified = classify(catalog, &chunk, wanted);
            input.lines_counted(&chunk, classified.line_breaks, &mut next_line);
            each(Delivery::Events(classified.events))?;
            if chunk.input_paused {
                each(Delivery::CaughtUp)?;
            }
        }
    }
    let mut read = |input: &mut Input| input.next_chunk(&mut carry, &mut next_line, CHUNK);
    let (work_tx, work_rx) = mpsc::sync_channel::<(u64, Chunk)>(workers * 2);
    let work_rx = std::sync::Mutex::new(work_rx);
    let (done_tx, done_rx) = mpsc::channel::<(u64, Vec<Event>)>();
    std::thread::scope(|scope| {
        for _ in 0..workers {
            let (work_rx, done_tx) = (&work_rx, done_tx.clone());
            scope.spawn(move || loop {
                let job = work_rx.lock().expect("no worker panics").recv();
                let Ok((seq, chunk)) = job else { return };
                if done_tx.send((seq, classify(catalog, &chunk, wanted).events)).is_err() {
                    return;
                }
            });
        }
        drop(done_tx);
        // Results arrive in any order; they are passed on in input order.
        let mut pending: BTreeMap<u64, Vec<Event>> = BTreeMap::new();
        let (mut sent, mut delivered) = (0u64, 0u64);
        let mut outcome = Ok(());
        loop {
            let (chunk, skipped) = match read(input) {
                Ok(read) => read,
                Err(err) => {
                    outcome = Err(err);
                    (None, Vec::new())
                }
            };
            if !skipped.is_empty() {
                each(too_long(skipped))?;
            }
            let Some(chunk) = chunk else { break };
            // Keep the number of chunks in flight bounded.
            while sent - delivered >= (workers * 4) as u64 {
                let (seq, events) = done_rx.recv().expect("workers are running");
                pending.insert(seq, events);
                deliver(&mut pending, &mut delivered, &mut each)?;
            }
            let input_paused = chunk.input_paused;
            work_tx.send((sent, chunk)).expect("workers are running");
            sent += 1;
            while let Ok((seq, events)) = done_rx.try_recv() {
                pending.insert(seq, events);
            }
            deliver(&mut pending, &mut delivered, &mut each)?;
            if input_paused {
                // The writer is quiet: nothing is lost by waiting for the
                // chunks in flight, and their matches are due now.
                while delivered < sent {
                    let (seq, events) = done_rx.recv().expect("workers are running");
                    pending.insert(seq, events);
                    deliver(&mut pending, &mut delivered, &mut each)?;
                }
                each(Delivery::CaughtUp)?;
            }
        }
        drop(work_tx);
        while delivered < sent {
            let (seq, events) = done_rx.recv().expect("workers finish their chunks");
            pending.insert(seq, events);
            deliver(&mut pending, &mut delivered, &mut each)?;
        }
        outcome
    })
}

#[cfg(all(test, unix))]
mod tests {
    use std::fs::File;
    use std::io::Write;
    use std::path::{Path, PathBuf};

    use error_catalog::nats_server::NatsServerError;

    use super::*;
    use crate::input;

    /// A line that the embedded catalog matches.
    const LINE: &[u8] = b"unable to persist session \"a\" (seq=1): timeout\n";

    fn catalog() -> Catalog {
        Catalog::from_entries(NatsServerError::entries().to_vec())
    }

    const WANTED: Wanted<'static> =
        Wanted { unmatched: None, line_text: false, wrapped: false, envelope: Envelope::None };

    /// About `bytes` of matching lines.
    fn log(dir: &Path, bytes: usize) -> PathBuf {
        let path = dir.join("scanned.log");
        std::fs::write(&path, LINE.repeat(bytes / LINE.len())).unwrap();
        path
    }

    /// Truncates `path` in place, as `copytruncate` does, and writes `then`
    /// at its start.
    fn copytruncate(path: &Path, then: &[u8]) {
        let mut file = File::options().write(true).open(path).unwrap();
        file.set_len(0).unwrap();
        file.write_all(then).unwrap();
    }

    /// Scans `input` with `workers`, calling `each_chunk` after each chunk's
    /// events are delivered: the lines found, in order.
    fn found_lines(input: &mut Input, workers: usize, mut each_chunk: impl FnMut()) -> io::Result<Vec<u64>> {
        let mut found = Vec::new();
        scan(&catalog(), input, &WANTED, workers, |delivery| {
            if let Delivery::Events(events) = delivery {
                found.extend(events.iter().filter_map(|event| match event {
                    Event::Found { line, .. } => Some(*line),
                    _ => None,
                }));
                each_chunk();
            }
            Ok(())
        })
        .map(|()| found)
    }

    #[test]
    fn a_log_truncated_while_it_is_scanned_ends_after_the_lines_read_before() {
        let dir = tempfile::tempdir().unwrap();
        for workers in [1, 3] {
            // Truncated once its first chunk is classified, and written
            // again: the reader is past the new end, so the scan ends there,
            // without an error, having reported every line it read.
            let path = log(dir.path(), 20 << 20);
            let mut input = input::open(&path).unwrap();
            let mut truncated = false;
            let found = found_lines(&mut input, workers, || {
                if !truncated {
                    copytruncate(&path, &LINE.repeat(3));
                    truncated = true;
                }
            })
            .unwrap();
            assert!(truncated);
            let first_chunk = (CHUNK / LINE.len()) as u64;
            assert!(found.len() as u64 >= first_chunk, "{workers} workers: {} lines", found.len());
            assert_eq!(
                found,
                (1..=found.len() as u64).collect::<Vec<_>>(),
                "{workers} workers: every line read, in order"
            );
            assert!(found.len() < (20 << 20) / LINE.len(), "{workers} workers: the scan stopped at the cut");
        }
    }

    #[test]
    fn a_log_truncated_before_its_first_chunk_gives_no_lines_and_no_error() {
        let dir = tempfile::tempdir().unwrap();
        for workers in [1, 3] {
            let path = log(dir.path(), 3 * CHUNK);
            let mut input = input::open(&path).unwrap();
            copytruncate(&path, b"");
            assert!(!input.looks_binary().unwrap());
            assert!(input.is_empty().unwrap());
            assert_eq!(found_lines(&mut input, workers, || {}).unwrap(), Vec::<u64>::new(), "{workers} workers");
        }
    }

    #[test]
    fn a_chunk_classified_after_its_file_is_truncated_keeps_its_lines() {
        let dir = tempfile::tempdir().unwrap();
        let path = log(dir.path(), 3 * CHUNK);
        let mut input = input::open(&path).unwrap();
        let (mut carry, mut next_line) = (Vec::new(), 1);
        let chunk = input.next_chunk(&mut carry, &mut next_line, CHUNK).unwrap().0.unwrap();
        let before = classify(&catalog(), &chunk, &WANTED);
        copytruncate(&path, b"");
        let after = classify(&catalog(), &chunk, &WANTED);
        assert_eq!(after.line_breaks, before.line_breaks);
        assert_eq!(after.events.len(), before.events.len());
        assert_eq!(after.events.len() as u64, after.line_breaks, "every line matches");
        assert!(after.line_breaks >= (CHUNK / LINE.len()) as u64);
    }
}
