//! [`ChunkPath::LineByLine`](super::ChunkPath::LineByLine): each line
//! decoded (lossily when it is not UTF-8), taken out of its envelope, its
//! pieces joined, grouped into multi-line events (traces, and messages of
//! several lines: see [`spanning`](super::spanning)) and matched.
//!
//! **Events of several lines.** A trace ([`MultiLine`]) is one event with
//! its message (a Java or Go trace's first line, a Python traceback's
//! exception line), the tracebacks chained before a Python one (their
//! exceptions are the event's causes, as Java's `Caused by:` lines are), and
//! the log line just before the trace that introduced it, when that line is
//! a warning or worse (and, before a Java trace, the exception's line has no
//! level of its own). The event's record is its message's; when no record
//! explains the message, the introducing line's; when neither, the event is
//! one unmatched event. The lines of an event are taken out of the events as
//! they come and put back as one when it ends.

use std::borrow::Cow;

use super::spanning::{continues, spanning, MAX_EVENT_LINES};
use super::{ChunkClassifier, EventParts, Found, Part, ScanEvent};
use crate::envelope::{EnvelopeKind, LineRole, LogLine, MultiLine, PartialLines};
use crate::LogLevel;

/// The events of `chunk`, line by line.
pub(super) fn classify(classifier: &ChunkClassifier<'_>, chunk: &[u8], first_line: u64) -> Vec<ScanEvent> {
    let envelope = &classifier.options.envelope;
    let body = chunk.strip_suffix(b"\n").unwrap_or(chunk);
    let decoded: Vec<(Cow<'_, str>, Option<&[u8]>)> = (body.split(|&b| b == b'\n'))
        .map(|bytes| {
            let bytes = bytes.strip_suffix(b"\r").unwrap_or(bytes);
            let text = String::from_utf8_lossy(bytes);
            let lossy_of = matches!(text, Cow::Owned(_)).then_some(bytes);
            (text, lossy_of)
        })
        .collect();
    // The messages in line order (their pieces joined), read before any is
    // classified: a message of several lines is read with the lines after it.
    let mut items = Vec::with_capacity(decoded.len());
    let mut pieces = PartialLines::new();
    for (offset, (text, lossy_of)) in decoded.iter().enumerate() {
        let line = first_line + offset as u64;
        if lossy_of.is_some() {
            items.push(Item::InvalidUtf8(line));
        }
        let unwrapped = envelope.unwrap(text);
        let read = Read::Line { text, lossy_of: *lossy_of };
        if !envelope.has_pieces() {
            items.push(Item::Message(line, read, unwrapped));
        } else if let Some((first, whole)) = pieces.push(line, unwrapped) {
            items.push(Item::Message(first, if first == line { read } else { Read::Joined }, whole));
        }
    }
    items.extend(pieces.finish().into_iter().map(|(line, whole)| Item::Message(line, Read::Joined, whole)));
    let heads = classifier.catalog.matcher().may_start_multi_line(chunk);
    let keep_text = classifier.options.details || classifier.options.unmatched.is_some();
    let mut grouped =
        Grouped { classifier, multi_line: MultiLine::new(), heads, keep_text, open: None, own: [None; 2], intro: None };
    let mut events = Vec::new();
    let mut at = 0;
    while at < items.len() {
        at += match &items[at] {
            Item::InvalidUtf8(line) => {
                events.push(ScanEvent::InvalidUtf8 { line: *line });
                1
            }
            Item::Message(..) => grouped.message(&items, at, &mut events),
        };
    }
    grouped.close(&mut events);
    events
}

/// A line's place in a chunk read line by line.
enum Item<'t> {
    /// The line of this number is not UTF-8 (told before its message).
    InvalidUtf8(u64),
    /// A message, read so, of the line of this number (the first of its pieces).
    Message(u64, Read<'t>, LogLine<'t>),
}

