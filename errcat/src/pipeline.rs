//! The scanning pipeline of `errcat scan`: an input read in chunks of whole
//! lines, each classified by the runtime's [`ChunkClassifier`] on a pool of
//! worker threads, the results passed on in input order, a few chunks per
//! worker in flight at most (see "errcat's scan pipeline" in `docs/design.md`).

use std::collections::BTreeMap;
use std::io;
use std::sync::mpsc;

pub use error_catalog::LevelOf;
use error_catalog::{ChunkClassifier, ScanEvent};

use crate::input::{Chunk, Input, CHUNK};

/// Something found in a chunk, in line order (lines too long are told by
/// the reader as they are skipped).
pub type Event = ScanEvent;

/// What the pipeline passes on, in input order.
pub enum Delivery {
    Events(Vec<Event>),
    /// Everything read so far has been delivered and the input is waiting
    /// for its writer: the moment to flush the output.
    CaughtUp,
}

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
    classifier: &ChunkClassifier<'_>,
    input: &mut Input,
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
            let classified = classifier.classify(&chunk.data, chunk.first_line);
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
                if done_tx.send((seq, classifier.classify(&chunk.data, chunk.first_line).events)).is_err() {
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
    use error_catalog::{Catalog, Envelope, Found, ScanOptions};

    use super::*;
    use crate::input;

    /// A line that the embedded catalog matches.
    const LINE: &[u8] = b"unable to persist session \"a\" (seq=1): timeout\n";

    fn catalog() -> Catalog {
        Catalog::from_entries(NatsServerError::entries().to_vec())
    }

    const OPTIONS: ScanOptions<'static> =
        ScanOptions { envelope: Envelope::None, unmatched: None, line_text: false, details: false };

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
        let catalog = catalog();
        scan(&ChunkClassifier::new(&catalog, OPTIONS.clone()), input, workers, |delivery| {
            if let Delivery::Events(events) = delivery {
                found.extend(events.iter().filter_map(|event| match event {
                    Event::Found(Found { line, .. }) => Some(*line),
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
        let catalog = catalog();
        let classifier = ChunkClassifier::new(&catalog, OPTIONS.clone());
        let before = classifier.classify(&chunk.data, chunk.first_line);
        copytruncate(&path, b"");
        let after = classifier.classify(&chunk.data, chunk.first_line);
        assert_eq!(after.line_breaks, before.line_breaks);
        assert_eq!(after.events.len(), before.events.len());
        assert_eq!(after.events.len() as u64, after.line_breaks, "every line matches");
        assert!(after.line_breaks >= (CHUNK / LINE.len()) as u64);
    }
}
