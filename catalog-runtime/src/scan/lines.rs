//! [`ChunkPath::LineByLine`](super::ChunkPath::LineByLine): each line
//! decoded (lossily when it is not UTF-8), taken out of its envelope, its
//! pieces joined, grouped into multi-line events (traces, and messages of
//! several lines: see [`spanning`](super::spanning)) and matched.

use std::borrow::Cow;

use super::spanning::{continues, spanning, MAX_EVENT_LINES};
use super::{ChunkClassifier, Found, ScanEvent};
use crate::envelope::{EnvelopeKind, LineRole, LogLine, MultiLine, PartialLines};

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
    let heads = classifier.catalog.matcher().may_start_multi_line(chunk, false);
    let mut grouped = Grouped { classifier, multi_line: MultiLine::new(), last_found: None, heads };
    let mut events = Vec::new();
    let mut at = 0;
    while at < items.len() {
        at += match &items[at] {
            Item::InvalidUtf8(line) => {
                events.push(ScanEvent::InvalidUtf8 { line: *line });
                1
            }
            Item::Message(..) => grouped.message(&items[at..], &mut events),
        };
    }
    events
}

/// A line's place in a chunk read line by line.
enum Item<'t> {
    /// The line of this number is not UTF-8 (told before its message).
    InvalidUtf8(u64),
    /// A message, read so, of the line of this number (the first of its pieces).
    Message(u64, Read<'t>, LogLine<'t>),
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
    /// The line whose event the trace lines that follow belong to, and
    /// where its match (if any) is in the events.
    last_found: Option<Option<usize>>,
    /// Whether the chunk holds a multi-line template's first-line literal.
    heads: bool,
}

impl Grouped<'_, '_> {
    /// Classifies the message `items[0]`, with the messages after it when
    /// it starts a message of several lines; the items it took.
    fn message(&mut self, items: &[Item<'_>], events: &mut Vec<ScanEvent>) -> usize {
        let Item::Message(line, read, unwrapped) = &items[0] else { return 1 };
        let before = events.len();
        if !self.line(*line, *read, unwrapped, events) {
            return 1;
        }
        let alone_matched = events[before..].iter().any(|event| matches!(event, ScanEvent::Found(_)));
        let next_indented = match items.get(1) {
            Some(Item::Message(_, _, next)) => continues(next.text()),
            _ => false,
        };
        if !self.heads && (alone_matched || !next_indented) {
            return 1;
        }
        let messages: Vec<&str> = (items.iter().take(MAX_EVENT_LINES))
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
        self.last_found = Some(Some(events.len()));
        events.push(ScanEvent::Found(found));
        spanning.lines
    }

    /// Classifies one message as a line of a trace or of its own; whether
    /// it was a line of its own (not of a trace), which may start a message
    /// of several lines.
    fn line(&mut self, line: u64, read: Read<'_>, unwrapped: &LogLine<'_>, events: &mut Vec<ScanEvent>) -> bool {
        let role = self.multi_line.role(line, unwrapped.text());
        let of_its_own = role == LineRole::Line;
        let context = match role {
            LineRole::Held => return false,
            LineRole::Context => {
                // A trace line: context of the event of the line it follows.
                if let Some(context) = self.last_found.flatten().and_then(|at| context_of(events, at)) {
                    match context {
                        Some(context) => {
                            context.push('\n');
                            context.push_str(unwrapped.text());
                        }
                        None => *context = Some(unwrapped.text().to_owned()),
                    }
                }
                return false;
            }
            LineRole::Message { context, .. } => Some(context),
            _ => None,
        };
        let before = events.len();
        self.classify(line, read, unwrapped, events);
        let found = events[before..].iter().position(|event| matches!(event, ScanEvent::Found(_)));
        self.last_found = Some(found.map(|at| before + at));
        if let Some(context) = context {
            if let Some(slot) = self.last_found.flatten().and_then(|at| context_of(events, at)) {
                *slot = Some(context);
            }
        }
        of_its_own
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
                    events.push(ScanEvent::Unmatched { line, level, text: unwrapped.text().to_owned() });
                }
            }
        }
    }
}

/// The context of the match at `at` in `events`, to carry a trace, when it
/// has details to hold one.
fn context_of(events: &mut [ScanEvent], at: usize) -> Option<&mut Option<String>> {
    match events.get_mut(at) {
        Some(ScanEvent::Found(Found { details: Some(details), .. })) => Some(&mut details.context),
        _ => None,
    }
}