impl Item<'_> {
    /// The message's text (empty for a line that is not UTF-8).
    fn text(&self) -> &str {
        match self {
            Item::Message(_, _, message) => message.text(),
            Item::InvalidUtf8(_) => "",
        }
    }
}

/// How a message was read.
#[derive(Clone, Copy)]
enum Read<'t> {
    /// From the line `text` (decoded lossily from `lossy_of`, if given).
    Line { text: &'t str, lossy_of: Option<&'t [u8]> },
    /// Joined from pieces of several lines: the message is the line.
    Joined,
}

/// Lines grouped into multi-line events as they are classified.
struct Grouped<'a, 'c> {
    classifier: &'a ChunkClassifier<'c>,
    multi_line: MultiLine,
    /// Whether the chunk holds a multi-line template's first-line literal.
    heads: bool,
    /// Whether events keep the text of their lines (for details or
    /// unmatched events).
    keep_text: bool,
    /// The event of several lines being read, out of the events until it ends.
    open: Option<Open>,
    /// The last two lines of their own, the latest first: a trace's
    /// message and the line that may have introduced it.
    own: [Option<Own>; 2],
    /// The line that introduced the Python traceback being held.
    intro: Option<Own>,
}

/// A line of its own, classified.
#[derive(Clone, Copy)]
struct Own {
    line: u64,
    /// Its item.
    item: usize,
    /// Where what it gave (a match or an unmatched line) is in the events.
    at: Option<usize>,
}

/// A line of an event and what classifying it gave.
struct Member {
    line: u64,
    /// Its message (empty unless the scan keeps text).
    text: String,
    found: Option<Found>,
    /// The level of its unmatched line, when one was reported.
    unmatched: Option<String>,
}

impl Member {
    fn into_part(self) -> Part {
        Part::new(self.line, self.text, self.found.map(|found| found.found))
    }
}

/// An event of several lines being read.
struct Open {
    /// Where it goes in the events.
    slot: usize,
    start_line: u64,
    end_line: u64,
    intro: Option<Member>,
    message: Member,
    /// The nearest first.
    causes: Vec<Part>,
    /// Its lines but the introducing line and the message, in order.
    context: Lines,
    /// All its lines, in order.
    lines: Lines,
}

/// Lines joined with `\n` (an empty first line kept: Go's blank line
/// after a panic).
#[derive(Default)]
struct Lines {
    text: String,
    any: bool,
}

impl Lines {
    fn push(&mut self, line: &str) {
        if std::mem::replace(&mut self.any, true) {
            self.text.push('\n');
        }
        self.text.push_str(line);
    }
}

