//! Opening log inputs (files, `.gz` files, standard input) and reading their
//! lines in chunks, with a bound on line length so that no input can exhaust
//! memory. Reads go straight into reused chunk buffers ([`Lines`]); a live
//! input's chunk ends where its writer pauses ([`Input::next_chunk`]).

use std::fs::File;
use std::io::{self, BufRead, BufReader, IsTerminal, Read};
use std::path::Path;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use error_catalog::Envelope;
use flate2::read::MultiGzDecoder;
use indicatif::{ProgressBar, ProgressStyle};

/// Bytes per chunk (whole lines are added up to this size).
pub const CHUNK: usize = 1 << 20;

/// A run of whole lines of an input, as the pipeline classifies them.
pub struct Chunk {
    /// 1-based.
    pub first_line: u64,
    pub data: Lines,
    /// The chunk ended because the input had nothing more for now.
    pub input_paused: bool,
}

pub use error_catalog::MAX_LINE;
/// Files larger than this show a progress bar (when stderr is a terminal).
const PROGRESS_FROM: u64 = 4 << 20;
/// How much of the start of an input is checked for NUL bytes.
const BINARY_PROBE: usize = 8 << 10;
/// A live input silent this long ends the chunk being gathered.
const PAUSE: Duration = Duration::from_millis(5);
/// Bounds how late a match of a live input is printed, for a writer that
/// never pauses `PAUSE` long.
const GATHER_AT_MOST: Duration = Duration::from_millis(40);
/// The least a read asks for: a chunk has room for this much past its size,
/// so that the read that fills it usually ends past a line break.
const READ: usize = 64 << 10;
/// Buffers kept for reuse, at most (a scan has a few chunks in flight per
/// worker); a buffer grown past [`POOLED_SIZE`] by a long line is dropped.
const POOLED: usize = 64;
const POOLED_SIZE: usize = 4 << 20;

static POOL: Pool = Mutex::new(Vec::new());

pub struct Input {
    /// `<stdin>` for standard input.
    pub label: String,
    reader: Box<dyn BufRead>,
    /// Skipping the rest of a line longer than [`MAX_LINE`].
    discarding: bool,
    /// A read error held back until the lines read before it are passed on.
    failed: Option<io::Error>,
    /// A pipe, terminal or FIFO: its writer decides when data comes.
    live: Option<LiveSource>,
    progress: Option<ProgressBar>,
    pub bytes_read: u64,
    /// Keep an unfinished last line for the next call (`--follow`: the rest
    /// of it is still to be written).
    pub hold_unfinished_line: bool,
    /// A last line without a line break counts.
    lines_read: u64,
    /// Whether [`next_chunk`](Self::next_chunk) counts each chunk's lines
    /// and advances the line number past them; when not, the caller counts
    /// them (while classifying the chunk) and tells
    /// [`lines_counted`](Self::lines_counted) before the next chunk.
    pub count_lines: bool,
    /// How long the pieces of a container line that end what a live input
    /// or a followed file has given so far wait for the rest of their line
    /// (see [`PIECE_WAIT`]); `ZERO` passes them on at once.
    pub piece_wait: Duration,
    waiting: Option<Waiting>,
    envelope: Envelope,
    /// Choosing the envelope from the first whole lines read.
    detecting: bool,
}

/// Pieces of a line held back at the end of what an input has given.
struct Waiting {
    since: Instant,
    /// Where they start in the chunk being gathered.
    at: usize,
}

/// How long the last pieces of a container line wait for the rest of it
/// when a live input pauses: the runtime writes a line's pieces at once, so
/// a piece left alone longer is the last that will come.
pub const PIECE_WAIT: Duration = Duration::from_secs(1);

/// How far a chunk may grow past its size for the pieces of a line (more
/// than the 1 MiB of pieces that are joined into one line).
const PIECES_PAST_CHUNK: usize = 2 << 20;
/// The lines an envelope is chosen from, at most (as [`Envelope::detect`] samples).
const FIRST_LINES: usize = 16;

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
    let compressed = path.extension().is_some_and(|e| e == "gz");
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
    let reader: Box<dyn BufRead> = if compressed {
        Box::new(BufReader::with_capacity(64 << 10, MultiGzDecoder::new(BufReader::new(raw))))
    } else {
        Box::new(BufReader::with_capacity(64 << 10, raw))
    };
    Ok(Input::new(label, reader, progress, live))
}

