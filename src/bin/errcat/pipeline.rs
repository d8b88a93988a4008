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

use std::collections::BTreeMap;
use std::io;
use std::ops::Range;
use std::sync::{mpsc, Arc};

use error_catalog::{Catalog, Match};

use crate::guarded_map::GuardedMap;
use crate::input::{self, Input};

/// Bytes per chunk (whole lines are added up to this size).
pub const CHUNK: usize = 1 << 20;

/// A run of whole lines of an input.
pub struct Chunk {
    /// 1-based number of the chunk's first line.
    pub first_line: u64,
    pub data: Lines,
    /// The chunk ended because the input had nothing more for now.
    pub input_paused: bool,
}

/// The bytes of a chunk: read into memory, or a range of a mapped file
/// (see [`Input`]), which the chunk keeps mapped until it is dropped on
/// whichever thread classified it.
pub enum Lines {
    Read(Vec<u8>),
    Mapped { map: Arc<GuardedMap>, range: Range<usize> },
}

impl Lines {
    /// Whether the file was cut short under the mapping, so that these
    /// bytes may be zeros instead of the file's (see [`GuardedMap`]).
    fn cut_short(&self) -> bool {
        matches!(self, Lines::Mapped { map, range } if map.cut_short(range.end))
    }
}

impl std::ops::Deref for Lines {
    type Target = [u8];

    fn deref(&self) -> &[u8] {
        match self {
            Lines::Read(bytes) => bytes,
            Lines::Mapped { map, range } => &map[range.clone()],
        }
    }
}

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
        /// The whole line, when [`Wanted::line_text`] (lossily decoded if it
        /// is not UTF-8; `found.span` is then in the original bytes).
        text: Option<Box<str>>,
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
}

/// Gives the level of a line (`ERR`, ...) when it is one of those wanted.
pub type LevelOf<'f> = dyn Fn(&str) -> Option<String> + Sync + 'f;

/// What to look for besides matches.
pub struct Wanted<'a> {
    /// The level of a line to report when it matches nothing, if wanted.
    pub unmatched: Option<&'a LevelOf<'a>>,
    /// Whether matches carry their line's text (for `--html`).
    pub line_text: bool,
}

/// What a chunk holds.
pub struct Classified {
    pub events: Vec<Event>,
    /// The chunk's line breaks.
    pub line_breaks: u64,
}

/// Classifies one chunk; an error if its file was truncated under its
/// mapping, which may have made it read zeros instead of the file's lines
/// (checked once done, as that is caught while reading).
pub fn classify(catalog: &Catalog, chunk: &Chunk, wanted: &Wanted<'_>) -> io::Result<Classified> {
    let mut events = Vec::new();
    // The matcher numbers the lines and checks that they are UTF-8 in its
    // own pass over the chunk.
    let scanned = wanted.unmatched.is_none().then(|| {
        catalog.matcher().find_numbered_lines_in(&chunk.data, |number, range, found| {
            let line = chunk.first_line + number as u64;
            let text = wanted.line_text.then(|| String::from_utf8_lossy(&chunk.data[range]).into());
            events.push(Event::Found { line, found: found.into_owned(), text });
        })
    });
    let line_breaks = match scanned.flatten() {
        Some(line_breaks) => line_breaks as u64,
        None => {
            events.clear();
            // Line by line: needed for unmatched lines and invalid UTF-8.
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
                match catalog.find(&text) {
                    Some(mut found) => {
                        if let std::borrow::Cow::Owned(_) = text {
                            found.span = found.span_in_bytes(bytes);
                        }
                        let text = wanted.line_text.then(|| Box::from(&*text));
                        events.push(Event::Found { line, found: found.into_owned(), text });
                    }
                    None => {
                        if let Some(level) = wanted.unmatched.and_then(|level_of| level_of(&text)) {
                            events.push(Event::Unmatched { line, level, text: text.into_owned() });
                        }
                    }
                }
            }
            memchr::memchr_iter(b'\n', &chunk.data).count() as u64
        }
    };
    if chunk.data.cut_short() {
        return Err(input::truncated(chunk.first_line));
    }
    Ok(Classified { events, line_breaks })
}

/// Passes on the results that are next in input order.
fn deliver(
    pending: &mut BTreeMap<u64, io::Result<Vec<Event>>>,
    delivered: &mut u64,
    each: &mut impl FnMut(Delivery) -> io::Result<()>,
) -> io::Result<()> {
    while let Some(events) = pending.remove(delivered) {
        each(Delivery::Events(events?))?;
        *delivered += 1;
    }
    Ok(())
}

