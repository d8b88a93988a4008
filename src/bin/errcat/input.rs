//! Opening log inputs (files, `.gz` files, standard input) and reading their
//! lines with a bound on line length, so that no input can exhaust memory.
//!
//! Live inputs (pipes, terminals, FIFOs) are read in chunks that end where
//! the writer pauses, so that what has arrived is classified and printed
//! without waiting for a full chunk (see [`Input::next_chunk`]).

use std::fs::File;
use std::io::{self, BufRead, BufReader, IsTerminal, Read};
use std::path::Path;
use std::time::{Duration, Instant};

use flate2::read::MultiGzDecoder;
use indicatif::{ProgressBar, ProgressStyle};

/// Longest line read; longer lines are skipped with an error.
pub const MAX_LINE: usize = 16 << 20;
/// Files larger than this show a progress bar (when stderr is a terminal).
const PROGRESS_FROM: u64 = 4 << 20;
/// How much of the start of an input is checked for NUL bytes.
const BINARY_PROBE: usize = 8 << 10;
/// A live input that stays silent this long ends the chunk being gathered:
/// its writer has paused, so what has arrived is classified now.
const PAUSE: Duration = Duration::from_millis(5);
/// The longest a chunk of a live input gathers lines, even from a writer
/// that never pauses `PAUSE` long (a line every few milliseconds): this
/// bounds how late a match is printed.
const GATHER_AT_MOST: Duration = Duration::from_millis(40);

/// An open input.
pub struct Input {
    /// How the input is named in messages (`<stdin>` for standard input).
    pub label: String,
    reader: Box<dyn BufRead>,
    progress: Option<ProgressBar>,
    /// Skipping the rest of a line longer than [`MAX_LINE`].
    discarding: bool,
    /// A read error held back until the lines read before it are passed on.
    failed: Option<io::Error>,
    /// A pipe, terminal or FIFO: its writer decides when data comes.
    live: Option<LiveSource>,
    /// Bytes taken from the reader so far.
    pub bytes_read: u64,
    /// Keep an unfinished last line for the next call instead of passing it
    /// on at the end of the input (`--follow`: the rest of it is still to be
    /// written).
    pub hold_unfinished_line: bool,
    /// Lines read so far (a last line without a line break counts).
    lines_read: u64,
}

/// Opens `path` (`-` is standard input); `.gz` files are decompressed.
pub fn open(path: &Path) -> Result<Input, String> {
    if path == Path::new("-") {
        let reader = Box::new(BufReader::with_capacity(64 << 10, io::stdin()));
        return Ok(Input::new("<stdin>".to_owned(), reader, None, LiveSource::stdin()));
    }
    let label = path.display().to_string();
    let metadata = std::fs::metadata(path).map_err(|err| format!("{label}: cannot open: {}", io_message(&err)))?;
    if metadata.is_dir() {
        return Err(format!("{label}: is a directory (give the log files in it)"));
    }
    let file = File::open(path).map_err(|err| format!("{label}: cannot open: {}", io_message(&err)))?;
    let live = (!metadata.is_file()).then(|| LiveSource::of(&file));
    let progress = (metadata.len() > PROGRESS_FROM && io::stderr().is_terminal()).then(|| {
        let bar = ProgressBar::new(metadata.len());
        let style = ProgressStyle::with_template("{msg} [{bar:40}] {bytes}/{total_bytes} ({bytes_per_sec})")
            .expect("a valid template")
            .progress_chars("=> ");
        bar.set_style(style);
        bar.set_message(label.clone());
        bar
    });
    let raw: Box<dyn Read> = match &progress {
        Some(bar) => Box::new(bar.wrap_read(file)),
        None => Box::new(file),
    };
    let reader: Box<dyn BufRead> = if path.extension().is_some_and(|e| e == "gz") {
        Box::new(BufReader::with_capacity(64 << 10, MultiGzDecoder::new(BufReader::new(raw))))
    } else {
        Box::new(BufReader::with_capacity(64 << 10, raw))
    };
    Ok(Input::new(label, reader, progress, live))
}

/// An input reading `file` (already positioned) as it grows: `--follow`.
pub fn followed(label: String, file: File) -> Input {
    let mut input = Input::new(label, Box::new(BufReader::with_capacity(64 << 10, file)), None, None);
    input.hold_unfinished_line = true;
    input
}

/// An I/O error without Rust's `(os error N)` suffix.
pub fn io_message(err: &io::Error) -> String {
    let text = err.to_string();
    text.split(" (os error").next().unwrap_or(&text).to_owned()
}

impl Input {
    fn new(label: String, reader: Box<dyn BufRead>, progress: Option<ProgressBar>, live: Option<LiveSource>) -> Self {
        Input {
            label,
            reader,
            progress,
            discarding: false,
            failed: None,
            live,
            bytes_read: 0,
            hold_unfinished_line: false,
            lines_read: 0,
        }
    }

    /// Whether the input starts with a NUL byte in its first few KiB.
    pub fn looks_binary(&mut self) -> io::Result<bool> {
        let start = self.reader.fill_buf()?;
        Ok(start[..start.len().min(BINARY_PROBE)].contains(&0))
    }

    /// Whether the input has no bytes at all.
    pub fn is_empty(&mut self) -> io::Result<bool> {
        Ok(self.reader.fill_buf()?.is_empty())
    }