/// An input reading `file` (already positioned) as it grows: `--follow`.
/// Reads bypass the reader's buffer, so it is small: thousands of files
/// followed take little memory.
pub fn followed(label: String, file: File) -> Input {
    let mut input = Input::new(label, Box::new(BufReader::with_capacity(4 << 10, file)), None, None);
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
            discarding: false,
            failed: None,
            live,
            progress,
            bytes_read: 0,
            hold_unfinished_line: false,
            lines_read: 0,
            count_lines: true,
            piece_wait: PIECE_WAIT,
            waiting: None,
            envelope: Envelope::None,
            detecting: false,
        }
    }

    /// Whether the input starts with a NUL byte in its first few KiB.
    pub fn looks_binary(&mut self) -> io::Result<bool> {
        let start = self.reader.fill_buf()?;
        Ok(start[..start.len().min(BINARY_PROBE)].contains(&0))
    }

    /// Chooses the envelope of the input: `chosen`, or the one its first
    /// lines are in (see [`Envelope::detect`]), from what its first read
    /// gives.
    pub fn choose_envelope(&mut self, chosen: Option<&Envelope>) -> io::Result<Envelope> {
        let envelope = match chosen {
            Some(envelope) => envelope.clone(),
            None => {
                // The whole lines its first read gave (all of it when it holds no line break).
                let start = self.reader.fill_buf()?;
                let whole = memchr::memrchr(b'\n', start).map_or(start, |end| &start[..end]);
                envelope_of(whole).unwrap_or(Envelope::None)
            }
        };
        self.set_envelope(envelope.clone());
        Ok(envelope)
    }

    /// `chosen`, or the one its first whole lines that are not blank are in,
    /// when they come (until then, [`Envelope::None`]).
    pub fn choose_envelope_when_read(&mut self, chosen: Option<&Envelope>) {
        match chosen {
            Some(envelope) => self.set_envelope(envelope.clone()),
            None => self.detecting = true,
        }
    }

    pub fn envelope(&self) -> &Envelope {
        &self.envelope
    }

    pub fn envelope_chosen(&self) -> bool {
        !self.detecting
    }

    fn set_envelope(&mut self, envelope: Envelope) {
        self.detecting = false;
        self.envelope = envelope;
    }

    /// Whether `line` (without its line break) may end a chunk: it is not
    /// the piece of a longer container line (Docker, CRI), whose pieces
    /// must be joined in one chunk. A chunk grows past its size by at most
    /// [`PIECES_PAST_CHUNK`] waiting for such a line.
    fn ends_chunk(&self, line: &[u8]) -> bool {
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        !self.envelope.unwrap(&String::from_utf8_lossy(line)).is_piece()
    }

    fn detect_in(&mut self, whole_lines: &[u8]) {
        if let Some(envelope) = envelope_of(whole_lines) {
            self.set_envelope(envelope);
        }
    }

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
    /// chunk is then marked [`input_paused`](Chunk::input_paused).
    pub fn next_chunk(
        &mut self,
        carry: &mut Vec<u8>,
        next_line: &mut u64,
        size: usize,
    ) -> io::Result<(Option<Chunk>, Vec<u64>)> {
        let mut skipped = Vec::new();
        if let Some(err) = self.failed.take() {
            return Err(err);
        }
        let mut data = Lines::take(&POOL);
        data.extend(carry);
        carry.clear();
        // Where the last line of `data` starts (it may be unfinished).
        let mut line_start = last_line_start(&data, 0);
        // The number of `data`'s first line.
        let first_line = *next_line;
        let mut gathering_since: Option<Instant> = None;
        let mut input_paused = false;
        loop {
            let before = data.len();
            let at_most = (size + READ).saturating_sub(before).clamp(READ, MAX_LINE);
            let read = match data.read_from(&mut self.reader, at_most) {
                Ok(read) => read,
                Err(err) if err.kind() == io::ErrorKind::Interrupted => continue,
                Err(err) => {
                    // Pass on the complete lines read so far; the error comes next.
                    data.truncate(line_start);
                    if data.is_empty() {
                        return Err(err);
                    }
                    self.failed = Some(err);
                    break;
                }
            };
            if read == 0 {
                if self.hold_unfinished_line {
                    // The pieces of a line at the end wait for the rest of it too.
                    let held = self.waiting_pieces(&data, line_start);
                    carry.extend_from_slice(&data[held..]);
                    data.truncate(held);
                    if let Some(waiting) = &mut self.waiting {
                        waiting.at = 0;
                    }
                } else if self.discarding {
                    // A line skipped as too long ends the input: it is no
                    // empty line in a chunk, so count it here.
                    self.discarding = false;
                    self.lines_read += 1;
                }
                break;
            }
            self.bytes_read += read as u64;
            if self.discarding {
                // The rest of a line too long to keep, up to its line break
                // (kept: the line becomes an empty one).
                match memchr::memchr(b'\n', &data[before..]) {
                    Some(end) => {
                        data.remove(before..before + end);
                        self.discarding = false;
                    }
                    None => {
                        data.truncate(before);
                        continue;
                    }
                }
            }
            let since = *gathering_since.get_or_insert_with(Instant::now);
            // Only the line read on from before this read can be longer than
            // [`MAX_LINE`] (a read is at most that long): it is replaced by an
            // empty line if it is.
            if let Some(end) = memchr::memchr(b'\n', &data[before..]).map(|end| before + end) {
                if end - line_start > MAX_LINE {
                    skipped.push(first_line + line_breaks(&data[..line_start]));
                    data.remove(line_start..end);
                }
                line_start = last_line_start(&data, line_start);
                if self.detecting {
                    self.detect_in(&data[..line_start]);
                }
            }
            if data.len() - line_start > MAX_LINE {
                skipped.push(first_line + line_breaks(&data[..line_start]));
                data.truncate(line_start);
                self.discarding = true;
                continue;
            }
            if data.len() >= size && line_start > 0 && self.may_end_chunk(&data[..line_start], size) {
                self.waiting = None;
                carry.extend_from_slice(&data[line_start..]);
                data.truncate(line_start);
                break;
            }
            if line_start > 0 && self.live.as_ref().is_some_and(|live| live.paused(since)) {
                if self.waiting_pieces(&data, line_start) < line_start && self.more_pieces_within_wait() {
                    // The rest of the line its last pieces wait for is coming.
                    continue;
                }
                self.waiting = None;
                carry.extend_from_slice(&data[line_start..]);
                data.truncate(line_start);
                input_paused = true;
                break;
            }
        }
        if data.is_empty() {
            return Ok((None, skipped));
        }
        let chunk = Chunk { first_line, data, input_paused };
        if self.count_lines {
            let line_breaks = line_breaks(&chunk.data);
            self.lines_counted(&chunk, line_breaks, next_line);
        }
        Ok((Some(chunk), skipped))
    }

    /// Whether a chunk of `whole_lines` (ending with a line break) may end
    /// here: its last line is no piece of a longer one, or it has grown too
    /// far past `size` waiting for the line's end.
    fn may_end_chunk(&self, whole_lines: &[u8], size: usize) -> bool {
        if !self.envelope.has_pieces() {
            return true;
        }
        let body = &whole_lines[..whole_lines.len() - 1];
        whole_lines.len() >= size + PIECES_PAST_CHUNK || self.ends_chunk(&body[last_line_start(body, 0)..])
    }

    /// Where the pieces of a line that end the whole lines of `data` (those
    /// before `line_start`) start, when they are still to wait for the rest
    /// of their line (see [`piece_wait`](Self::piece_wait)); `line_start`
    /// when no piece is to wait. Pieces grown past [`PIECES_PAST_CHUNK`]
    /// wait no more.
    fn waiting_pieces(&mut self, data: &[u8], line_start: usize) -> usize {
        if !self.envelope.has_pieces() {
            return line_start;
        }
        let mut start = line_start;
        while start > 0 && line_start - start <= PIECES_PAST_CHUNK {
            let before = &data[..start - 1];
            let line = &before[last_line_start(before, 0)..];
            if self.ends_chunk(line) {
                break;
            }
            start -= line.len() + 1;
        }
        if start == line_start || line_start - start > PIECES_PAST_CHUNK {
            self.waiting = None;
            return line_start;
        }
        let waiting = match self.waiting.take() {
            Some(waiting) if waiting.at == start => waiting,
            _ => Waiting { since: Instant::now(), at: start },
        };
        if waiting.since.elapsed() >= self.piece_wait {
            return line_start;
        }
        self.waiting = Some(waiting);
        start
    }

    /// Whether a live input whose last pieces wait gives more before their
    /// wait is over.
    fn more_pieces_within_wait(&self) -> bool {
        let (Some(live), Some(waiting)) = (&self.live, &self.waiting) else { return false };
        let left = self.piece_wait.saturating_sub(waiting.since.elapsed());
        !left.is_zero() && live.readable_within(left)
    }

    /// Advances `next_line` past `chunk`, which has `line_breaks` line
    /// breaks (see [`count_lines`](Self::count_lines)).
    pub fn lines_counted(&mut self, chunk: &Chunk, line_breaks: u64, next_line: &mut u64) {
        *next_line += line_breaks;
        self.lines_read += line_breaks + u64::from(!chunk.data.ends_with(b"\n"));
    }

    pub fn lines_read(&self) -> u64 {
        self.lines_read
    }

    pub fn finish(&self) {
        if let Some(bar) = &self.progress {
            bar.finish_and_clear();
        }
    }
}

