//! Opening log inputs (files, `.gz` files, standard input) and reading their
//! lines with a bound on line length, so that no input can exhaust memory.
//!
//! Live inputs (pipes, terminals, FIFOs) are read in chunks that end where
//! the writer pauses, so that what has arrived is classified and printed
//! without waiting for a full chunk (see [`Input::next_chunk`]).
//!
//! A regular, uncompressed file that nobody has written for a while is
//! memory-mapped instead of read, and its chunks are ranges of the mapping:
//! copying the file from the page cache took about a fifth of a scan's time.
//! See [`Mapped`] for when a file is mapped, and [`GuardedMap`] for how a
//! truncation under the mapping is caught.

use std::fs::File;
use std::io::{self, BufRead, BufReader, IsTerminal, Read, Seek, SeekFrom};
use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant, SystemTime};

use flate2::read::MultiGzDecoder;
use indicatif::{ProgressBar, ProgressStyle};

use crate::guarded_map::GuardedMap;
use crate::pipeline::{Chunk, Lines};

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
/// A file is mapped only when it has not been modified for this long (see
/// [`Mapped`]): longer than the few seconds log writers buffer lines for.
const QUIET_FOR: Duration = Duration::from_secs(10);
/// How much of a mapped file is mapped at a time (more when a line is
/// longer): the pages of a window count in the resident set until all its
/// chunks are classified, so a window bounds the memory a mapped file takes,
/// as the chunks in flight bound that of a file read.
const WINDOW: usize = 8 << 20;

