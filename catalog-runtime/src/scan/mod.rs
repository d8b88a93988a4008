//! Classifying a chunk of log lines: what `errcat scan` does with each
//! chunk it reads and Python's `Catalog.classify` with each chunk of its
//! rows, written once so that both give the same events for the same lines.
//!
//! A chunk is bytes of whole lines, in an [`Envelope`]. [`ChunkClassifier`]
//! chooses how to read it before any work ([`ChunkPath`]): the matcher's
//! buffer scan over plain lines, the envelope's scan of wrapped lines at
//! once, or line by line, which groups the lines of a stack trace into one
//! event ([`MultiLine`]), joins the pieces of long container lines
//! ([`PartialLines`]) and reports unmatched lines, invalid UTF-8 and the
//! envelope's notes. The events come in line order, numbered.
//!
//! **Coordinates.** Every span of a [`Found`] is in bytes of the line as it
//! was read (without its line break): `found.span` where the record's
//! message is, [`Details::message_span`] where the message taken out of the
//! envelope is, [`Details::field_spans`] where each value is. When the
//! envelope's escapes were undone (JSON's `\"`, Go quoting) the message is
//! not a run of the line's bytes: `span` is then the message's span and the
//! field spans are not known (`None`), never an offset into other text. A
//! line joined from pieces ([`PartialLines`]) is read as the joined message:
//! its spans are in that message, which [`Found::line_text`] then holds.
//!
//! **Envelopes are a hint.** A line whose message, taken out of the
//! envelope, matches nothing is matched as the plain line too: an envelope
//! detected from the first lines of an input must not hide what reading
//! the line as it is finds (a syslog line holding its program's own
//! timestamped line).

use std::ops::Range;

use crate::envelope::{plain_lines_may_hold_events, Envelope, EnvelopeKind, LogLine};
use crate::matcher::Match;
use crate::Catalog;

mod event;
mod json;
mod lines;
mod spanning;
mod spans;

pub use event::{EventParts, Part};
pub use json::{event_object, match_object};

/// The longest line classified (16 MiB): longer lines are skipped and
/// reported, by `errcat scan` and Python's `Catalog.classify` alike.
pub const MAX_LINE: usize = 16 << 20;

/// Gives the level of a line (as it is to be reported: `ERR`, ...) when
/// its unmatched lines are wanted.
pub type LevelOf<'f> = dyn Fn(&LogLine<'_>) -> Option<String> + Sync + 'f;

/// What a chunk's classification is to report besides matches.
#[derive(Clone)]
pub struct ScanOptions<'a> {
    /// The envelope of the lines.
    pub envelope: Envelope,
    /// The level of a line to report when it matches nothing, if wanted
    /// (which needs the line-by-line path).
    pub unmatched: Option<&'a LevelOf<'a>>,
    /// Whether matches carry their line's text ([`Found::line_text`]).
    pub line_text: bool,
    /// Whether matches carry [`Details`] (envelope, message and field spans, trace).
    pub details: bool,
}

/// How a chunk is read, chosen by [`ChunkPath::choose`] before any work.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ChunkPath {
    /// Plain lines, no trace among them: the matcher's buffer scan
    /// ([`Matcher::find_numbered_lines_in`](crate::Matcher::find_numbered_lines_in)),
    /// which numbers the lines, checks UTF-8 and looks for the first lines
    /// of multi-line templates' messages in its own pass.
    Plain,
    /// Lines in an envelope: the envelope's scan at once
    /// ([`Envelope::find_lines_at_once_unless_grouped`]), which unwraps only
    /// the lines holding a literal.
    Unwrapped,
    /// Each line on its own: unmatched lines, traces grouped into events,
    /// invalid UTF-8, pieces of long lines, notes.
    LineByLine,
}

impl ChunkPath {
    /// The path of `chunk` under `options`: line by line when unmatched
    /// lines are wanted or plain lines may hold a trace (a cheap look for
    /// its marks) or a line indented with a space after another (which may
    /// go on the message before it), else at once. A path taken at once
    /// that meets a line it cannot read so (invalid UTF-8, a piece of a
    /// longer line, a note, a wrapped trace, the first line of a multi-line
    /// template's message: what no cheap look tells, or what the scan finds
    /// on its way) gives the chunk to [`ChunkPath::LineByLine`] whole,
    /// keeping nothing of its own.
    pub fn choose(options: &ScanOptions<'_>, chunk: &[u8]) -> ChunkPath {
        if options.unmatched.is_some() {
            ChunkPath::LineByLine
        } else if options.envelope != Envelope::None {
            ChunkPath::Unwrapped
        } else if plain_lines_may_hold_events(chunk, true) {
            ChunkPath::LineByLine
        } else {
            ChunkPath::Plain
        }
    }
}