/// The envelope of the first [`FIRST_LINES`] lines of `whole_lines` that are
/// not blank (read lossily), `None` when there is none (see [`Envelope::detect`]).
fn envelope_of(whole_lines: &[u8]) -> Option<Envelope> {
    let lines: Vec<String> = (whole_lines.split(|&b| b == b'\n'))
        .filter(|line| !line.trim_ascii().is_empty())
        .take(FIRST_LINES)
        .map(|line| String::from_utf8_lossy(line).into_owned())
        .collect();
    (!lines.is_empty()).then(|| Envelope::detect(lines.iter().map(String::as_str)))
}

/// Where the last line of `data` starts, given that it starts at `from` or
/// later.
fn last_line_start(data: &[u8], from: usize) -> usize {
    memchr::memrchr(b'\n', &data[from..]).map_or(from, |end| from + end + 1)
}

fn line_breaks(bytes: &[u8]) -> u64 {
    memchr::memchr_iter(b'\n', bytes).count() as u64
}

/// The bytes of a chunk: the first `len` of `bytes` (all initialised, so
/// that a read can write over them). The buffer goes back to [`POOL`] when
/// the chunk is dropped, so that a scan touches no fresh memory once its
/// first chunks are in flight.
pub struct Lines {
    bytes: Vec<u8>,
    len: usize,
    pool: &'static Pool,
}

