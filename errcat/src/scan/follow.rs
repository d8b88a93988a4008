//! `errcat scan --follow`: keep reading log files as they grow, like
//! `tail -F`, until Ctrl-C or SIGTERM, then print the summary.
//!
//! Each file is checked every [`INTERVAL`] by polling: read what was appended
//! to the open file, then `stat` the path. A different file at the path
//! (logrotate renamed the old one and created a new one) is read from its
//! start once the old one has been read to its end; a file smaller than what
//! was read from it was truncated in place (copytruncate) and is read again
//! from its start; a path that is missing is waited for. Polling keeps the
//! code portable and simple; its cost is a `stat` and a `read` per file per
//! interval, so an idle `errcat` uses next to no CPU.
//!
//! Each file's envelope is chosen from its first lines (a file that replaces
//! it, or the file truncated, from its own), and the last pieces of a
//! container line wait up to [`PIECE_WAIT`](crate::input::PIECE_WAIT) for
//! the rest of it, so that a line written in pieces at different times is
//! classified once, whole.
//!
//! A truncation is seen only when the file is found smaller than the point
//! reached: lines written after a truncation and beyond that point before the
//! next check are missed (as with `tail -F`).
//!
//! This is a source of lines and nothing more: [`Follower`] yields the
//! chunks of whole lines read and the problems met, in order, and knows
//! nothing of classification or reports; the scan consumes them (see
//! `scan::live`) and passes what it finds to its sinks (the report, the
//! metrics).

use std::collections::VecDeque;
use std::fs::{self, File};
use std::io::{self, BufRead, BufReader, Seek, SeekFrom};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use error_catalog::Envelope;

use crate::input::{self, Chunk, Input, CHUNK};
use crate::metrics::Problem;

/// How often the files are checked when nothing new was read.
pub const INTERVAL: Duration = Duration::from_millis(100);

/// What a live source yields.
pub enum Item {
    /// Whole lines read from input number `input`, in `envelope`.
    Lines { input: usize, chunk: Chunk, envelope: Envelope },
    /// Lines longer than [`MAX_LINE`](crate::input::MAX_LINE), skipped.
    TooLong { input: usize, lines: Vec<u64> },
    /// A problem with an input, to report; the exit status says trouble.
    Problem { problem: Problem, message: String },
    /// Everything there is to read now has been read: the moment to flush.
    CaughtUp,
}

/// Follows files as they grow, through rotation and truncation, until
/// `stop` is set: an iterator of [`Item`]s that blocks (sleeping
/// [`INTERVAL`]) while nothing is written. Once `stop` is set, what was
/// written before is still read, a chunk at most per file, and the
/// iteration ends.
pub struct Follower {
    files: Vec<Followed>,
    stop: Arc<AtomicBool>,
    /// Items found but not yet yielded (problems met on opening a file).
    queued: VecDeque<Item>,
    /// The file being read in this round.
    cursor: usize,
    /// Whether this round has read anything.
    read_any: bool,
    /// Whether this round started after `stop` was set: it is the last.
    stopping: bool,
    /// The round's [`Item::CaughtUp`] has been yielded.
    caught_up: bool,
}

impl Follower {
    /// Starts following `paths` from their ends (or starts): input number
    /// `n` of the items is `paths[n]`; their lines are in `envelope`, or
    /// (`None`) in the one each file's first lines are in. A path that
    /// cannot be followed yields a problem first and is left out.
    pub fn new(paths: &[PathBuf], from_start: bool, envelope: Option<Envelope>, stop: Arc<AtomicBool>) -> Follower {
        let mut queued = VecDeque::new();
        let files = paths
            .iter()
            .enumerate()
            .map(|(input, path)| Followed::start(input, path, from_start, envelope.clone(), &mut queued))
            .collect();
        Follower { files, stop, queued, cursor: 0, read_any: false, stopping: false, caught_up: false }
    }
}

impl Iterator for Follower {
    type Item = Item;

    fn next(&mut self) -> Option<Item> {
        loop {
            if let Some(item) = self.queued.pop_front() {
                return Some(item);
            }
            if self.cursor == self.files.len() {
                if !self.caught_up {
                    self.caught_up = true;
                    return Some(Item::CaughtUp);
                }
                if self.stopping {
                    return None;
                }
                if !self.read_any {
                    std::thread::sleep(INTERVAL);
                }
                // What was written before the signal is still read, once.
                self.stopping = self.stop.load(Ordering::Relaxed);
                (self.cursor, self.read_any, self.caught_up) = (0, false, false);
                continue;
            }
            let stop = self.stop.load(Ordering::Relaxed);
            let file = &mut self.files[self.cursor];
            match file.step(stop, &mut self.queued) {
                Step::Read(item) => {
                    self.read_any = true;
                    return Some(item);
                }
                Step::Again => continue,
                Step::Done => self.cursor += 1,
            }
        }
    }
}

