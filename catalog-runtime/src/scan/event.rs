//! What an event of several lines holds besides its message (a trace with
//! the log line that introduced it, a chain of exceptions, a message of
//! several lines); `json.rs` writes them as `--json` does.

use crate::matcher::Match;

/// The lines of an event of several lines and the other messages in it.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct EventParts {
    /// The event's first line (the line that introduced its trace, a
    /// traceback's first line, a message's first line).
    pub start_line: u64,
    /// Its last line.
    pub end_line: u64,
    /// The event's messages as written, in line order, joined with `\n`
    /// (the introducing line, the trace, the message); empty when the scan
    /// keeps no text (neither details nor unmatched lines wanted).
    pub lines: String,
    /// The log line before the trace that introduced it
    /// (`logger.exception("…")`, Django's `Internal Server Error: …`).
    pub intro: Option<Part>,
    /// The exceptions that led to the event's own, the nearest first:
    /// Java's `Caused by: …`, the exceptions of the tracebacks before a
    /// Python traceback chained to them.
    pub causes: Vec<Part>,
}

/// A message inside an event other than the event's own.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct Part {
    /// The number of its line.
    pub line: u64,
    /// The message (a cause without `Caused by: `).
    pub text: String,
    /// Its match, when a record explains it; its span is in `text`.
    pub found: Option<Match<'static>>,
}

impl Part {
    pub(super) fn new(line: u64, text: String, found: Option<Match<'static>>) -> Self {
        Part { line, text, found }
    }
}