type Pool = Mutex<Vec<Vec<u8>>>;

impl Lines {
    fn take(pool: &'static Pool) -> Lines {
        let bytes = pool.lock().ok().and_then(|mut buffers| buffers.pop()).unwrap_or_default();
        Lines { bytes, len: 0, pool }
    }

    fn extend(&mut self, more: &[u8]) {
        self.reserve(more.len());
        self.bytes[self.len..self.len + more.len()].copy_from_slice(more);
        self.len += more.len();
    }

    fn reserve(&mut self, more: usize) {
        if self.bytes.len() < self.len + more {
            self.bytes.resize(self.len + more, 0);
        }
    }

    /// Appends what one read of `reader` gives, at most `at_most` bytes:
    /// how many (0 at the end of the input). A `BufReader` with nothing
    /// buffered reads a request this large straight into the buffer.
    fn read_from(&mut self, reader: &mut dyn BufRead, at_most: usize) -> io::Result<usize> {
        self.reserve(at_most);
        let read = reader.read(&mut self.bytes[self.len..self.len + at_most])?;
        self.len += read;
        Ok(read)
    }

    fn truncate(&mut self, len: usize) {
        self.len = self.len.min(len);
    }

    fn remove(&mut self, range: std::ops::Range<usize>) {
        self.bytes.copy_within(range.end..self.len, range.start);
        self.len -= range.len();
    }
}

impl std::ops::Deref for Lines {
    type Target = [u8];

    fn deref(&self) -> &[u8] {
        &self.bytes[..self.len]
    }
}

impl Drop for Lines {
    fn drop(&mut self) {
        if self.bytes.len() > POOLED_SIZE {
            return;
        }
        if let Ok(mut buffers) = self.pool.lock() {
            if buffers.len() < POOLED {
                buffers.push(std::mem::take(&mut self.bytes));
            }
        }
    }
}