/// Reads `input` in chunks and classifies them on `workers` threads; `each`
/// gets every chunk's events in input order (skipped long lines are passed on
/// as soon as they are read). Read errors end the input after the events of
/// what was read before them, as does a truncation under the mapping of the
/// file, after the events of the chunks classified before it.
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
            let classified = classify(catalog, &chunk, wanted)?;
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
    let (done_tx, done_rx) = mpsc::channel::<(u64, io::Result<Vec<Event>>)>();
    std::thread::scope(|scope| {
        for _ in 0..workers {
            let (work_rx, done_tx) = (&work_rx, done_tx.clone());
            scope.spawn(move || loop {
                let job = work_rx.lock().expect("no worker panics").recv();
                let Ok((seq, chunk)) = job else { return };
                if done_tx.send((seq, classify(catalog, &chunk, wanted).map(|classified| classified.events))).is_err() {
                    return;
                }
            });
        }
        drop(done_tx);
        // Results arrive in any order; they are passed on in input order.
        let mut pending: BTreeMap<u64, io::Result<Vec<Event>>> = BTreeMap::new();
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
    use std::path::{Path, PathBuf};

    use error_catalog::nats_server::NatsServerError;

    use super::*;

    /// A line that the embedded catalog matches.
    const LINE: &[u8] = b"unable to persist session \"a\" (seq=1): timeout\n";

    fn catalog() -> Catalog {
        Catalog::from_entries(NatsServerError::entries().to_vec())
    }

    const WANTED: Wanted<'static> = Wanted { unmatched: None, line_text: false };

    /// About `bytes` of matching lines, in a file nobody has written for an
    /// hour (so it is mapped).
    fn quiet_log(dir: &Path, bytes: usize) -> PathBuf {
        input::tests::log(dir, "quiet.log", &LINE.repeat(bytes / LINE.len()), input::tests::OLD)
    }

    fn truncate(path: &Path) {
        File::options().write(true).open(path).unwrap().set_len(0).unwrap();
    }

    fn opened(path: &Path) -> Input {
        let input = input::open(path).unwrap();
        assert!(input.is_mapped(), "a quiet file is mapped");
        input
    }

    #[test]
    fn a_file_truncated_between_chunks_ends_in_an_error_after_the_lines_before() {
        let dir = tempfile::tempdir().unwrap();
        // Within the first window, and in a file of several: reading on
        // after the cut then finds no line break before the window's end.
        for bytes in [3 * CHUNK, 20 << 20] {
            let path = quiet_log(dir.path(), bytes);
            let mut input = opened(&path);
            let mut found = Vec::new();
            let err = scan(&catalog(), &mut input, &WANTED, 1, |delivery| {
                if let Delivery::Events(events) = delivery {
                    if found.is_empty() {
                        truncate(&path);
                    }
                    found.extend(events.iter().filter_map(|event| match event {
                        Event::Found { line, .. } => Some(*line),
                        _ => None,
                    }));
                }
                Ok(())
            })
            .unwrap_err();
            let first_chunk = (CHUNK / LINE.len()) as u64;
            assert_eq!(found, (1..=first_chunk).collect::<Vec<_>>(), "{bytes} bytes: the first chunk's lines");
            assert_eq!(err.to_string(), input::truncated(first_chunk + 1).to_string(), "{bytes} bytes");
        }
    }

    #[test]
    fn a_chunk_whose_file_is_truncated_before_it_is_classified_gives_an_error() {
        let dir = tempfile::tempdir().unwrap();
        let path = quiet_log(dir.path(), 3 * CHUNK);
        let mut input = opened(&path);
        let (mut carry, mut next_line) = (Vec::new(), 1);
        let (chunk, _) = input.next_chunk(&mut carry, &mut next_line, CHUNK).unwrap();
        let chunk = chunk.unwrap();
        assert!(classify(&catalog(), &chunk, &WANTED).is_ok());
        truncate(&path);
        let err = classify(&catalog(), &chunk, &WANTED).err().expect("an error");
        assert_eq!(err.to_string(), input::truncated(1).to_string());
    }

    #[test]
    fn a_file_truncated_before_its_first_chunk_gives_an_error_with_any_number_of_workers() {
        let dir = tempfile::tempdir().unwrap();
        for workers in [1, 3] {
            let path = quiet_log(dir.path(), 3 * CHUNK);
            let mut input = opened(&path);
            truncate(&path);
            let mut delivered = 0;
            let err = scan(&catalog(), &mut input, &WANTED, workers, |delivery| {
                if let Delivery::Events(events) = delivery {
                    delivered += events.len();
                }
                Ok(())
            })
            .unwrap_err();
            assert_eq!(err.to_string(), input::truncated(1).to_string(), "{workers} workers");
            assert_eq!(delivered, 0, "{workers} workers");
        }
    }

    #[test]
    fn a_file_truncated_before_its_start_is_checked_gives_an_error_not_a_binary_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = quiet_log(dir.path(), 3 * CHUNK);
        let mut input = opened(&path);
        truncate(&path);
        assert_eq!(input.looks_binary().unwrap_err().to_string(), input::truncated(1).to_string());
    }
}