    /// Reads the next chunk of whole lines, about `size` bytes (the last chunk
    /// may end without a line break). `carry` holds the start of a line read
    /// past the previous chunk; `next_line` is the number of the chunk's first
    /// line and is advanced past it. A line longer than [`MAX_LINE`] is
    /// replaced by an empty line and its number returned, so memory stays
    /// bounded and line numbers stay right.
    ///
    /// A live input's chunk ends early, after its last whole line, when the
    /// writer pauses or the chunk has gathered for [`GATHER_AT_MOST`]; the
    /// chunk is then marked [`input_paused`](crate::pipeline::Chunk::input_paused).
    pub fn next_chunk(
        &mut self,
        carry: &mut Vec<u8>,
        next_line: &mut u64,
        size: usize,
    ) -> io::Result<(Option<crate::pipeline::Chunk>, Vec<u64>)> {
        if let Some(err) = self.failed.take() {
            return Err(err);
        }
        let mut data = std::mem::take(carry);
        // Room for the whole chunk and one more read: growing by doubling
        // would copy the chunk again at each step.
        data.reserve((size + (64 << 10)).saturating_sub(data.len()));
        let mut skipped = Vec::new();
        let mut gathering_since: Option<Instant> = None;
        let mut input_paused = false;
        loop {
            let available = match self.reader.fill_buf() {
                Ok(available) => available,
                Err(err) => {
                    // Pass on the complete lines read so far; the error comes next.
                    data.truncate(memchr::memrchr(b'\n', &data).map_or(0, |i| i + 1));
                    if data.is_empty() {
                        return Err(err);
                    }
                    self.failed = Some(err);
                    break;
                }
            };
            if available.is_empty() {
                if self.hold_unfinished_line {
                    *carry = data.split_off(memchr::memrchr(b'\n', &data).map_or(0, |i| i + 1));
                }
                break;
            }
            let length = available.len();
            if self.discarding {
                match memchr::memchr(b'\n', available) {
                    Some(end) => {
                        self.reader.consume(end + 1);
                        self.bytes_read += end as u64 + 1;
                        data.push(b'\n');
                        self.discarding = false;
                    }
                    None => {
                        self.reader.consume(length);
                        self.bytes_read += length as u64;
                    }
                }
                continue;
            }
            data.extend_from_slice(available);
            self.reader.consume(length);
            self.bytes_read += length as u64;
            let since = *gathering_since.get_or_insert_with(Instant::now);
            let line_start = memchr::memrchr(b'\n', &data).map_or(0, |i| i + 1);
            if data.len() - line_start > MAX_LINE {
                let line = *next_line + memchr::memchr_iter(b'\n', &data[..line_start]).count() as u64;
                skipped.push(line);
                data.truncate(line_start);
                self.discarding = true;
                continue;
            }
            if data.len() >= size && line_start > 0 {
                *carry = data.split_off(line_start);
                break;
            }
            if line_start > 0 && self.live.as_ref().is_some_and(|live| live.paused(since)) {
                *carry = data.split_off(line_start);
                input_paused = true;
                break;
            }
        }
        if data.is_empty() {
            return Ok((None, skipped));
        }
        let first_line = *next_line;
        let line_breaks = memchr::memchr_iter(b'\n', &data).count() as u64;
        *next_line += line_breaks;
        self.lines_read += line_breaks + u64::from(!data.ends_with(b"\n"));
        Ok((Some(crate::pipeline::Chunk { first_line, data, input_paused }), skipped))
    }

    /// Lines read so far.
    pub fn lines_read(&self) -> u64 {
        self.lines_read
    }

    /// Removes the progress bar, if any.
    pub fn finish(&self) {
        if let Some(bar) = &self.progress {
            bar.finish_and_clear();
        }
    }
}

/// The file descriptor of a live input, to ask whether more data is waiting.
struct LiveSource {
    #[cfg(unix)]
    fd: std::os::fd::RawFd,
}

impl LiveSource {
    /// Standard input, unless it is a regular file (`errcat scan < file`).
    fn stdin() -> Option<LiveSource> {
        #[cfg(unix)]
        {
            use std::os::fd::AsFd;
            let regular = io::stdin()
                .as_fd()
                .try_clone_to_owned()
                .and_then(|fd| File::from(fd).metadata())
                .is_ok_and(|metadata| metadata.is_file());
            (!regular).then(|| LiveSource::of(&io::stdin()))
        }
        #[cfg(not(unix))]
        Some(LiveSource {})
    }

    /// `source`, which the input reads for as long as it lives.
    #[cfg(unix)]
    fn of(source: &impl std::os::fd::AsRawFd) -> LiveSource {
        LiveSource { fd: source.as_raw_fd() }
    }

    #[cfg(not(unix))]
    fn of<T>(_: &T) -> LiveSource {
        LiveSource {}
    }

    /// Whether the chunk gathered since `since` should end now: nothing
    /// arrives within [`PAUSE`], or it has gathered long enough.
    fn paused(&self, since: Instant) -> bool {
        let left = GATHER_AT_MOST.saturating_sub(since.elapsed());
        left.is_zero() || !self.readable_within(left.min(PAUSE))
    }

    /// Whether a read would return data (or end of input) within `wait`.
    #[cfg(unix)]
    fn readable_within(&self, wait: Duration) -> bool {
        let mut poll = libc::pollfd { fd: self.fd, events: libc::POLLIN, revents: 0 };
        let millis = libc::c_int::try_from(wait.as_millis().max(1)).unwrap_or(libc::c_int::MAX);
        // SAFETY: one valid `pollfd` for a descriptor the input keeps open.
        let ready = unsafe { libc::poll(&mut poll, 1, millis) };
        // On an error (EINTR...) treat the input as paused: ending the chunk
        // early is always correct, only less efficient.
        ready > 0
    }

    /// Without `poll`, every read of a live input ends the chunk.
    #[cfg(not(unix))]
    fn readable_within(&self, _wait: Duration) -> bool {
        false
    }
}
