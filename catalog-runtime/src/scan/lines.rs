//! [`ChunkPath::LineByLine`](super::ChunkPath::LineByLine): each line
//! decoded (lossily when it is not UTF-8), taken out of its envelope, its
//! pieces joined, grouped into multi-line events and matched.

use std::borrow::Cow;

use super::{ChunkClassifier, Found, ScanEvent};
use crate::envelope::{EnvelopeKind, LineRole, LogLine, MultiLine, PartialLines};

/// The events of `chunk`, line by line.
pub(super) fn classify(classifier: &ChunkClassifier<'_>, chunk: &[u8], first_line: u64) -> Vec<ScanEvent> {
    let envelope = &classifier.options.envelope;
    let mut events = Vec::new();
    let mut pieces = PartialLines::new();
    let mut grouped = Grouped { classifier, multi_line: MultiLine::new(), last_found: None };
    let body = chunk.strip_suffix(b"\n").unwrap_or(chunk);
    for (offset, bytes) in body.split(|&b| b == b'\n').enumerate() {
        let line = first_line + offset as u64;
        let bytes = bytes.strip_suffix(b"\r").unwrap_or(bytes);
        let text = String::from_utf8_lossy(bytes);
        let lossy_of = matches!(text, Cow::Owned(_)).then_some(bytes);
        if lossy_of.is_some() {
            events.push(ScanEvent::InvalidUtf8 { line });
        }
        let unwrapped = envelope.unwrap(&text);
        if !envelope.has_pieces() {
            grouped.line(line, Read::Line { text: &text, lossy_of }, unwrapped, &mut events);
        } else if let Some((first, whole)) = pieces.push(line, unwrapped) {
            let read = if first == line { Read::Line { text: &text, lossy_of } } else { Read::Joined };
            grouped.line(first, read, whole, &mut events);
        }
    }
    for (line, whole) in pieces.finish() {
        grouped.line(line, Read::Joined, whole, &mut events);
    }
    events
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
}

impl Grouped<'_, '_> {
    fn line(&mut self, line: u64, read: Read<'_>, unwrapped: LogLine<'_>, events: &mut Vec<ScanEvent>) {
        let context = match self.multi_line.role(line, unwrapped.text()) {
            LineRole::Held => return,
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
                return;
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
    }

    /// Classifies one line: its message, else (in an envelope) the line as
    /// it is, else an unmatched line if its level is wanted.
    fn classify(&self, line: u64, read: Read<'_>, unwrapped: LogLine<'_>, events: &mut Vec<ScanEvent>) {
        let classifier = self.classifier;
        if let Some(note) = unwrapped.note() {
            events.push(ScanEvent::Note { line, note });
        }
        let (text, lossy_of) = match read {
            Read::Line { text, lossy_of } => (text, lossy_of),
            Read::Joined => (unwrapped.text(), None),
        };
        let found = match classifier.catalog.find(unwrapped.text()) {
            Some(found) => Some(classifier.found(line, text, lossy_of, &unwrapped, found)),
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
                if let Some(level) = classifier.options.unmatched.and_then(|level_of| level_of(&unwrapped)) {
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