/// A line that matched a record.
#[derive(Clone, Debug, PartialEq)]
pub struct Found {
    /// The line's number.
    pub line: u64,
    /// The match; its span is in the line as read (see the module's docs).
    pub found: Match<'static>,
    /// The line as read (lossily decoded when it is not UTF-8; the spans are
    /// in its original bytes), when [`ScanOptions::line_text`].
    pub line_text: Option<Box<str>>,
    /// What else is known of the match, when [`ScanOptions::details`].
    pub details: Option<Box<Details>>,
}

/// What is known of a match besides its record and values.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct Details {
    /// The envelope the message was taken out of (`EnvelopeKind::None` for a plain line).
    pub envelope: EnvelopeKind,
    /// Where the message is in the line as read.
    pub message_span: Range<usize>,
    /// Where each field's value is in the line as read (the first rendering
    /// of a value rendered twice), in field order; `None` when not known: a
    /// message whose escapes were undone, values read by another split than
    /// the matcher's first (see `resplit`), a count that is not rendered.
    pub field_spans: Option<Vec<Option<Range<usize>>>>,
    /// The trace that came with the line: carried by the envelope, or the
    /// lines after it (a Java or Go trace) or before it (a Python traceback,
    /// the tracebacks of a chain), the line that introduced it left out.
    pub context: Option<String>,
    /// When the match is the message of an event of several lines: its
    /// lines, the line that introduced it and the causes.
    pub event: Option<Box<EventParts>>,
}

/// Something found in a chunk, in line order.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum ScanEvent {
    /// A line matched a record.
    Found(Found),
    /// A line of a wanted level matched nothing (see [`ScanOptions::unmatched`]),
    /// or an event of several lines that no record explains: neither its
    /// exception (a trace's message) nor the line that introduced it. An
    /// event's level is that of the line that introduced it; a trace no log
    /// line introduced (an uncaught exception, a panic) is an error.
    Unmatched {
        /// The line's number (an event's: its message's).
        line: u64,
        /// Its level, as the `unmatched` function gave it.
        level: String,
        /// Its message (an event's: the exception's line).
        text: String,
        /// The event, when the line is the message of one of several lines.
        event: Option<Box<EventParts>>,
    },
    /// A line is not UTF-8: it was read with replacement characters.
    InvalidUtf8 {
        /// The line's number.
        line: u64,
    },
    /// A line longer than [`MAX_LINE`], skipped: reported by what reads the
    /// lines (a chunk holds none).
    TooLong {
        /// The line's number.
        line: u64,
    },
    /// Something the envelope tells of a line (see [`LogLine::note`]).
    Note {
        /// The line's number.
        line: u64,
        /// What it tells.
        note: &'static str,
    },
}

/// What a chunk gave.
#[derive(Debug)]
pub struct Classified {
    /// The events, in line order.
    pub events: Vec<ScanEvent>,
    /// The line breaks in the chunk (counted on the way).
    pub line_breaks: u64,
    /// The path that read the chunk.
    pub path: ChunkPath,
}

/// Classifies chunks of lines against a catalog (see the module's docs).
/// Shared by the threads that classify the chunks of one input.
///
/// ```
/// use catalog_runtime::{Catalog, ChunkClassifier, ChunkPath, Envelope, ScanEvent, ScanOptions};
///
/// let catalog = Catalog::load("../data/nats-io/nats-server").unwrap();
/// let options = ScanOptions { envelope: Envelope::Cri, unmatched: None, line_text: false, details: true };
/// let classifier = ChunkClassifier::new(&catalog, options);
/// let chunk = concat!(
///     "2026-11-29T17:20:35.1Z stdout F GET /healthz 200\n",
///     "2026-11-29T17:20:35.2Z stderr F unable to persist session \"s1\" (seq=3): timeout\n",
/// );
/// let classified = classifier.classify(chunk.as_bytes(), 1);
/// assert_eq!(classified.path, ChunkPath::Unwrapped);
/// let [ScanEvent::Found(found)] = &classified.events[..] else { panic!("one match") };
/// assert_eq!(found.line, 2);
/// // Spans are in the line as read.
/// let line = chunk.lines().nth(1).unwrap();
/// assert_eq!(&line[found.found.span.clone()], "unable to persist session \"s1\" (seq=3): timeout");
/// let details = found.details.as_ref().unwrap();
/// assert_eq!(&line[details.message_span.clone()], &line[32..]);
/// let seq = details.field_spans.as_ref().unwrap()[1].clone().unwrap();
/// assert_eq!(&line[seq], "3");
/// ```
pub struct ChunkClassifier<'c> {
    catalog: &'c Catalog,
    options: ScanOptions<'c>,
}