/// An open input.
pub struct Input {
    /// How the input is named in messages (`<stdin>` for standard input).
    pub label: String,
    reader: Box<dyn BufRead>,
    /// The file mapped, read through its mapping instead of `reader` until
    /// that stops (a change to the file, a failed mapping); `reader` then
    /// reads on from where the mapping stopped.
    mapped: Option<Mapped>,
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
    /// Whether [`next_chunk`](Self::next_chunk) counts each chunk's lines
    /// and advances the line number past them; when not, the caller counts
    /// them (while classifying the chunk) and tells
    /// [`lines_counted`](Self::lines_counted) before the next chunk.
    pub count_lines: bool,
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
    let compressed = path.extension().is_some_and(|e| e == "gz");
    // The file opened, not the path stat'ed above: another file may have
    // taken its place since, and mapping past a file's end raises SIGBUS.
    let opened = file.metadata().ok().filter(|opened| quiet_regular_file(opened, SystemTime::now()));
    let mapped = match opened {
        Some(opened) if !compressed => file.try_clone().ok().and_then(|file| Mapped::open(file, &opened)),
        _ => None,
    };
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
    let mut input = Input::new(label, reader, progress, live);
    input.mapped = mapped;
    Ok(input)
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
            mapped: None,
            progress,
            discarding: false,
            failed: None,
            live,
            bytes_read: 0,
            hold_unfinished_line: false,
            lines_read: 0,
            count_lines: true,
        }
    }

    /// Whether the input starts with a NUL byte in its first few KiB.
    pub fn looks_binary(&mut self) -> io::Result<bool> {
        if let Some(mapped) = &self.mapped {
            let start = mapped.start();
            let binary = start.contains(&0);
            // Zeros read from a file cut short under the mapping are not its.
            return if mapped.window.cut_short(start.len()) { Err(truncated(1)) } else { Ok(binary) };
        }
        let start = self.reader.fill_buf()?;
        Ok(start[..start.len().min(BINARY_PROBE)].contains(&0))
    }

    /// Whether the input has no bytes at all.
    pub fn is_empty(&mut self) -> io::Result<bool> {
        if self.mapped.is_some() {
            // Only files with bytes are mapped.
            return Ok(false);
        }
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
    ) -> io::Result<(Option<Chunk>, Vec<u64>)> {
        let mut skipped = Vec::new();
        if let Some(chunk) = self.next_mapped_chunk(next_line, size, &mut skipped) {
            return Ok((chunk, skipped));
        }
        if let Some(err) = self.failed.take() {
            return Err(err);
        }
        let mut data = std::mem::take(carry);
        // Room for the whole chunk and one more read: growing by doubling
        // would copy the chunk again at each step.
        data.reserve((size + (64 << 10)).saturating_sub(data.len()));
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
                } else if self.discarding {
                    // A line skipped as too long ends the input: it is no
                    // empty line in a chunk, so count it here, as the mapped
                    // path does.
                    self.discarding = false;
                    self.lines_read += 1;
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
        Ok((Some(self.chunk(Lines::Read(data), next_line, input_paused)), skipped))
    }

    /// `data` as the chunk starting at line `next_line`, which is advanced
    /// past it if [`count_lines`](Self::count_lines).
    fn chunk(&mut self, data: Lines, next_line: &mut u64, input_paused: bool) -> Chunk {
        let chunk = Chunk { first_line: *next_line, data, input_paused };
        if self.count_lines {
            let line_breaks = memchr::memchr_iter(b'\n', &chunk.data).count() as u64;
            self.lines_counted(&chunk, line_breaks, next_line);
        }
        chunk
    }

    /// Advances `next_line` past `chunk`, which has `line_breaks` line
    /// breaks (see [`count_lines`](Self::count_lines)).
    pub fn lines_counted(&mut self, chunk: &Chunk, line_breaks: u64, next_line: &mut u64) {
        *next_line += line_breaks;
        self.lines_read += line_breaks + u64::from(!chunk.data.ends_with(b"\n"));
    }

    /// The next chunk of a mapped file, as [`next_chunk`](Self::next_chunk)
    /// gives it, with the lines longer than [`MAX_LINE`] before it added to
    /// `skipped` (they are in no chunk: the chunks around them say where
    /// they were by their first line). `None` when the file is not mapped or
    /// no longer: the reader is then at the point where the mapping stopped.
    fn next_mapped_chunk(&mut self, next_line: &mut u64, size: usize, skipped: &mut Vec<u64>) -> Option<Option<Chunk>> {
        loop {
            let mapped = self.mapped.as_mut()?;
            let start = mapped.position;
            let next = mapped.next(size);
            let taken = mapped.position - start;
            self.bytes_read += taken;
            if let Some(bar) = &self.progress {
                bar.inc(taken);
            }
            match next {
                Ok(Next::Lines(data)) => return Some(Some(self.chunk(data, next_line, false))),
                Ok(Next::TooLong) => {
                    skipped.push(*next_line);
                    *next_line += 1;
                    self.lines_read += 1;
                }
                Ok(Next::End) => return Some(None),
                Ok(Next::Truncated) => {
                    self.failed = Some(truncated(*next_line));
                    self.mapped = None;
                    return None;
                }
                Err(_) => {
                    // The file changed, or a window could not be mapped: read
                    // it from where the mapping stopped, as any other file.
                    // (The reader's descriptor shares its offset with the
                    // mapped one, and the reader has read nothing yet.)
                    let position = mapped.position;
                    if let Err(err) = (&*mapped.file).seek(SeekFrom::Start(position)) {
                        self.failed = Some(err);
                    }
                    self.mapped = None;
                    return None;
                }
            }
        }
    }

    /// Whether the input is read through a mapping of its file.
    #[cfg(test)]
    pub fn is_mapped(&self) -> bool {
        self.mapped.is_some()
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

/// Whether a file may be mapped: a regular file with bytes in it that was
/// last modified at least [`QUIET_FOR`] before `now` (see [`Mapped`]). A
/// modification time in the future, or none, says nothing: such files are
/// read.
fn quiet_regular_file(metadata: &std::fs::Metadata, now: SystemTime) -> bool {
    let quiet =
        metadata.modified().is_ok_and(|modified| now.duration_since(modified).is_ok_and(|quiet| quiet >= QUIET_FOR));
    metadata.is_file() && metadata.len() > 0 && quiet
}

/// A regular file read through memory mappings of windows of it, each
/// chunk a range of a window.
///
/// Mapping a file has one risk that reading it has not: if another process
/// truncates the file while it is mapped, touching a page past the new end
/// raises SIGBUS, whereas `read(2)` would just end early. Logs are
/// truncated in place (`logrotate`'s `copytruncate`) while they are being
/// written, so only files that nobody has modified for [`QUIET_FOR`] are
/// mapped ([`quiet_regular_file`]), and before each new window the file is
/// checked again ([`Mapped::unchanged`]): a file that has grown or been
/// modified since it was opened is read from there on, as a live log is,
/// and so is one cut at or past what was mapped (to its new end). A quiet
/// file truncated under the mapping during the scan (an idle log rotated by
/// `copytruncate` in those very seconds) no longer crashes errcat (see
/// [`GuardedMap`]): the input ends with an error saying from which line on
/// nothing is reported. (An I/O error under a mapped page raises SIGBUS
/// too, and ends the input the same way, where `read(2)` would report it.)
struct Mapped {
    /// A descriptor of its own (sharing the reader's offset), shared with
    /// the windows, which check the file's length.
    file: Arc<File>,
    len: u64,
    /// The file's modification time when it was opened.
    modified: SystemTime,
    window: Arc<GuardedMap>,
    /// The offset in the file of the window's first byte.
    window_start: u64,
    /// The offset of the first byte not yet passed on.
    position: u64,
}

/// What a mapped file gives next.
enum Next {
    /// Whole lines (or the last line, without a line break).
    Lines(Lines),
    /// A line longer than [`MAX_LINE`], skipped.
    TooLong,
    End,
    /// The file was truncated under the mapping (see [`GuardedMap`]).
    Truncated,
}

impl Mapped {
    /// Maps the start of `file`, described by `metadata`; `None` if that
    /// fails (the file is then read).
    fn open(file: File, metadata: &std::fs::Metadata) -> Option<Mapped> {
        let modified = metadata.modified().ok()?;
        let file = Arc::new(file);
        let window = Arc::new(GuardedMap::map(&file, 0, WINDOW.min(usize::try_from(metadata.len()).ok()?)).ok()?);
        Some(Mapped { file, len: metadata.len(), modified, window, window_start: 0, position: 0 })
    }

    /// The start of the file (the first window).
    fn start(&self) -> &[u8] {
        &self.window[..self.window.len().min(BINARY_PROBE)]
    }

    /// Whether the file still has the length and modification time it had
    /// when it was opened.
    fn unchanged(&self) -> bool {
        self.file.metadata().is_ok_and(|now| now.len() == self.len && now.modified().ok() == Some(self.modified))
    }

    /// The next chunk: the whole lines in the next `size` bytes, or the line
    /// there if it is longer; [`Next::Truncated`] if the file was cut short
    /// under the mapping. An error when the mapping is to stop.
    fn next(&mut self, size: usize) -> io::Result<Next> {
        let next = self.next_unchecked(size);
        // What was read to find where the chunk ends may be zeros of a file
        // cut short (the chunk's own bytes are checked once classified), and
        // a file now shorter than what was passed on is never read on.
        let passed = usize::try_from(self.position.saturating_sub(self.window_start)).unwrap_or(usize::MAX);
        if self.window.cut_short(passed.min(self.window.len())) {
            return Ok(Next::Truncated);
        }
        next
    }

    /// [`next`](Self::next), without the check for a file cut short.
    fn next_unchecked(&mut self, size: usize) -> io::Result<Next> {
        let start = self.position;
        if start == self.len {
            // A file that grew is read on; one that is unchanged has ended.
            return if self.unchanged() { Ok(Next::End) } else { Err(changed()) };
        }
        let end = self.len.min(start + size as u64);
        let chunk_end = if end == self.len {
            end
        } else if let Some(last) = memchr::memrchr(b'\n', self.bytes(start, end)?) {
            start + last as u64 + 1
        } else {
            // The line is longer than a chunk: it is a chunk of its own, or
            // skipped.
            let line_end = self.line_end(end)?;
            if line_end - start > MAX_LINE as u64 {
                self.position = self.len.min(line_end + 1);
                return Ok(Next::TooLong);
            }
            self.len.min(line_end + 1)
        };
        self.bytes(start, chunk_end)?;
        let offset = (start - self.window_start) as usize;
        let range = offset..offset + (chunk_end - start) as usize;
        self.position = chunk_end;
        Ok(Next::Lines(Lines::Mapped { map: Arc::clone(&self.window), range }))
    }

    /// The offset of the first line break at or after `from` (the file's
    /// length if there is none).
    fn line_end(&mut self, mut from: u64) -> io::Result<u64> {
        while from < self.len {
            let end = self.len.min(from + WINDOW as u64);
            if let Some(found) = memchr::memchr(b'\n', self.bytes(from, end)?) {
                return Ok(from + found as u64);
            }
            from = end;
        }
        Ok(self.len)
    }

    /// The bytes from `start` to `end` (offsets in the file), mapping a new
    /// window from `start` if the current one does not hold them.
    fn bytes(&mut self, start: u64, end: u64) -> io::Result<&[u8]> {
        let window_end = self.window_start + self.window.len() as u64;
        if start < self.window_start || end > window_end {
            // A window that faulted is not left behind: `next` reports it.
            if !self.unchanged() || self.window.caught() {
                return Err(changed());
            }
            let length = usize::try_from((self.len - start).min((end - start).max(WINDOW as u64)))
                .map_err(|_| io::Error::other("window beyond the address space"))?;
            self.window = Arc::new(GuardedMap::map(&self.file, start, length)?);
            self.window_start = start;
        }
        let offset = (start - self.window_start) as usize;
        Ok(&self.window[offset..offset + (end - start) as usize])
    }
}

/// Why a mapped file is read from then on.
fn changed() -> io::Error {
    io::Error::other("the file changed while it was mapped")
}

/// Why a mapped file stops being read: it was truncated under the mapping,
/// or a page of it could not be read from the disk (see [`GuardedMap`]), so
/// what the mapping holds from some point on is not the file's, and the
/// lines from `line` on are not passed on.
pub fn truncated(line: u64) -> io::Error {
    io::Error::other(format!(
        "truncated while it was being scanned (or unreadable on disk): lines from {line} on are not reported"
    ))
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

#[cfg(test)]
pub(crate) mod tests {
    use std::io::Write;

    use super::*;
    use crate::pipeline::CHUNK;

    /// Numbered lines (and, in a second list, the numbers of lines skipped).
    type Numbered = (Vec<(u64, Vec<u8>)>, Vec<u64>);

    /// Old enough for a file to be mapped.
    pub(crate) const OLD: Duration = Duration::from_secs(3600);

    /// Writes `bytes` to `name` in `dir`, last modified `age` ago.
    pub(crate) fn log(dir: &Path, name: &str, bytes: &[u8], age: Duration) -> std::path::PathBuf {
        let path = dir.join(name);
        std::fs::write(&path, bytes).unwrap();
        File::options().write(true).open(&path).unwrap().set_modified(SystemTime::now() - age).unwrap();
        path
    }

    /// `path` read as a file too recently modified to be mapped is.
    fn read_path(path: &Path) -> Input {
        let reader = BufReader::with_capacity(64 << 10, File::open(path).unwrap());
        Input::new(path.display().to_string(), Box::new(reader), None, None)
    }

    /// Every line `input` gives, numbered as its chunks number them, and the
    /// numbers of the lines skipped as too long (which the reading path
    /// passes on as empty lines: those are left out). Every chunk but the
    /// last ends with a line break.
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

    /// The lines of a quiet file, read through its mapping.
    fn mapped_lines(path: &Path) -> Numbered {
        let input = open(path).unwrap();
        assert!(input.mapped.is_some(), "a quiet file is mapped");
        lines_of(input)
    }

    /// The number the next line of `bytes` will have.
    fn next_number(bytes: &[u8]) -> u64 {
        memchr::memchr_iter(b'\n', bytes).count() as u64 + 1
    }

    #[test]
    fn only_regular_files_nobody_modified_for_a_while_are_mapped() {
        let dir = tempfile::tempdir().unwrap();
        let metadata = |path: &Path| std::fs::metadata(path).unwrap();
        let now = SystemTime::now();
        let old = log(dir.path(), "old.log", b"line\n", OLD);
        assert!(quiet_regular_file(&metadata(&old), now));
        assert!(quiet_regular_file(&metadata(&old), now - OLD + QUIET_FOR + Duration::from_secs(1)));
        assert!(!quiet_regular_file(&metadata(&old), now - OLD + QUIET_FOR / 2), "modified too recently");
        assert!(!quiet_regular_file(&metadata(&old), now - OLD - QUIET_FOR), "modified in the future");
        let empty = log(dir.path(), "empty.log", b"", OLD);
        assert!(!quiet_regular_file(&metadata(&empty), now));
        assert!(!quiet_regular_file(&metadata(dir.path()), now + OLD));

        // Through `open`: a file just written, or compressed, is read.
        assert!(open(&old).unwrap().mapped.is_some());
        let fresh = log(dir.path(), "fresh.log", b"line\n", Duration::ZERO);
        assert!(open(&fresh).unwrap().mapped.is_none());
        let gz = log(dir.path(), "old.log.gz", b"line\n", OLD);
        assert!(open(&gz).unwrap().mapped.is_none());
        assert!(open(&empty).unwrap().mapped.is_none());
    }

    #[test]
    fn a_mapped_file_gives_the_lines_and_skipped_lines_of_a_read_one() {
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
        // Lines longer than a chunk, one after another and across windows:
        // kept up to `MAX_LINE`, skipped when longer by more than a read
        // (where reading sees it).
        let long = next_number(&bytes);
        for length in
            [2 * CHUNK, MAX_LINE, MAX_LINE + (100 << 10), 3, MAX_LINE + (100 << 10), MAX_LINE + (100 << 10), 0]
        {
            bytes.extend(std::iter::repeat_n(b'z', length));
            bytes.push(b'\n');
        }
        bytes.extend_from_slice(b"no line break at the end");

        let dir = tempfile::tempdir().unwrap();
        let path = log(dir.path(), "quiet.log", &bytes, OLD);
        let (mapped, read) = (mapped_lines(&path), lines_of(read_path(&path)));
        assert_eq!(mapped.1, [long + 2, long + 4, long + 5]);
        assert_eq!(read.1, mapped.1);
        assert_eq!(mapped.0.len(), read.0.len());
        assert!(mapped.0 == read.0, "the lines differ");
        assert_eq!(mapped.0.last().unwrap(), &(long + 7, b"no line break at the end".to_vec()));
    }

    #[test]
    fn a_skipped_last_line_is_counted_as_read_either_way() {
        let mut bytes = b"first\n".to_vec();
        bytes.resize(bytes.len() + MAX_LINE + (200 << 10), b'z');
        let dir = tempfile::tempdir().unwrap();
        let path = log(dir.path(), "quiet.log", &bytes, OLD);
        let lines_read = |mut input: Input| {
            let (mut carry, mut next_line) = (Vec::new(), 1);
            while input.next_chunk(&mut carry, &mut next_line, CHUNK).unwrap().0.is_some() {}
            input.lines_read()
        };
        let mapped = open(&path).unwrap();
        assert!(mapped.mapped.is_some());
        assert_eq!(lines_read(mapped), 2);
        assert_eq!(lines_read(read_path(&path)), 2);
    }

    #[test]
    fn a_mapped_line_of_max_line_bytes_is_kept_and_a_longer_one_skipped() {
        let mut bytes = b"first\n".to_vec();
        for length in [MAX_LINE, MAX_LINE + 1] {
            bytes.extend(std::iter::repeat_n(b'z', length));
            bytes.push(b'\n');
        }
        bytes.extend(std::iter::repeat_n(b'z', MAX_LINE + 1));
        let dir = tempfile::tempdir().unwrap();
        let (lines, skipped) = mapped_lines(&log(dir.path(), "long.log", &bytes, OLD));
        // The last line, too long and without a line break, is skipped too.
        assert_eq!(skipped, [3, 4]);
        let lengths: Vec<(u64, usize)> = lines.iter().map(|(number, line)| (*number, line.len())).collect();
        assert_eq!(lengths, [(1, 5), (2, MAX_LINE)]);
    }

    #[test]
    fn files_ending_at_a_chunk_boundary_are_mapped_whole() {
        let dir = tempfile::tempdir().unwrap();
        for length in [CHUNK - 1, CHUNK, CHUNK + 1, 2 * CHUNK] {
            for last in [b'\n', b'x'] {
                let mut bytes: Vec<u8> = (0..length).map(|i| if i % 100 == 99 { b'\n' } else { b'a' }).collect();
                *bytes.last_mut().unwrap() = last;
                let path = log(dir.path(), "edge.log", &bytes, OLD);
                let (mapped, read) = (mapped_lines(&path), lines_of(read_path(&path)));
                assert!(mapped == read, "{length} bytes ending in {last}");
                let total: usize = mapped.0.iter().map(|(_, line)| line.len() + 1).sum();
                assert_eq!(total, length + usize::from(last != b'\n'), "{length} bytes ending in {last}");
            }
        }
    }

    #[test]
    fn a_mapped_file_that_changes_is_read_on_from_where_the_mapping_stopped() {
        let mut bytes = Vec::new();
        for number in 1.. {
            if bytes.len() >= 3 * CHUNK {
                break;
            }
            bytes.extend_from_slice(format!("line {number}\n").as_bytes());
        }
        let dir = tempfile::tempdir().unwrap();
        let path = log(dir.path(), "growing.log", &bytes, OLD);
        let mut input = open(&path).unwrap();
        let (mut carry, mut next_line) = (Vec::new(), 1);
        let (first, _) = input.next_chunk(&mut carry, &mut next_line, CHUNK).unwrap();
        assert!(matches!(first.unwrap().data, Lines::Mapped { .. }));
        // Written to while it is scanned: what was appended is read too.
        File::options().append(true).open(&path).unwrap().write_all(b"appended\n").unwrap();
        let mut rest = Vec::new();
        while let (Some(chunk), _) = input.next_chunk(&mut carry, &mut next_line, CHUNK).unwrap() {
            rest.extend_from_slice(&chunk.data);
        }
        assert!(input.mapped.is_none(), "the mapping stopped at the end");
        assert!(rest.ends_with(b"appended\n"));
        assert_eq!(next_line, next_number(&bytes) + 1);
        let first_len = bytes.len() - rest.len() + b"appended\n".len();
        assert!(rest.starts_with(&bytes[first_len..first_len + 100]));
    }
}
