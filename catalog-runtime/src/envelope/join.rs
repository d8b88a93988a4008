//! Joining the pieces of a long line that a container runtime wrote apart
//! (Docker: pieces of 16 KiB without a trailing `\n`; CRI: `P` pieces until
//! an `F`), per stream, before the line is matched. Bounded: a line of more
//! than [`MAX_BYTES`] or [`MAX_PIECES`] is passed on as it stands, with a
//! note, and the rest of it after that as another line.

use std::borrow::Cow;

use super::{nested, LogLine, Stream};

/// The most bytes a joined line holds.
pub(crate) const MAX_BYTES: usize = 1 << 20;
/// The most pieces a joined line is made of.
pub(crate) const MAX_PIECES: usize = 128;

/// What is said of a line passed on before its last piece.
const CUT: &str = "a line of more than 1 MiB or 128 pieces: classified as it stands, the rest apart";
/// What is said of a line whose last piece never came.
const UNFINISHED: &str = "the last piece of this line never came: classified as it stands";

/// Pieces waiting for the rest of their line, per stream.
///
/// ```
/// use catalog_runtime::{Envelope, PartialLines};
///
/// let mut lines = PartialLines::new();
/// let pieces = [
///     "2026-11-29T17:20:35.000000001Z stderr P unable to persist ",
///     "2026-11-29T17:20:35.000000002Z stdout F another line",
///     "2026-11-29T17:20:35.000000003Z stderr F session \"s7\" (seq=5): timeout",
/// ];
/// let mut whole = Vec::new();
/// for (number, piece) in pieces.iter().enumerate() {
///     whole.extend(lines.push(number as u64 + 1, Envelope::Cri.unwrap(piece)));
/// }
/// assert_eq!(whole[0].1.text(), "another line");
/// // The joined line is numbered as its first piece.
/// assert_eq!((whole[1].0, whole[1].1.text()), (1, "unable to persist session \"s7\" (seq=5): timeout"));
/// assert!(lines.finish().is_empty());
/// ```
#[derive(Debug, Default)]
pub struct PartialLines {
    pending: Vec<Pending>,
}

#[derive(Debug)]
struct Pending {
    stream: Option<Stream>,
    first_line: u64,
    first: LogLine<'static>,
    text: String,
    pieces: usize,
}

impl PartialLines {
    /// No pieces waiting.
    pub fn new() -> Self {
        PartialLines::default()
    }

    /// Takes the line numbered `number`: gives back the whole lines it
    /// completes (with the number of their first piece): none while it is
    /// a piece, the line itself when it is whole and no piece waits, else
    /// the line joined with the pieces before it.
    pub fn push<'a>(&mut self, number: u64, line: LogLine<'a>) -> Option<(u64, LogLine<'a>)> {
        let waiting = self.pending.iter().position(|pending| pending.stream == line.stream);
        let Some(at) = waiting else {
            if line.ends_line {
                return Some((number, line));
            }
            let text = line.text.to_string();
            let first = LogLine { text: Cow::Borrowed(""), ..line.into_owned() };
            self.pending.push(Pending { stream: first.stream, first_line: number, first, text, pieces: 1 });
            return None;
        };
        let pending = &mut self.pending[at];
        pending.text.push_str(&line.text);
        pending.pieces += 1;
        if line.ends_line {
            let pending = self.pending.remove(at);
            let level = pending.first.level.or(line.level);
            return Some((pending.first_line, joined(pending, level, None)));
        }
        if pending.text.len() >= MAX_BYTES || pending.pieces >= MAX_PIECES {
            let pending = self.pending.remove(at);
            let level = pending.first.level;
            return Some((pending.first_line, joined(pending, level, Some(CUT))));
        }
        None
    }

    /// The lines whose last piece has not come, as they stand (at the end of
    /// an input), in the order they began.
    pub fn finish(&mut self) -> Vec<(u64, LogLine<'static>)> {
        self.pending
            .drain(..)
            .map(|pending| {
                let level = pending.first.level;
                (pending.first_line, joined(pending, level, Some(UNFINISHED)))
            })
            .collect()
    }
}

/// The line of `pending`'s pieces, unwrapped again if it is a JSON or logfmt line.
fn joined<'a>(pending: Pending, level: Option<crate::LogLevel>, note: Option<&'static str>) -> LogLine<'a> {
    let mut line = LogLine { text: Cow::Owned(pending.text), level, ends_line: true, ..pending.first };
    line.strip_line_break();
    let mut line = nested(line);
    line.note = line.note.or(note);
    line
}
