//! A match's spans in the line as read (see the coordinates in the
//! module's docs of [`scan`](super)).

use std::ops::Range;

use super::ChunkClassifier;
use crate::envelope::LogLine;
use crate::format::{parse_value, Piece};
use crate::matcher::Match;

/// The spans of a match, in the line as read.
pub(super) struct Placed {
    pub span: Range<usize>,
    pub message_span: Range<usize>,
    pub field_spans: Option<Vec<Option<Range<usize>>>>,
}

impl Placed {
    /// `found`, a match in `unwrapped`'s message, placed in the line `text`
    /// (read lossily from `lossy_of`, if given).
    pub fn new(
        classifier: &ChunkClassifier<'_>,
        text: &str,
        lossy_of: Option<&[u8]>,
        unwrapped: &LogLine<'_>,
        found: &Match<'_>,
    ) -> Placed {
        let message = unwrapped.text();
        let shift = |range: &Range<usize>, at: usize| at + range.start..at + range.end;
        let (span, field_spans) = match offset_in(text.as_bytes(), message) {
            // The message is a run of the line's bytes.
            Some(at) => {
                let fields = classifier.options.details.then(|| classifier.field_spans(message, found)).flatten();
                let fields =
                    fields.map(|fields| fields.iter().map(|span| span.as_ref().map(|s| shift(s, at))).collect());
                (shift(&found.span, at), fields)
            }
            // Escapes were undone: only the message's place is known.
            None => (unwrapped.span_in_input(), None),
        };
        let mut placed = Placed { span, message_span: unwrapped.span_in_input(), field_spans };
        if let Some(bytes) = lossy_of {
            let in_bytes = |range: &Range<usize>| lossy_span_in_bytes(range, bytes);
            placed.span = in_bytes(&placed.span);
            placed.message_span = in_bytes(&placed.message_span);
            if let Some(fields) = &mut placed.field_spans {
                fields.iter_mut().flatten().for_each(|span| *span = in_bytes(span));
            }
        }
        placed
    }
}

/// `range` of `String::from_utf8_lossy(bytes)` in `bytes` themselves.
fn lossy_span_in_bytes(range: &Range<usize>, bytes: &[u8]) -> Range<usize> {
    Match { index: 0, span: range.clone(), values: Vec::new() }.span_in_bytes(bytes)
}

impl ChunkClassifier<'_> {
    /// Where each field of `found` (a match in `message`) is in `message`:
    /// the placeholders of the matcher's split of the matched text, when
    /// they read the values the match has (else `None`: never a span that
    /// does not hold its value).
    fn field_spans(&self, message: &str, found: &Match<'_>) -> Option<Vec<Option<Range<usize>>>> {
        let template = &self.catalog.entries().get(found.index)?.template;
        let matched = message.get(found.span.clone())?;
        let placeholders = self.catalog.matcher().placeholder_spans(found.index, matched)?;
        if placeholders.len() != template.pieces.iter().filter(|piece| matches!(piece, Piece::Value { .. })).count() {
            return None;
        }
        let mut spans = vec![None; found.values.len()];
        let values = template.pieces.iter().filter_map(|piece| match piece {
            Piece::Value { field, spec } => Some((usize::from(*field), spec)),
            _ => None,
        });
        for ((field, spec), placeholder) in values.zip(&placeholders) {
            let kind = template.fields.get(field)?.kind;
            let text = matched.get(placeholder.clone())?;
            if parse_value(kind, spec, template.dialect, text).as_ref() != found.values.get(field) {
                return None;
            }
            let start = found.span.start + placeholder.start;
            spans[field].get_or_insert(start..start + placeholder.len());
        }
        Some(spans)
    }
}

/// Where `part` starts in `text`, when it is a part of it (borrowed from
/// it, not copied).
pub(super) fn offset_in(text: &[u8], part: &str) -> Option<usize> {
    let at = (part.as_ptr() as usize).wrapping_sub(text.as_ptr() as usize);
    (at <= text.len() && part.len() <= text.len() - at).then_some(at)
}

/// Finds the lines of a chunk read at once, by the message found in them
/// (the lines come in order).
pub(super) struct LineFinder<'t> {
    chunk: &'t [u8],
    /// The number and start of a line already found.
    at: (usize, usize),
}

impl<'t> LineFinder<'t> {
    pub fn new(chunk: &'t [u8]) -> Self {
        LineFinder { chunk, at: (0, 0) }
    }

    /// Where `message` starts in its line, when it is a run of the chunk's bytes.
    pub fn message_start(&self, message: &str) -> Option<usize> {
        let at = offset_in(self.chunk, message)?;
        Some(at - memchr::memrchr(b'\n', &self.chunk[..at]).map_or(0, |i| i + 1))
    }

    /// The line numbered `number` (without its line break and a `\r` that
    /// ends it), which holds `message`: found around the message when it
    /// is a run of the chunk's bytes, else (escapes undone) only when
    /// `wanted`, by counting line breaks (`""` when not wanted).
    pub fn line_holding(&mut self, number: usize, message: &str, wanted: bool) -> &'t str {
        let chunk = self.chunk;
        let start = match offset_in(chunk, message) {
            Some(at) => memchr::memrchr(b'\n', &chunk[..at]).map_or(0, |i| i + 1),
            None if wanted => {
                let (mut line, mut start) = self.at;
                while line < number {
                    start += memchr::memchr(b'\n', &chunk[start..]).map_or(chunk.len() - start, |i| i + 1);
                    line += 1;
                }
                start
            }
            None => return "",
        };
        self.at = (number, start);
        let end = memchr::memchr(b'\n', &chunk[start..]).map_or(chunk.len(), |i| start + i);
        let line = &chunk[start..end];
        // The lines read at once are UTF-8.
        std::str::from_utf8(line.strip_suffix(b"\r").unwrap_or(line)).unwrap_or_default()
    }
}