/// What one step of reading a followed path gave.
enum Step {
    /// Lines (or skipped lines) read.
    Read(Item),
    /// Something changed (problems may be queued): step again.
    Again,
    /// Nothing more to read from this path in this round.
    Done,
}

/// A path being followed.
struct Followed {
    input: usize,
    path: PathBuf,
    label: String,
    /// The envelope of the lines, if chosen.
    chosen: Option<Envelope>,
    /// The file now read, if the path has had one since the start.
    current: Option<Current>,
    /// A problem with the path, told once (until it changes).
    problem: Option<String>,
    /// Left out: it cannot be followed.
    refused: bool,
    /// The file read has been replaced at the path: once the old one is
    /// read to its end (unfinished last line included), the new one is
    /// opened.
    replaced: bool,
    /// Read a chunk since the path was last checked (with `stop` set, one
    /// chunk ends the round for the file).
    read_since_check: bool,
}

/// The file being read at a followed path.
struct Current {
    input: Input,
    identity: Identity,
    /// The offset in the file where reading started.
    start: u64,
    /// The start of a line whose end is still to come.
    unfinished: Vec<u8>,
    /// The number of the next line to be read.
    next_line: u64,
}

impl Followed {
    /// Opens `path` at its end (or its start), counting the lines before that
    /// point so that the line numbers reported are the file's. A missing file
    /// is waited for; a directory or a compressed file is refused.
    fn start(
        input: usize,
        path: &Path,
        from_start: bool,
        chosen: Option<Envelope>,
        queued: &mut VecDeque<Item>,
    ) -> Followed {
        let label = path.display().to_string();
        let mut followed = Followed {
            input,
            path: path.to_owned(),
            label: label.clone(),
            chosen,
            current: None,
            problem: None,
            refused: false,
            replaced: false,
            read_since_check: false,
        };
        let mut refuse = |problem, message: String| {
            queued.push_back(Item::Problem { problem, message });
            true
        };
        if path.extension().is_some_and(|extension| extension == "gz") {
            followed.refused = refuse(
                Problem::NotFollowable,
                format!("{label}: a compressed file cannot be followed; scan it without --follow"),
            );
            return followed;
        }
        match fs::metadata(path) {
            Ok(metadata) if metadata.is_dir() => {
                followed.refused =
                    refuse(Problem::NotFollowable, format!("{label}: is a directory (give the log files in it)"));
            }
            Ok(_) => {
                match open(path, if from_start { Position::Start } else { Position::End }, followed.chosen.as_ref()) {
                    Ok(current) => {
                        eprintln!("errcat: following {label} from line {}", current.next_line);
                        followed.current = Some(current);
                    }
                    Err(err) => {
                        followed.refused =
                            refuse(Problem::Unreadable, format!("{label}: cannot open: {}", input::io_message(&err)));
                    }
                }
            }
            Err(err) if err.kind() == io::ErrorKind::NotFound => {
                eprintln!("errcat: {label}: not found; following it when it appears");
                followed.problem = Some(input::io_message(&err));
            }
            Err(err) => {
                followed.refused =
                    refuse(Problem::Unreadable, format!("{label}: cannot open: {}", input::io_message(&err)));
            }
        }
        followed
    }