impl Grouped<'_, '_> {
    /// Classifies the message `items[at]`, with the messages after it when
    /// it starts a message of several lines; the items it took.
    fn message(&mut self, items: &[Item<'_>], at: usize, events: &mut Vec<ScanEvent>) -> usize {
        let Item::Message(line, _, unwrapped) = &items[at] else { return 1 };
        let Some(before) = self.line(items, at, events) else { return 1 };
        let alone_matched = events[before..].iter().any(|event| matches!(event, ScanEvent::Found(_)));
        let next_indented = match items.get(at + 1) {
            Some(Item::Message(_, _, next)) => continues(next.text()),
            _ => false,
        };
        if !self.heads && (alone_matched || !next_indented) {
            return 1;
        }
        let messages: Vec<&str> = (items[at..].iter().take(MAX_EVENT_LINES))
            .map_while(|item| match item {
                Item::Message(_, _, message) => Some(message.text()),
                Item::InvalidUtf8(_) => None,
            })
            .collect();
        let classifier = self.classifier;
        let Some(spanning) = spanning(classifier.catalog, &messages, alone_matched, self.heads) else { return 1 };
        // One event in place of the first line's match or unmatched line.
        let mut kept = before;
        for at in before..events.len() {
            if matches!(events[at], ScanEvent::Note { .. } | ScanEvent::InvalidUtf8 { .. }) {
                events.swap(kept, at);
                kept += 1;
            }
        }
        events.truncate(kept);
        let plain = LogLine::plain(&spanning.text);
        let mut found = classifier.found(*line, &spanning.text, None, &plain, spanning.found);
        if let Some(details) = &mut found.details {
            details.envelope = unwrapped.envelope();
        }
        let end_line = *line + spanning.lines as u64 - 1;
        let message = Member { line: *line, text: String::new(), found: Some(found), unmatched: None };
        let lines = self.kept(spanning.text);
        let (slot, causes, context) = (events.len(), Vec::new(), Lines::default());
        self.open = Some(Open { slot, start_line: *line, end_line, intro: None, message, causes, context, lines });
        self.own = [None; 2];
        spanning.lines
    }

    /// Classifies one message as a line of an event or of its own; when it
    /// was a line of its own (not of a trace), which may start a message of
    /// several lines, where its events start.
    fn line(&mut self, items: &[Item<'_>], at: usize, events: &mut Vec<ScanEvent>) -> Option<usize> {
        let Item::Message(line, read, unwrapped) = &items[at] else { return None };
        let (line, text) = (*line, unwrapped.text());
        match self.multi_line.role(line, text) {
            LineRole::Held => {
                if MultiLine::starts_traceback(text) && !self.multi_line.holds_a_chain() {
                    self.close(events);
                    self.intro = self.own[0].filter(|own| introduces(items, own, line));
                }
                None
            }
            LineRole::Context => {
                if self.open.is_none() {
                    self.open_trace(items, events);
                }
                self.add_context(line, text);
                None
            }
            LineRole::Message { context, first_line } => {
                self.close(events);
                let message = self.classified_member(line, *read, unwrapped, events);
                let intro = self.intro.take().map(|own| self.member(items, own, events));
                let start_line = intro.as_ref().map_or(first_line, |intro| intro.line);
                let lines = self.joined([intro.as_ref().map(|intro| intro.text.as_str()), Some(&context), Some(text)]);
                let (slot, causes, context) = (events.len(), Vec::new(), self.kept(context));
                self.open = Some(Open { slot, start_line, end_line: line, intro, message, causes, context, lines });
                self.own = [None; 2];
                None
            }
            LineRole::Chained { context: held, first_line } => {
                let message = self.classified_member(line, *read, unwrapped, events);
                let open = match self.open.take() {
                    Some(cause) => {
                        let before = cause.context.any.then_some(&*cause.context.text);
                        let context = self.joined([before, Some(&cause.message.text), Some(&held)]);
                        let lines = self.joined([Some(&*cause.lines.text), Some(&held), Some(text)]);
                        let Open { slot, start_line, intro, message: inner, causes: inner_causes, .. } = cause;
                        let causes = std::iter::once(inner.into_part()).chain(inner_causes).collect();
                        Open { slot, start_line, end_line: line, intro, message, causes, context, lines }
                    }
                    // The cause was in another chunk.
                    None => {
                        let lines = self.joined([Some(&*held), Some(text)]);
                        let (slot, causes, context) = (events.len(), Vec::new(), self.kept(held));
                        Open {
                            slot,
                            start_line: first_line,
                            end_line: line,
                            intro: None,
                            message,
                            causes,
                            context,
                            lines,
                        }
                    }
                };
                self.open = Some(open);
                self.own = [None; 2];
                None
            }
            _ => {
                self.close(events);
                self.intro = None;
                let before = events.len();
                self.classify(line, *read, unwrapped, events);
                let at_event = events[before..].iter().position(is_outcome).map(|offset| before + offset);
                self.own = [Some(Own { line, item: at, at: at_event }), self.own[0]];
                Some(before)
            }
        }
    }

    /// Opens the event of the Java or Go trace whose first line came last,
    /// with the line that introduced it, if one did.
    fn open_trace(&mut self, items: &[Item<'_>], events: &mut Vec<ScanEvent>) {
        let Some(exception) = self.own[0] else { return };
        let may_be_introduced = MultiLine::may_be_introduced(items[exception.item].text());
        let intro = self.own[1].filter(|own| may_be_introduced && introduces(items, own, exception.line));
        // The later first: taking an event out moves those after it.
        let message = self.member(items, exception, events);
        let intro = intro.map(|own| self.member(items, own, events));
        let start_line = intro.as_ref().map_or(exception.line, |intro| intro.line);
        let lines = self.joined([intro.as_ref().map(|intro| intro.text.as_str()), Some(&message.text)]);
        let (slot, causes, context, end_line) = (events.len(), Vec::new(), Lines::default(), exception.line);
        self.open = Some(Open { slot, start_line, end_line, intro, message, causes, context, lines });
        self.own = [None; 2];
    }

    /// Adds the trace line `text` (line `line`) to the open event, if any.
    fn add_context(&mut self, line: u64, text: &str) {
        let (keep_text, details) = (self.keep_text, self.classifier.options.details);
        let catalog = self.classifier.catalog;
        let Some(open) = &mut self.open else { return };
        open.end_line = line;
        if keep_text {
            open.context.push(text);
            open.lines.push(text);
        }
        if let Some(cause) = text.trim_start().strip_prefix("Caused by: ").filter(|_| details) {
            let found = catalog.find(cause).map(|found| found.into_owned());
            open.causes.push(Part::new(line, cause.to_owned(), found));
        }
    }

    /// Ends the open event: puts it back into the events as one.
    fn close(&mut self, events: &mut Vec<ScanEvent>) {
        let Some(open) = self.open.take() else { return };
        let Open { slot, start_line, end_line, intro, message, causes, context, lines } = open;
        let several = end_line > start_line || intro.is_some() || !causes.is_empty();
        // The introducing line's match explains the event only when its message's does not.
        let rest = lines.text.split_once('\n').map(|(_, rest)| rest.to_owned());
        let rest_after_intro = Lines { any: rest.is_some(), text: rest.unwrap_or_default() };
        let lines = lines.text;
        let parts =
            |intro: Option<Part>| several.then(|| Box::new(EventParts { start_line, end_line, lines, intro, causes }));
        let event = match (message.found, intro) {
            (Some(mut found), intro) => {
                if let Some(details) = &mut found.details {
                    add_to_context(&mut details.context, context);
                    details.event = parts(intro.map(Member::into_part));
                }
                Some(ScanEvent::Found(found))
            }
            // The introducing line explains the event: the rest is its context.
            (None, Some(Member { found: Some(mut found), .. })) => {
                if let Some(details) = &mut found.details {
                    add_to_context(&mut details.context, rest_after_intro);
                    details.event = parts(None);
                }
                Some(ScanEvent::Found(found))
            }
            (None, intro) => {
                let level = match &intro {
                    Some(intro) => intro.unmatched.clone(),
                    // An uncaught exception, a panic: an error.
                    None => message.unmatched.clone().or_else(|| {
                        let as_error = LogLine::plain(&message.text).with_level(LogLevel::Error);
                        self.classifier.options.unmatched.and_then(|level_of| level_of(&as_error))
                    }),
                };
                level.map(|level| ScanEvent::Unmatched {
                    line: message.line,
                    level,
                    text: message.text,
                    event: parts(intro.map(Member::into_part)),
                })
            }
        };
        if let Some(event) = event {
            events.insert(slot.min(events.len()), event);
        }
    }

    /// Classifies the message of an event (which [`Grouped::close`] puts
    /// back) and takes what it gave out of the events.
    fn classified_member(
        &self,
        line: u64,
        read: Read<'_>,
        message: &LogLine<'_>,
        events: &mut Vec<ScanEvent>,
    ) -> Member {
        let before = events.len();
        self.classify(line, read, message, events);
        let at = events[before..].iter().position(is_outcome).map(|offset| before + offset);
        let text = if self.keep_text { message.text().to_owned() } else { String::new() };
        take_member(events, line, text, at)
    }

    /// `own` as a member of an event, what it gave taken out of the events.
    fn member(&self, items: &[Item<'_>], own: Own, events: &mut Vec<ScanEvent>) -> Member {
        let text = if self.keep_text { items[own.item].text().to_owned() } else { String::new() };
        take_member(events, own.line, text, own.at)
    }

    /// The lines `text` (joined already), when the scan keeps text.
    fn kept(&self, text: String) -> Lines {
        Lines { any: self.keep_text, text: if self.keep_text { text } else { String::new() } }
    }

    /// The texts given, as lines, when the scan keeps text.
    fn joined<'t>(&self, texts: impl IntoIterator<Item = Option<&'t str>>) -> Lines {
        let mut joined = Lines::default();
        if self.keep_text {
            texts.into_iter().flatten().for_each(|text| joined.push(text));
        }
        joined
    }
    /// Classifies one line: its message, else (in an envelope) the line as
    /// it is, else an unmatched line if its level is wanted.
    fn classify(&self, line: u64, read: Read<'_>, unwrapped: &LogLine<'_>, events: &mut Vec<ScanEvent>) {
        let classifier = self.classifier;
        if let Some(note) = unwrapped.note() {
            events.push(ScanEvent::Note { line, note });
        }
        let (text, lossy_of) = match read {
            Read::Line { text, lossy_of } => (text, lossy_of),
            Read::Joined => (unwrapped.text(), None),
        };
        let found = match classifier.catalog.find(unwrapped.text()) {
            Some(found) => Some(classifier.found(line, text, lossy_of, unwrapped, found)),
            // Detection is a hint: the line as it is may hold a message.
            None if unwrapped.envelope() != EnvelopeKind::None && matches!(read, Read::Line { .. }) => {
                let plain = LogLine::plain(text);
                classifier.catalog.find(text).map(|found| classifier.found(line, text, lossy_of, &plain, found))
            }
            None => None,
        };
        match found {
            Some(found) => events.push(ScanEvent::Found(found)),
            None => {
                if let Some(level) = classifier.options.unmatched.and_then(|level_of| level_of(unwrapped)) {
                    events.push(ScanEvent::Unmatched { line, level, text: unwrapped.text().to_owned(), event: None });
                }
            }
        }
    }
}

/// Whether the line of its own `own` may introduce the trace that starts at
/// line `line`: it is the line just before, of a level that may.
fn introduces(items: &[Item<'_>], own: &Own, line: u64) -> bool {
    let Item::Message(_, _, message) = &items[own.item] else { return false };
    own.line + 1 == line && MultiLine::may_introduce(message.level())
}

/// Whether `event` is what classifying a line gave (not a note about it).
fn is_outcome(event: &ScanEvent) -> bool {
    matches!(event, ScanEvent::Found(_) | ScanEvent::Unmatched { .. })
}

/// The member of line `line`, what it gave (at `at` in `events`) taken out.
fn take_member(events: &mut Vec<ScanEvent>, line: u64, text: String, at: Option<usize>) -> Member {
    let (found, unmatched) = match at.map(|at| events.remove(at)) {
        Some(ScanEvent::Found(found)) => (Some(found), None),
        Some(ScanEvent::Unmatched { level, .. }) => (None, Some(level)),
        _ => (None, None),
    };
    Member { line, text, found, unmatched }
}

/// Adds `lines` to `to` after a line break (a trace after the envelope's own).
fn add_to_context(to: &mut Option<String>, lines: Lines) {
    if !lines.any {
        return;
    }
    match to {
        Some(context) => {
            context.push('\n');
            context.push_str(&lines.text);
        }
        None => *to = Some(lines.text),
    }
}
