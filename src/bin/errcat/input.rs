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
}

/// Opens `path` (`-` is standard input); `.gz` files are decompressed.
pub fn open(path: &Path) -> Result<Input, String> {
    if path == Path::new("-") {
        let reader = Box::new(BufReader::with_capacity(64 << 10, io::stdin()));
        return Ok(Input {
            label: "<stdin>".to_owned(),
            reader,
            progress: None,
        });
    }
    let label = path.display().to_string();
    let metadata = std::fs::metadata(path)
        .map_err(|err| format!("{label}: cannot open: {}", io_message(&err)))?;
    if metadata.is_dir() {
        return Err(format!(
            "{label}: is a directory (give the log files in it)"
        ));
    }
    let file =
        File::open(path).map_err(|err| format!("{label}: cannot open: {}", io_message(&err)))?;
    let progress = (metadata.len() > PROGRESS_FROM && io::stderr().is_terminal()).then(|| {
        let bar = ProgressBar::new(metadata.len());
        let style = ProgressStyle::with_template(
            "{msg} [{bar:40}] {bytes}/{total_bytes} ({bytes_per_sec})",
        )
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
        Box::new(BufReader::with_capacity(
            64 << 10,
            MultiGzDecoder::new(BufReader::new(raw)),
        ))
    } else {
        Box::new(BufReader::with_capacity(64 << 10, raw))
    };
    Ok(Input {
        label,
        reader,
        progress,
    })
}

/// An I/O error without Rust's `(os error N)` suffix.
pub fn io_message(err: &io::Error) -> String {
    let text = err.to_string();
    text.split(" (os error").next().unwrap_or(&text).to_owned()
}

/// What reading the next line gave.
pub enum Line<'a> {
    /// A line without its `\n` or `\r\n`.
    Text(&'a [u8]),
    /// A line longer than [`MAX_LINE`], skipped.
    TooLong,
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

    /// Reads the next line into `buf`; `None` at the end.
    pub fn next_line<'b>(&mut self, buf: &'b mut Vec<u8>) -> io::Result<Option<Line<'b>>> {
        buf.clear();
        let mut too_long = false;
        let mut any = false;
        loop {
            let available = self.reader.fill_buf()?;
            if available.is_empty() {
                break;
            }
            any = true;
            let (chunk, done) = match available.iter().position(|&b| b == b'\n') {
                Some(end) => (&available[..end], true),
                None => (available, false),
            };
            if !too_long && buf.len() + chunk.len() > MAX_LINE {
                too_long = true;
                buf.clear();
            }
            if !too_long {
                buf.extend_from_slice(chunk);
            }
            let used = chunk.len() + usize::from(done);
            self.reader.consume(used);
            if done {
                break;
            }
        }
        if !any {
            return Ok(None);
        }
        if too_long {
            return Ok(Some(Line::TooLong));
        }
        if buf.last() == Some(&b'\r') {
            buf.pop();
        }
        Ok(Some(Line::Text(buf)))
    }

    /// Removes the progress bar, if any.
    pub fn finish(&self) {
        if let Some(bar) = &self.progress {
            bar.finish_and_clear();
        }
    }
}