    /// Reads the next chunk of what the file has gained; when it has
    /// nothing more, looks for a new file at the path or a truncation.
    fn step(&mut self, stop: bool, queued: &mut VecDeque<Item>) -> Step {
        if self.refused {
            return Step::Done;
        }
        if let (true, Some(current)) = (stop, &mut self.current) {
            // Pieces of a line wait no more: the rest of it will not be read.
            current.input.piece_wait = Duration::ZERO;
        }
        if stop && self.read_since_check {
            // Stopping: a chunk per file is all that is still read.
            self.read_since_check = false;
            return Step::Done;
        }
        if let Some(item) = self.read_current(queued) {
            self.read_since_check = true;
            return Step::Read(item);
        }
        if !queued.is_empty() {
            // A read error: told before anything else.
            return Step::Again;
        }
        self.read_since_check = false;
        if self.replaced {
            // The old file is read to its end: on to the new one.
            self.replaced = false;
            eprintln!("errcat: {}: replaced by a new file; reading it from its start", self.label);
            self.reopen_from_start(queued);
            return Step::Again;
        }
        let found = match fs::metadata(&self.path) {
            Ok(metadata) if metadata.is_file() => metadata,
            Ok(_) => {
                // Not a file (yet): keep reading the old one, if any.
                self.note_problem("not a regular file");
                return Step::Done;
            }
            Err(err) => {
                // Rotated away and not recreated yet, or never there: the old
                // file, if any, may still be written to.
                self.note_problem(&input::io_message(&err));
                return Step::Done;
            }
        };
        self.problem = None;
        match &mut self.current {
            Some(current) if current.identity == Identity::of(&found) => {
                if found.len() >= current.start + current.input.bytes_read {
                    return Step::Done;
                }
                eprintln!("errcat: {}: truncated; reading it from its start", self.label);
                self.reopen_from_start(queued);
                Step::Again
            }
            Some(current) => {
                // Whatever was written to the old file before the new one
                // appeared, including an unfinished last line, is read first.
                current.input.hold_unfinished_line = false;
                self.replaced = true;
                Step::Again
            }
            None => {
                eprintln!("errcat: {}: appeared; reading it from its start", self.label);
                self.reopen_from_start(queued);
                Step::Again
            }
        }
    }

    /// Tells a problem with the path on stderr, once until it changes.
    fn note_problem(&mut self, problem: &str) {
        if self.problem.as_deref() != Some(problem) {
            eprintln!("errcat: {}: {problem}; following it when it appears", self.label);
            self.problem = Some(problem.to_owned());
        }
    }

    fn reopen_from_start(&mut self, queued: &mut VecDeque<Item>) {
        self.current = match open(&self.path, Position::Start, self.chosen.as_ref()) {
            Ok(current) => Some(current),
            Err(err) if err.kind() == io::ErrorKind::NotFound => None,
            Err(err) => {
                let message = format!("{}: cannot open: {}", self.label, input::io_message(&err));
                queued.push_back(Item::Problem { problem: Problem::Unreadable, message });
                None
            }
        };
    }

    /// The next chunk of whole lines the current file has gained (or the
    /// lines skipped as too long), if any; a read error is queued and ends
    /// the file.
    fn read_current(&mut self, queued: &mut VecDeque<Item>) -> Option<Item> {
        let current = self.current.as_mut()?;
        match current.input.next_chunk(&mut current.unfinished, &mut current.next_line, CHUNK) {
            Ok((chunk, skipped)) => {
                let input = self.input;
                if let Some(chunk) = chunk {
                    let envelope = current.input.envelope().clone();
                    if !skipped.is_empty() {
                        queued.push_back(Item::Lines { input, chunk, envelope });
                        return Some(Item::TooLong { input, lines: skipped });
                    }
                    return Some(Item::Lines { input, chunk, envelope });
                }
                (!skipped.is_empty()).then_some(Item::TooLong { input, lines: skipped })
            }
            Err(err) => {
                let message = format!("{}: {}", self.label, input::io_message(&err));
                self.current = None;
                queued.push_back(Item::Problem { problem: Problem::ReadError, message });
                None
            }
        }
    }
}

/// Where reading a file starts.
enum Position {
    Start,
    /// After its last whole line.
    End,
}

/// Opens `path` for following from `position`, its lines in `envelope`,
/// or (`None`) in the one its first whole lines read are in.
fn open(path: &Path, position: Position, envelope: Option<&Envelope>) -> io::Result<Current> {
    let mut file = File::open(path)?;
    let identity = Identity::of(&file.metadata()?);
    let (start, lines_before) = match position {
        Position::Start => (0, 0),
        Position::End => {
            let (end, lines) = end_of_last_line(&mut file)?;
            file.seek(SeekFrom::Start(end))?;
            (end, lines)
        }
    };
    let mut input = input::followed(path.display().to_string(), file);
    input.choose_envelope_when_read(envelope);
    Ok(Current { input, identity, start, unfinished: Vec::new(), next_line: lines_before + 1 })
}

/// The offset just after the last line break of `file`, and the number of
/// lines before it. An unfinished last line is read when it is finished.
fn end_of_last_line(file: &mut File) -> io::Result<(u64, u64)> {
    let mut reader = BufReader::with_capacity(CHUNK, file);
    let (mut offset, mut end, mut lines) = (0u64, 0u64, 0u64);
    loop {
        let buffer = reader.fill_buf()?;
        if buffer.is_empty() {
            return Ok((end, lines));
        }
        lines += memchr::memchr_iter(b'\n', buffer).count() as u64;
        if let Some(last) = memchr::memrchr(b'\n', buffer) {
            end = offset + last as u64 + 1;
        }
        let length = buffer.len();
        offset += length as u64;
        reader.consume(length);
    }
}