/// The file descriptor of a live input (a duplicate: the reader owns the
/// input), to ask whether more data is waiting.
struct LiveSource {
    #[cfg(unix)]
    fd: Option<std::os::fd::OwnedFd>,
}

impl LiveSource {
    /// Standard input, unless it is a regular file (`errcat scan < file`).
    fn stdin() -> Option<LiveSource> {
        #[cfg(unix)]
        {
            use std::os::fd::AsFd;
            let fd = io::stdin().as_fd().try_clone_to_owned().map(File::from);
            let regular = fd.as_ref().is_ok_and(|file| file.metadata().is_ok_and(|metadata| metadata.is_file()));
            (!regular).then(|| LiveSource { fd: fd.ok().map(std::os::fd::OwnedFd::from) })
        }
        #[cfg(not(unix))]
        Some(LiveSource {})
    }

    #[cfg(unix)]
    fn of(source: &impl std::os::fd::AsFd) -> LiveSource {
        LiveSource { fd: source.as_fd().try_clone_to_owned().ok() }
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
        use rustix::event::{poll, PollFd, PollFlags, Timespec};
        // Without a descriptor (it could not be duplicated), or on an error
        // (EINTR...), treat the input as paused: ending the chunk early is
        // always correct, only less efficient.
        let Some(fd) = &self.fd else { return false };
        let Ok(timeout) = Timespec::try_from(wait.max(Duration::from_millis(1))) else { return false };
        poll(&mut [PollFd::new(fd, PollFlags::IN)], Some(&timeout)).is_ok_and(|ready| ready > 0)
    }

    /// Without `poll`, every read of a live input ends the chunk.
    #[cfg(not(unix))]
    fn readable_within(&self, _wait: Duration) -> bool {
        false
    }
}

#[cfg(test)]
mod tests {
    use std::io::Write;

    use super::*;

    /// Numbered lines (and, in a second list, the numbers of lines skipped).
    type Numbered = (Vec<(u64, Vec<u8>)>, Vec<u64>);

    /// Writes `bytes` to `name` in `dir`.
    fn log(dir: &Path, name: &str, bytes: &[u8]) -> std::path::PathBuf {
        let path = dir.join(name);
        std::fs::write(&path, bytes).unwrap();
        path
    }

    /// Every line `input` gives, numbered as its chunks number them, and the
    /// numbers of the lines skipped as too long (which are passed on as
    /// empty lines: those are left out). Every chunk but the last ends with
    /// a line break.
    fn lines_of(mut input: Input) -> Numbered {
        let (mut carry, mut next_line, mut lines, mut skipped) = (Vec::new(), 1, Vec::new(), Vec::new());
        let mut unfinished = false;
        loop {
            let (chunk, mut too_long) = input.next_chunk(&mut carry, &mut next_line, CHUNK).unwrap();
            skipped.append(&mut too_long);
            let Some(chunk) = chunk else { break };
            assert!(!unfinished, "a chunk after one without a line break at its end");
            unfinished = !chunk.data.ends_with(b"\n");
            let body = chunk.data.strip_suffix(b"\n").unwrap_or(&chunk.data);
            let numbered = body.split(|&b| b == b'\n').enumerate();
            lines.extend(numbered.map(|(i, line)| (chunk.first_line + i as u64, line.to_vec())));
        }
        lines.retain(|(number, _)| !skipped.contains(number));
        (lines, skipped)
    }

    /// What [`lines_of`] must give for `bytes`: every line, numbered, but
    /// those longer than [`MAX_LINE`], which are skipped.
    fn expected(bytes: &[u8]) -> Numbered {
        let body = bytes.strip_suffix(b"\n").unwrap_or(bytes);
        let numbered = body.split(|&b| b == b'\n').enumerate().map(|(i, line)| (i as u64 + 1, line.to_vec()));
        let (kept, long): (Vec<_>, Vec<_>) = numbered.partition(|(_, line)| line.len() <= MAX_LINE);
        (kept, long.into_iter().map(|(number, _)| number).collect())
    }

    /// The lines of the file at `path`, as opened for a scan.
    fn file_lines(path: &Path) -> Numbered {
        lines_of(open(path).unwrap())
    }

