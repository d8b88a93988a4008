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
//! A truncation is seen only when the file is found smaller than the point
//! reached: lines written after a truncation and beyond that point before the
//! next check are missed (as with `tail -F`).

use std::fs::{self, File};
use std::io::{self, BufRead, BufReader, Seek, SeekFrom};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use error_catalog::Catalog;

use super::{self as scan, Options, Report, Source};
use crate::input::CHUNK;
use crate::input::{self, Input};
use crate::pipeline::{self, Event, Wanted};
use crate::style::Out;
use crate::TROUBLE;

/// How often the files are checked when nothing new was read.
pub const INTERVAL: Duration = Duration::from_millis(100);

pub fn run(catalog: &Catalog, files: &[PathBuf], options: &Options, out: &mut Out) -> io::Result<u8> {
    if files.is_empty() || files.iter().any(|path| path == Path::new("-")) {
        eprintln!(
            "errcat: --follow reads files: name them (a pipe is followed without it: `tail -F log | errcat scan`)"
        );
        return Ok(TROUBLE);
    }
    let stop = Arc::new(AtomicBool::new(false));
    for signal in [signal_hook::consts::SIGINT, signal_hook::consts::SIGTERM] {
        signal_hook::flag::register(signal, Arc::clone(&stop))?;
    }
    let mut report = Report::new(catalog, options);
    let unmatched = scan::unmatched_level(&options.unmatched_levels);
    let wanted = Wanted {
        unmatched: (!options.unmatched_levels.is_empty()).then_some(&unmatched as _),
        line_text: false,
        envelope: options.envelope.clone().unwrap_or(error_catalog::Envelope::None),
    };
    let mut followed = Vec::new();
    for path in files {
        if let Some(file) = Followed::start(path, options.from_start, &mut report, out)? {
            followed.push(file);
        }
    }
    let reader = Reader { catalog, wanted: &wanted, stop: &stop };
    loop {
        // What was written before the signal is still read, once.
        let stopping = stop.load(Ordering::Relaxed);
        let mut read_any = false;
        for file in &mut followed {
            read_any |= file.check(&reader, &mut report, out)?;
        }
        out.flush()?;
        if stopping {
            break;
        }
        if !read_any {
            std::thread::sleep(INTERVAL);
        }
    }
    for file in &followed {
        report.end_of(&file.source, out)?;
    }
    report.finish(out)
}

/// What reading needs besides the file.
struct Reader<'a> {
    catalog: &'a Catalog,
    wanted: &'a Wanted<'a>,
    /// Set by Ctrl-C or SIGTERM.
    stop: &'a AtomicBool,
}

/// A path being followed.
struct Followed {
    path: PathBuf,
    source: Source,
    /// The file now read, if the path has had one since the start.
    current: Option<Current>,
    /// A problem with the path, reported once (until it changes).
    problem: Option<String>,
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
    fn start(path: &Path, from_start: bool, report: &mut Report<'_>, out: &mut Out) -> io::Result<Option<Followed>> {
        let label = path.display().to_string();
        if path.extension().is_some_and(|extension| extension == "gz") {
            report.trouble(&format!("{label}: a compressed file cannot be followed; scan it without --follow"), out)?;
            return Ok(None);
        }
        let mut followed =
            Followed { path: path.to_owned(), source: Source::new(&label), current: None, problem: None };
        match fs::metadata(path) {
            Ok(metadata) if metadata.is_dir() => {
                report.trouble(&format!("{label}: is a directory (give the log files in it)"), out)?;
                return Ok(None);
            }
            Ok(_) => match open(path, if from_start { Position::Start } else { Position::End }) {
                Ok(current) => {
                    eprintln!("errcat: following {label} from line {}", current.next_line);
                    followed.current = Some(current);
                }
                Err(err) => {
                    report.trouble(&format!("{label}: cannot open: {}", input::io_message(&err)), out)?;
                    return Ok(None);
                }
            },
            Err(err) if err.kind() == io::ErrorKind::NotFound => {
                eprintln!("errcat: {label}: not found; following it when it appears");
                followed.problem = Some(input::io_message(&err));
            }
            Err(err) => {
                report.trouble(&format!("{label}: cannot open: {}", input::io_message(&err)), out)?;
                return Ok(None);
            }
        }
        Ok(Some(followed))
    }