impl<'c> ChunkClassifier<'c> {
    /// A classifier of `catalog`'s records under `options`.
    pub fn new(catalog: &'c Catalog, options: ScanOptions<'c>) -> Self {
        ChunkClassifier { catalog, options }
    }

    /// Classifies the lines of another input, in `envelope`, from now on.
    pub fn set_envelope(&mut self, envelope: &Envelope) {
        if self.options.envelope != *envelope {
            self.options.envelope = envelope.clone();
        }
    }

    /// The events of `chunk` (whole lines, split at `\n`; a final line
    /// break ends the last line), whose first line is numbered `first_line`.
    pub fn classify(&self, chunk: &[u8], first_line: u64) -> Classified {
        // A plain chunk's scan looks for the multi-line templates' first
        // lines in its own pass (see `plain`).
        let path = match ChunkPath::choose(&self.options, chunk) {
            ChunkPath::Unwrapped if self.may_hold_messages_of_several_lines(chunk) => ChunkPath::LineByLine,
            path => path,
        };
        let at_once = match path {
            ChunkPath::Plain => self.plain(chunk, first_line),
            ChunkPath::Unwrapped => self.unwrapped(chunk, first_line),
            ChunkPath::LineByLine => None,
        };
        at_once.unwrap_or_else(|| Classified {
            events: lines::classify(self, chunk, first_line),
            line_breaks: memchr::memchr_iter(b'\n', chunk).count() as u64,
            path: ChunkPath::LineByLine,
        })
    }

    /// Whether `chunk` (in an envelope) may hold the first line of a
    /// multi-line template's message (see [`spanning`]), which only the
    /// line-by-line path reads.
    fn may_hold_messages_of_several_lines(&self, chunk: &[u8]) -> bool {
        self.catalog.matcher().may_start_multi_line(chunk)
    }

    /// [`ChunkPath::Plain`]; `None` when the chunk is not UTF-8 or may hold
    /// the first line of a multi-line template's message.
    fn plain(&self, chunk: &[u8], first_line: u64) -> Option<Classified> {
        let mut events = Vec::new();
        let line_breaks =
            self.catalog.matcher().find_numbered_lines_unless_multi_line(chunk, |number, range, found| {
                let line = first_line + number as u64;
                let found = if self.options.line_text || self.options.details {
                    // Every line with a candidate is UTF-8 (or the whole scan fails).
                    let text = std::str::from_utf8(&chunk[range]).unwrap_or_default();
                    self.found(line, text, None, &LogLine::plain(text), found)
                } else {
                    // The span is in the line already.
                    Found { line, found: found.into_owned(), line_text: None, details: None }
                };
                events.push(ScanEvent::Found(found));
            })?;
        Some(Classified { events, line_breaks: line_breaks as u64, path: ChunkPath::Plain })
    }

    /// [`ChunkPath::Unwrapped`]; `None` when some line needs the line-by-line path.
    fn unwrapped(&self, chunk: &[u8], first_line: u64) -> Option<Classified> {
        let mut events = Vec::new();
        let mut lines = spans::LineFinder::new(chunk);
        let matcher = self.catalog.matcher();
        let count =
            self.options.envelope.find_lines_at_once_unless_grouped(matcher, chunk, |number, line, found| {
                let line_number = first_line + number as u64;
                let found = if self.options.line_text || self.options.details {
                    let text = lines.line_holding(number, line.text(), self.options.line_text);
                    self.found(line_number, text, None, line, found)
                } else {
                    // Only the span is placed in the line.
                    let span = match lines.message_start(line.text()) {
                        Some(at) => at + found.span.start..at + found.span.end,
                        None => line.span_in_input(),
                    };
                    let found = Match { span, ..found.into_owned() };
                    Found { line: line_number, found, line_text: None, details: None }
                };
                events.push(ScanEvent::Found(found));
            })?;
        // The lines end with line breaks but for the last, unless the chunk ends with one.
        let line_breaks = count as u64 - 1 + u64::from(chunk.ends_with(b"\n"));
        Some(Classified { events, line_breaks, path: ChunkPath::Unwrapped })
    }