    #[test]
    fn a_file_gives_its_lines_and_skips_exactly_those_longer_than_max_line() {
        let mut bytes = Vec::new();
        // A line break exactly at the first chunk's end, then one just past
        // the second chunk's.
        while bytes.len() < CHUNK - 100 {
            bytes.extend_from_slice(b"[1] 2026/11/29 17:20:00.123456 [INF] line\r\n");
        }
        bytes.resize(CHUNK - 1, b'x');
        bytes.push(b'\n');
        bytes.extend_from_slice(b"invalid \xff\xfe UTF-8\n");
        bytes.resize(2 * CHUNK + 1, b'y');
        bytes.push(b'\n');
        // Lines longer than a chunk, one after another: kept up to
        // `MAX_LINE`, skipped when longer, by one byte or by much more.
        for length in [2 * CHUNK, MAX_LINE, MAX_LINE + 1, 3, MAX_LINE + (100 << 10), MAX_LINE + (100 << 10), 0] {
            bytes.extend(std::iter::repeat_n(b'z', length));
            bytes.push(b'\n');
        }
        bytes.extend_from_slice(b"no line break at the end");
        let dir = tempfile::tempdir().unwrap();
        let (lines, skipped) = file_lines(&log(dir.path(), "long.log", &bytes));
        let (want_lines, want_skipped) = expected(&bytes);
        assert_eq!(skipped.len(), 3);
        assert_eq!(skipped, want_skipped);
        assert_eq!(lines.len(), want_lines.len());
        assert!(lines == want_lines, "the lines differ");
        assert_eq!(lines.last().unwrap().1, b"no line break at the end");
    }

    #[test]
    fn a_last_line_too_long_is_skipped_and_counted_as_read() {
        let mut bytes = b"first\n".to_vec();
        bytes.resize(bytes.len() + MAX_LINE + (200 << 10), b'z');
        let dir = tempfile::tempdir().unwrap();
        let path = log(dir.path(), "long.log", &bytes);
        let mut input = open(&path).unwrap();
        let (mut carry, mut next_line, mut skipped) = (Vec::new(), 1, Vec::new());
        loop {
            let (chunk, mut too_long) = input.next_chunk(&mut carry, &mut next_line, CHUNK).unwrap();
            skipped.append(&mut too_long);
            if chunk.is_none() {
                break;
            }
        }
        assert_eq!(skipped, [2]);
        assert_eq!(input.lines_read(), 2);
    }

    #[test]
    fn files_ending_at_a_chunk_boundary_give_every_line_once() {
        let dir = tempfile::tempdir().unwrap();
        for length in [CHUNK - 1, CHUNK, CHUNK + 1, CHUNK + READ, 2 * CHUNK] {
            for last in [b'\n', b'x'] {
                let mut bytes: Vec<u8> = (0..length).map(|i| if i % 100 == 99 { b'\n' } else { b'a' }).collect();
                *bytes.last_mut().unwrap() = last;
                let lines = file_lines(&log(dir.path(), "edge.log", &bytes));
                assert!(lines == expected(&bytes), "{length} bytes ending in {last}");
            }
        }
    }