    /// Reads what the file has gained, then looks for a new file at the
    /// path or a truncation. Whether anything was read.
    fn check(&mut self, reader: &Reader<'_>, report: &mut Report<'_>, out: &mut Out) -> io::Result<bool> {
        let mut read_any = self.read_current(reader, report, out)?;
        let label = self.source.label.clone();
        let found = match fs::metadata(&self.path) {
            Ok(metadata) if metadata.is_file() => metadata,
            Ok(_) => {
                // Not a file (yet): keep reading the old one, if any.
                self.note_problem("not a regular file");
                return Ok(read_any);
            }
            Err(err) => {
                // Rotated away and not recreated yet, or never there: the old
                // file, if any, may still be written to.
                self.note_problem(&input::io_message(&err));
                return Ok(read_any);
            }
        };
        let replaced = match &self.current {
            Some(current) if current.identity == Identity::of(&found) => {
                if found.len() < current.start + current.input.bytes_read {
                    eprintln!("errcat: {label}: truncated; reading it from its start");
                    self.reopen_from_start(report, out)?;
                    read_any = true;
                }
                self.problem = None;
                return Ok(read_any);
            }
            Some(_) => true,
            None => false,
        };
        if replaced {
            // Whatever was written to the old file before the new one
            // appeared, including an unfinished last line, is read first.
            if let Some(current) = &mut self.current {
                current.input.hold_unfinished_line = false;
            }
            self.read_current(reader, report, out)?;
            eprintln!("errcat: {label}: replaced by a new file; reading it from its start");
        } else {
            eprintln!("errcat: {label}: appeared; reading it from its start");
        }
        self.problem = None;
        self.reopen_from_start(report, out)?;
        self.read_current(reader, report, out)?;
        Ok(true)
    }

    /// Reports a problem with the path on stderr, once until it changes.
    fn note_problem(&mut self, problem: &str) {
        if self.problem.as_deref() != Some(problem) {
            eprintln!("errcat: {}: {problem}; following it when it appears", self.source.label);
            self.problem = Some(problem.to_owned());
        }
    }

    fn reopen_from_start(&mut self, report: &mut Report<'_>, out: &mut Out) -> io::Result<()> {
        self.current = match open(&self.path, Position::Start) {
            Ok(current) => Some(current),
            Err(err) if err.kind() == io::ErrorKind::NotFound => None,
            Err(err) => {
                report.trouble(&format!("{}: cannot open: {}", self.source.label, input::io_message(&err)), out)?;
                None
            }
        };
        Ok(())
    }

    /// Reads and reports the whole lines the current file has gained.
    fn read_current(&mut self, reader: &Reader<'_>, report: &mut Report<'_>, out: &mut Out) -> io::Result<bool> {
        let Some(current) = &mut self.current else { return Ok(false) };
        let mut read_any = false;
        loop {
            let (chunk, skipped) =
                match current.input.next_chunk(&mut current.unfinished, &mut current.next_line, CHUNK) {
                    Ok(read) => read,
                    Err(err) => {
                        let message = format!("{}: {}", self.source.label, input::io_message(&err));
                        self.current = None;
                        report.trouble(&message, out)?;
                        return Ok(read_any);
                    }
                };
            let too_long = skipped.into_iter().map(|line| Event::TooLong { line }).collect();
            report.events(&mut self.source, too_long, out)?;
            let Some(chunk) = chunk else { break };
            read_any = true;
            let events = pipeline::classify(reader.catalog, &chunk, reader.wanted).events;
            report.events(&mut self.source, events, out)?;
            if reader.stop.load(Ordering::Relaxed) {
                // Ctrl-C while a long file is read: the summary is due.
                break;
            }
        }
        Ok(read_any)
    }
}

/// Where reading a file starts.
enum Position {
    Start,
    /// After its last whole line.
    End,
}

/// Opens `path` for following from `position`.
fn open(path: &Path, position: Position) -> io::Result<Current> {
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
    let input = input::followed(path.display().to_string(), file);
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