    /// The event of `found` in `unwrapped`, the message of the line `text`
    /// as read (`lossy_of`: its bytes, when it was read lossily).
    fn found(
        &self,
        line: u64,
        text: &str,
        lossy_of: Option<&[u8]>,
        unwrapped: &LogLine<'_>,
        found: Match<'_>,
    ) -> Found {
        let placed = spans::Placed::new(self, text, lossy_of, unwrapped, &found);
        let details = self.options.details.then(|| {
            Box::new(Details {
                envelope: unwrapped.envelope(),
                message_span: placed.message_span.clone(),
                field_spans: placed.field_spans,
                context: unwrapped.context().map(str::to_owned),
                event: None,
            })
        });
        Found {
            line,
            found: Match { span: placed.span, ..found.into_owned() },
            line_text: self.options.line_text.then(|| text.into()),
            details,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn catalog() -> Catalog {
        Catalog::load("../data/nats-io/nats-server").expect("the seed records load")
    }

    const PERSIST: &str =
        r#"[1] 2026/11/29 17:20:00.123456 [ERR] unable to persist session "s1" (seq=3): nats: timeout"#;

    /// The events of `chunk` at once and (unmatched lines wanted, of no level) line by line.
    fn both_ways(catalog: &Catalog, envelope: Envelope, chunk: &[u8]) -> (Classified, Classified) {
        let no_level = |_: &LogLine<'_>| None;
        let options = ScanOptions { envelope, unmatched: None, line_text: true, details: true };
        let at_once = ChunkClassifier::new(catalog, options.clone()).classify(chunk, 1);
        let line_by_line = ChunkClassifier::new(catalog, ScanOptions { unmatched: Some(&no_level), ..options });
        (at_once, line_by_line.classify(chunk, 1))
    }

    fn found(events: &[ScanEvent]) -> Vec<&Found> {
        events.iter().filter_map(|event| if let ScanEvent::Found(found) = event { Some(found) } else { None }).collect()
    }

    #[test]
    fn every_path_gives_the_same_events_with_spans_in_the_line() {
        let catalog = catalog();
        let cri = |message: &str| format!("2026-11-29T17:20:35.1Z stderr F {message}");
        let plain = format!("GET /healthz\n{PERSIST}\r\nnoise\n");
        let wrapped = format!("{}\n{}\n", cri("GET /healthz"), cri(PERSIST));
        for (envelope, chunk, path) in
            [(Envelope::None, plain, ChunkPath::Plain), (Envelope::Cri, wrapped, ChunkPath::Unwrapped)]
        {
            let (at_once, line_by_line) = both_ways(&catalog, envelope.clone(), chunk.as_bytes());
            assert_eq!((at_once.path, line_by_line.path), (path, ChunkPath::LineByLine));
            assert_eq!(at_once.events, line_by_line.events, "{envelope}");
            assert_eq!(at_once.line_breaks, line_by_line.line_breaks);
            let [found] = found(&at_once.events)[..] else { panic!("{envelope}: one match") };
            let line = chunk.lines().nth(1).unwrap().trim_end_matches('\r');
            assert_eq!(found.line_text.as_deref(), Some(line));
            assert!(line[found.found.span.clone()].starts_with("unable to persist session"), "{envelope}");
            let details = found.details.as_ref().unwrap();
            let spans = details.field_spans.as_ref().expect("the message is the line's bytes");
            let values: Vec<&str> = spans.iter().map(|span| &line[span.clone().unwrap()]).collect();
            assert_eq!(values, ["\"s1\"", "3", "nats: timeout"], "{envelope}");
        }
    }

    #[test]
    fn an_escaped_message_gives_its_own_span_and_no_field_spans() {
        let catalog = catalog();
        let escaped = PERSIST.replace('"', "\\\"");
        let line = format!(r#"{{"log":"{escaped}\n","stream":"stderr","time":"t"}}"#);
        let (at_once, line_by_line) = both_ways(&catalog, Envelope::Docker, line.as_bytes());
        assert_eq!(at_once.events, line_by_line.events);
        let [found] = found(&at_once.events)[..] else { panic!("one match") };
        let details = found.details.as_ref().unwrap();
        assert_eq!(&line[details.message_span.clone()], escaped);
        assert_eq!(found.found.span, details.message_span);
        assert_eq!(details.field_spans, None);
        assert_eq!(found.found.values[0].to_string(), "s1");
    }

    #[test]
    fn spans_of_a_line_read_lossily_are_in_its_bytes() {
        let catalog = catalog();
        let mut line = PERSIST.as_bytes().to_vec();
        line.splice(0..0, [0xff, 0xfe]);
        let (at_once, line_by_line) = both_ways(&catalog, Envelope::None, &line);
        assert_eq!(at_once.path, ChunkPath::LineByLine, "not UTF-8: line by line");
        assert_eq!(at_once.events, line_by_line.events);
        assert_eq!(at_once.events[0], ScanEvent::InvalidUtf8 { line: 1 });
        let [found] = found(&at_once.events)[..] else { panic!("one match") };
        assert!(line[found.found.span.clone()].starts_with(b"unable to persist"));
        let seq = found.details.as_ref().unwrap().field_spans.as_ref().unwrap()[1].clone().unwrap();
        assert_eq!(&line[seq], b"3");
    }
}