    #[test]
    fn a_pipe_read_in_small_pieces_gives_the_lines_a_file_gives() {
        // A reader that gives a few bytes at a time, as a slow pipe does:
        // lines are cut across reads, and long ones found all the same.
        struct Trickle(std::io::Cursor<Vec<u8>>);
        impl Read for Trickle {
            fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
                let at_most = buf.len().min(7);
                self.0.read(&mut buf[..at_most])
            }
        }
        let mut bytes = b"one\ntwo\r\n".to_vec();
        bytes.extend(std::iter::repeat_n(b'z', 3000));
        bytes.extend_from_slice(b"\nlast");
        let reader = BufReader::with_capacity(16, Trickle(std::io::Cursor::new(bytes.clone())));
        assert!(lines_of(Input::new("trickle".into(), Box::new(reader), None, None)) == expected(&bytes));
    }

    #[test]
    fn a_file_that_grows_while_it_is_read_is_read_on() {
        let mut bytes = Vec::new();
        for number in 1.. {
            if bytes.len() >= 3 * CHUNK {
                break;
            }
            bytes.extend_from_slice(format!("line {number}\n").as_bytes());
        }
        let dir = tempfile::tempdir().unwrap();
        let path = log(dir.path(), "growing.log", &bytes);
        let mut input = open(&path).unwrap();
        let (mut carry, mut next_line) = (Vec::new(), 1);
        let first = input.next_chunk(&mut carry, &mut next_line, CHUNK).unwrap().0.unwrap();
        File::options().append(true).open(&path).unwrap().write_all(b"appended\n").unwrap();
        let mut all = first.data.to_vec();
        while let (Some(chunk), _) = input.next_chunk(&mut carry, &mut next_line, CHUNK).unwrap() {
            all.extend_from_slice(&chunk.data);
        }
        assert_eq!(all, [&bytes[..], b"appended\n"].concat());
        assert_eq!(next_line, memchr::memchr_iter(b'\n', &all).count() as u64 + 1);
    }

    #[test]
    fn pieces_at_the_end_of_a_followed_file_wait_for_their_line_within_bounds() {
        let dir = tempfile::tempdir().unwrap();
        let piece = |tag: &str, text: &str| format!("2026-11-29T17:20:00.123456789Z stderr {tag} {text}\n");
        let whole = piece("F", "a whole line «é»");
        let path =
            log(dir.path(), "cri.log", format!("{whole}{}{}", piece("P", "first "), piece("P", "second ")).as_bytes());
        let followed_input = |path: &Path| {
            let mut input = followed("cri.log".into(), File::open(path).unwrap());
            input.choose_envelope_when_read(None);
            input
        };
        let mut input = followed_input(&path);
        let (mut carry, mut next_line) = (Vec::new(), 1);
        let chunk = input.next_chunk(&mut carry, &mut next_line, CHUNK).unwrap().0.unwrap();
        assert_eq!(input.envelope(), &Envelope::Cri);
        assert_eq!(&chunk.data[..], whole.as_bytes(), "the pieces wait");
        assert!(input.next_chunk(&mut carry, &mut next_line, CHUNK).unwrap().0.is_none(), "still waiting");
        // The last piece comes: the line's pieces go together.
        File::options().append(true).open(&path).unwrap().write_all(piece("F", "last").as_bytes()).unwrap();
        let chunk = input.next_chunk(&mut carry, &mut next_line, CHUNK).unwrap().0.unwrap();
        assert_eq!((chunk.first_line, chunk.data.split(|&b| b == b'\n').count()), (2, 4));
        // A piece that waited its time goes alone.
        File::options().append(true).open(&path).unwrap().write_all(piece("P", "alone").as_bytes()).unwrap();
        assert!(input.next_chunk(&mut carry, &mut next_line, CHUNK).unwrap().0.is_none());
        input.piece_wait = Duration::ZERO;
        let chunk = input.next_chunk(&mut carry, &mut next_line, CHUNK).unwrap().0.unwrap();
        assert_eq!((chunk.first_line, &chunk.data[..]), (5, piece("P", "alone").as_bytes()));

        // Pieces of more than `PIECES_PAST_CHUNK` wait no more: memory stays bounded.
        let many = piece("P", &"z".repeat(60 << 10)).repeat(PIECES_PAST_CHUNK / (60 << 10) + 2);
        let path = log(dir.path(), "many.log", many.as_bytes());
        let mut input = followed_input(&path);
        let (mut carry, mut next_line, mut read) = (Vec::new(), 1, 0);
        while let (Some(chunk), _) = input.next_chunk(&mut carry, &mut next_line, CHUNK).unwrap() {
            read += chunk.data.len();
        }
        assert_eq!(read, many.len(), "every piece passed on");
        assert!(carry.is_empty());
    }

    #[test]
    fn a_buffer_goes_back_to_its_pool_and_is_read_into_again() {
        let pool: &'static Pool = Box::leak(Box::default());
        let mut first = Lines::take(pool);
        first.extend(&[7; 100]);
        let address = first.bytes.as_ptr();
        drop(first);
        assert_eq!(pool.lock().unwrap().len(), 1);
        let mut again = Lines::take(pool);
        assert_eq!((again.len(), again.bytes.as_ptr()), (0, address), "the same buffer, empty");
        again.extend(b"ab");
        assert_eq!(&*again, b"ab");
        // A buffer grown past `POOLED_SIZE` (by a long line) is not kept.
        again.reserve(POOLED_SIZE + 1);
        drop(again);
        assert!(pool.lock().unwrap().is_empty());
    }
}
