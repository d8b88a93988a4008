//! Opening log inputs (files, `.gz` files, standard input) and reading their
//! lines with a bound on line length, so that no input can exhaust memory.

use std::fs::File;
use std::io::{self, BufRead, BufReader, IsTerminal, Read};
use std::path::Path;

use flate2::read::MultiGzDecoder;
use indicatif::{ProgressBar, ProgressStyle};

/// Longest line read; longer lines are skipped with an error.
pub const MAX_LINE: usize = 16 << 20;
/// Files larger than this show a progress bar (when stderr is a terminal).
const PROGRESS_FROM: u64 = 4 << 20;
/// How much of the start of an input is checked for NUL bytes.
const BINARY_PROBE: usize = 8 << 10;

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
    /// Lines read so far (a last line without a line break counts).
    lines_read: u64,
}

/// Opens `path` (`-` is standard input); `.gz` files are decompressed.
pub fn open(path: &Path) -> Result<Input, String> {
    if path == Path::new("-") {
        let reader = Box::new(BufReader::with_capacity(64 << 10, io::stdin()));
        return Ok(Input {
            label: "<stdin>".to_owned(),
            reader,
            progress: None,
            discarding: false,
            failed: None,
            lines_read: 0,
        });
    }
    let label = path.display().to_string();
    let metadata = std::fs::metadata(path).map_err(|err| format!("{label}: cannot open: {}", io_message(&err)))?;
    if metadata.is_dir() {
        return Err(format!("{label}: is a directory (give the log files in it)"));
    }
    let file = File::open(path).map_err(|err| format!("{label}: cannot open: {}", io_message(&err)))?;
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
    Ok(Input { label, reader, progress, discarding: false, failed: None, lines_read: 0 })
}

/// An I/O error without Rust's `(os error N)` suffix.
pub fn io_message(err: &io::Error) -> String {
    let text = err.to_string();
    text.split(" (os error").next().unwrap_or(&text).to_owned()
}

impl Input {
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
        let mut skipped = Vec::new();
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
                break;
            }
            let length = available.len();
            if self.discarding {
                match memchr::memchr(b'\n', available) {
                    Some(end) => {
                        self.reader.consume(end + 1);
                        data.push(b'\n');
                        self.discarding = false;
                    }
                    None => self.reader.consume(length),
                }
                continue;
            }
            data.extend_from_slice(available);
            self.reader.consume(length);
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
        }
        if data.is_empty() {
            return Ok((None, skipped));
        }
        let first_line = *next_line;
        let line_breaks = memchr::memchr_iter(b'\n', &data).count() as u64;
        *next_line += line_breaks;
        self.lines_read += line_breaks + u64::from(!data.ends_with(b"\n"));
        Ok((Some(crate::pipeline::Chunk { first_line, data }), skipped))
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