/// What tells a file apart from another at the same path.
#[derive(Clone, Copy, PartialEq, Eq)]
struct Identity {
    device: u64,
    inode: u64,
}

impl Identity {
    #[cfg(unix)]
    fn of(metadata: &fs::Metadata) -> Identity {
        use std::os::unix::fs::MetadataExt;
        Identity { device: metadata.dev(), inode: metadata.ino() }
    }

    /// Without inodes, a file is told apart by its creation time.
    #[cfg(not(unix))]
    fn of(metadata: &fs::Metadata) -> Identity {
        let created = metadata.created().ok().and_then(|time| time.duration_since(std::time::UNIX_EPOCH).ok());
        Identity { device: 0, inode: created.map_or(0, |time| time.as_nanos() as u64) }
    }
}

#[cfg(all(test, unix))]
mod tests {
    use std::io::Write;

    use super::*;

    fn append(path: &Path, text: &str) {
        fs::OpenOptions::new().create(true).append(true).open(path).unwrap().write_all(text.as_bytes()).unwrap();
    }

    /// The items of one round, chunks as (input, first line, text).
    fn round(follower: &mut Follower) -> Vec<(usize, u64, String)> {
        let mut lines = Vec::new();
        for item in follower.by_ref() {
            match item {
                Item::Lines { input, chunk, .. } => {
                    lines.push((input, chunk.first_line, String::from_utf8(chunk.data.to_vec()).unwrap()))
                }
                Item::CaughtUp => return lines,
                Item::TooLong { .. } | Item::Problem { .. } => panic!("an unexpected item"),
            }
        }
        lines
    }

    #[test]
    fn yields_the_lines_written_through_a_rotation_and_a_truncation() {
        let dir = tempfile::tempdir().unwrap();
        let (log, other) = (dir.path().join("a.log"), dir.path().join("b.log"));
        append(&log, "old 1\nold 2\nunfinished");
        let stop = Arc::new(AtomicBool::new(false));
        let mut follower = Follower::new(&[log.clone(), other.clone()], false, None, Arc::clone(&stop));
        assert_eq!(round(&mut follower), []);
        append(&log, " line\nnew\n");
        assert_eq!(round(&mut follower), [(0, 3, "unfinished line\nnew\n".to_owned())]);

        // Renamed, the last line of the old file unfinished; a new file.
        fs::rename(&log, dir.path().join("a.log.1")).unwrap();
        append(&dir.path().join("a.log.1"), "last of old");
        append(&log, "first of new\n");
        append(&other, "b\n");
        let lines = round(&mut follower);
        assert_eq!(
            lines,
            [(0, 5, "last of old".to_owned()), (0, 1, "first of new\n".to_owned()), (1, 1, "b\n".to_owned())]
        );

        // Truncated in place and written again.
        fs::OpenOptions::new().write(true).open(&log).unwrap().set_len(0).unwrap();
        assert_eq!(round(&mut follower), []);
        append(&log, "again\n");
        assert_eq!(round(&mut follower), [(0, 1, "again\n".to_owned())]);

        // Stopped: what was written before is read, then the iteration ends.
        append(&log, "before the stop\n");
        stop.store(true, Ordering::Relaxed);
        assert_eq!(round(&mut follower), [(0, 2, "before the stop\n".to_owned())]);
        assert!(follower.next().is_none());
    }

    #[test]
    fn paths_that_cannot_be_followed_are_problems_and_left_out() {
        let dir = tempfile::tempdir().unwrap();
        let paths = [dir.path().join("x.log.gz"), dir.path().to_owned()];
        let stop = Arc::new(AtomicBool::new(true));
        let problems: Vec<(Problem, String)> = Follower::new(&paths, false, None, stop)
            .filter_map(|item| match item {
                Item::Problem { problem, message } => Some((problem, message)),
                _ => None,
            })
            .collect();
        assert_eq!(problems.len(), 2);
        assert!(problems.iter().all(|(problem, _)| *problem == Problem::NotFollowable));
        assert!(problems[0].1.ends_with("x.log.gz: a compressed file cannot be followed; scan it without --follow"));
        assert!(problems[1].1.ends_with(": is a directory (give the log files in it)"));
    }
}
