//! Docker's json-file log driver: `{"log":"…\n","stream":"stderr","time":"…"}`
//! (moby `daemon/logger/jsonfilelog/jsonlog/jsonlogbytes.go`). The message is
//! `log`, JSON-escaped with `<`, `>`, `&` as `\u003c`, `\u003e`, `\u0026` and
//! a tab as `\u0009`; it ends with `\n` unless it is a piece of a line longer
//! than 16 KiB (`daemon/logger/copier.go`, `defaultBufSize = 16 * 1024`).
//!
//! Moby's line shape is known here only: [`unwrap`] reads a line of that
//! shape without collecting its fields, and [`lines_to_unwrap`] tells
//! which lines of a buffer need unwrapping at all.

use std::ops::Range;

use super::json_fields::{self, Json};
use super::trace_marks::may_begin_event;
use super::unescape::{json_string, Escapes};
use super::{EnvelopeKind, LogLine, Stream};

/// A line as moby writes it without `attrs` (`MarshalJSONBuf`): these
/// bytes, `log`'s contents, [`AFTER_LOG`], `stream`'s, [`AFTER_STREAM`],
/// `time`'s and [`LINE_END`].
const LOG_START: &[u8; 8] = br#"{"log":""#;
const AFTER_LOG: &[u8; 12] = br#"","stream":""#;
const AFTER_STREAM: &[u8; 10] = br#"","time":""#;
const LINE_END: &[u8; 2] = br#""}"#;

/// The line's message, when `line` is a json-file entry.
pub(crate) fn unwrap(line: &str) -> Option<LogLine<'_>> {
    let (raw, at, stream) = match as_moby_writes(line) {
        Some((raw, at, stream)) => (raw, at, json_string(stream).as_deref().and_then(stream_of)),
        None => {
            let fields = json_fields::fields(line)?;
            let Some(Json::Str { raw, at }) = json_fields::get(&fields, "log") else { return None };
            let stream = match json_fields::get(&fields, "stream").and_then(Json::text).as_deref() {
                Some(stream @ ("stdout" | "stderr")) => stream_of(stream),
                _ if json_fields::get(&fields, "time").is_some() => None,
                _ => return None,
            };
            (*raw, at.clone(), stream)
        }
    };
    let text = match raw.strip_suffix("\\n") {
        // As moby writes most lines: no escape but the `\n` that ends the
        // line, which unwrapping drops; the message is then borrowed.
        Some(message) if memchr::memchr(b'\\', message.as_bytes()).is_none() => {
            let mut at = at;
            at.end -= 2;
            let mut unwrapped =
                LogLine::wrapped(EnvelopeKind::Docker, message.strip_suffix('\r').unwrap_or(message).into(), at);
            unwrapped.stream = stream;
            return Some(unwrapped);
        }
        _ => json_string(raw)?,
    };
    // `\n` or `\u000a`, as written.
    let ends_line = text.ends_with('\n');
    let mut at = at;
    if ends_line {
        at.end -= if raw.ends_with("\\n") { 2 } else { 6 };
    }
    let mut unwrapped = LogLine::wrapped(EnvelopeKind::Docker, text, at);
    unwrapped.stream = stream;
    unwrapped.ends_line = ends_line;
    if ends_line {
        unwrapped.strip_line_break();
    }
    Some(unwrapped)
}

fn stream_of(name: &str) -> Option<Stream> {
    match name {
        "stdout" => Some(Stream::Stdout),
        "stderr" => Some(Stream::Stderr),
        _ => None,
    }
}

/// The `log` (its raw contents and their range) and `stream` (raw) of a
/// line of exactly moby's shape (see [`LOG_START`]), read without
/// collecting the fields: what [`json_fields::fields`] reads of such a
/// line. Any other line is read field by field.
fn as_moby_writes(line: &str) -> Option<(&str, Range<usize>, &str)> {
    let bytes = line.as_bytes();
    // The end of the string whose contents start at `start`, as
    // `json_fields` finds it (an escape skips the byte after its backslash).
    let string_end = |mut at: usize| loop {
        let next = at + memchr::memchr2(b'"', b'\\', bytes.get(at..)?)?;
        if bytes[next] == b'"' {
            return Some(next);
        }
        at = next + 2;
    };
    if !starts_with(bytes, LOG_START) {
        return None;
    }
    let log = LOG_START.len()..string_end(LOG_START.len())?;
    if !starts_with(&bytes[log.end..], AFTER_LOG) {
        return None;
    }
    let stream = log.end + AFTER_LOG.len()..string_end(log.end + AFTER_LOG.len())?;
    if !starts_with(&bytes[stream.end..], AFTER_STREAM) {
        return None;
    }
    let time_end = string_end(stream.end + AFTER_STREAM.len())?;
    if &bytes[time_end..] != LINE_END {
        return None;
    }
    Some((&line[log.clone()], log, &line[stream]))
}

/// Calls `each(number, range)` for the lines of `body` (a buffer without
/// its final line break) that may match once unwrapped, in order: those
/// holding a literal (`hits`: where the literals start, in order) and
/// those not [passed over](passes_over) (`literal_bytes`: which bytes the
/// literals hold). With `events`, the lines whose
/// message may be grouped with others into one event are given too (see
/// [`may_begin_event`]). Gives the number of lines.
///
/// Each line is read from the start of its `log` to its first escape that
/// is not harmless: most lines' only escape is the `\n` that ends their
/// `log`.
pub(super) fn lines_to_unwrap(
    body: &[u8],
    literal_bytes: &[bool; 256],
    hits: impl IntoIterator<Item = usize>,
    events: bool,
    mut each: impl FnMut(usize, Range<usize>),
) -> usize {
    // The message may be a JSON or logfmt line, unwrapped again.
    let escapes = Escapes { literal_bytes, go: false, nested: true };
    let mut hits = hits.into_iter().peekable();
    let (mut start, mut number) = (0, 0);
    for end in memchr::memchr_iter(b'\n', body).chain([body.len()]) {
        let mut has_literal = false;
        while hits.next_if(|&hit| hit < end).is_some() {
            has_literal = true;
        }
        if has_literal || !passes_over(&body[start..end], escapes, events) {
            each(number, start..end);
        }
        (start, number) = (end + 1, number + 1);
    }
    number
}

/// Whether `line` is as moby writes a whole line ([`LOG_START`], then
/// `log`'s contents and the `\n` that ends them before [`AFTER_LOG`]),
/// every escape before that `\n` is harmless and no `\r` is there: its
/// message then holds no line break, and no literal when its raw text
/// holds none (what follows `log` is not the message). With `events`, also
/// that its message may not begin an event: neither `log` nor a quoted
/// value of a JSON or logfmt line inside it begins as one may.
fn passes_over(line: &[u8], escapes: Escapes<'_>, events: bool) -> bool {
    let Some(log) = line.strip_prefix(LOG_START) else { return false };
    if events && may_begin_event(log) {
        return false;
    }
    let mut at = 0;
    loop {
        // A `log` that ends at a quote before its `\n` is a piece, or not
        // moby's; a raw `\r` in it would be the message's.
        let Some(next) = memchr::memchr3(b'"', b'\\', b'\r', &log[at..]).map(|found| at + found) else {
            return false;
        };
        let escape = &log[next + 1..];
        if log[next] != b'\\' || escape.is_empty() {
            return false;
        }
        if escape[0] == b'n' && starts_with(&escape[1..], AFTER_LOG) {
            return true;
        }
        if events && escape[0] == b'"' {
            let before = &log[..next];
            let value = before.ends_with(b"=") || before.ends_with(b":") || before.ends_with(b": ");
            if value && may_begin_event(&escape[1..]) {
                return false;
            }
        }
        match escapes.harmless(escape) {
            Some(used) => at = next + 1 + used,
            None => return false,
        }
    }
}

/// `bytes.starts_with(prefix)`, compared as arrays: a slice's comparison
/// calls `memcmp`, which took a few percent of a Docker log's scan
/// (measured).
#[inline]
fn starts_with<const N: usize>(bytes: &[u8], prefix: &[u8; N]) -> bool {
    bytes.first_chunk::<N>() == Some(prefix)
}

#[cfg(test)]
mod tests {
    use super::super::unescape::tests::bytes_of;
    use super::*;

    #[test]
    fn docker_lines_are_passed_over_only_when_whole_and_harmless() {
        let none = bytes_of("abc ");
        // Whether `line` alone is passed over.
        let docker = |line: &str, literal_bytes: &[bool; 256]| {
            let mut passed = true;
            assert_eq!(lines_to_unwrap(line.as_bytes(), literal_bytes, [], false, |_, _| passed = false), 1);
            // Among others, and after a line that is not passed over.
            let text = format!("{line}\n{line}\n{{\"log\":\"x");
            let mut given = Vec::new();
            assert_eq!(
                lines_to_unwrap(text.as_bytes(), literal_bytes, [], false, |number, range| given.push((number, range))),
                3
            );
            let line_range = |number: usize| number * (line.len() + 1)..number * (line.len() + 1) + line.len();
            let expected = if passed { vec![] } else { vec![(0, line_range(0)), (1, line_range(1))] };
            assert_eq!(given[..given.len() - 1], expected, "{line}");
            passed
        };
        let whole = r#"{"log":"[ERR] x \"y\" \u003cz\u003e\n","stream":"stderr","time":"t"}"#;
        assert!(docker(&format!("{whole}\r"), &none));
        assert!(docker(whole, &none));
        assert!(!docker(whole, &bytes_of("<")));
        // A piece (no `\n`), an empty `log`, another shape, an escape after
        // which an inner JSON line may escape anything.
        for line in [
            r#"{"log":"[ERR] x","stream":"stderr","time":"t"}"#,
            r#"{"log":"","stream":"stderr","time":"t"}"#,
            r#"{"stream":"stderr","log":"x\n","time":"t"}"#,
            r#"{"log":"{\"msg\":\"\\u0061\"}\n","stream":"stderr","time":"t"}"#,
            r#"{"log":"a\nb\n","stream":"stderr","time":"t"}"#,
            r#"{"log":"a\"#,
            // A `log` that ends at a quote: a piece, whatever follows.
            r#"{"log":"a","stream":"x\n","stream":"stderr","time":"t"}"#,
            "{\"log\":\"a\rb\\n\",\"stream\":\"stderr\",\"time\":\"t\"}",
        ] {
            assert!(!docker(line, &none), "{line}");
        }
        // The escapes after `log` are not the message's.
        assert!(docker(r#"{"log":"x\n","stream":"stderr","attrs":{"a":"\u0061\n"},"time":"t"}"#, &bytes_of("a")));
    }

    #[test]
    fn the_message_is_unescaped_and_a_piece_is_marked() {
        // As moby writes it: HTML-safe escapes, `\u0009` for a tab, `\n` at the end.
        let line = r#"{"log":"[1] 2026/11/29 17:20:35.000001 [ERR] disk \u003cfull\u003e \u0026\u0009x \"s7\"\n","stream":"stderr","time":"2026-11-29T17:20:35.000001Z"}"#;
        let unwrapped = unwrap(line).unwrap();
        assert_eq!(unwrapped.text(), "[1] 2026/11/29 17:20:35.000001 [ERR] disk <full> &\tx \"s7\"");
        assert_eq!(unwrapped.stream, Some(Stream::Stderr));
        assert!(unwrapped.ends_line);
        assert!(line[unwrapped.span_in_input()].ends_with(r#"\"s7\""#));
        let piece = unwrap(r#"{"log":"abc","stream":"stdout","time":"t"}"#).unwrap();
        assert!(!piece.ends_line);
        assert_eq!(piece.text(), "abc");
        assert!(unwrap(r#"{"msg":"abc","level":"error"}"#).is_none());
        assert!(unwrap(r#"{"log":"abc"}"#).is_none());
    }

    #[test]
    fn a_message_whose_only_escape_ends_the_line_is_borrowed_as_unescaping_gives_it() {
        for line in [
            r#"{"log":"[ERR] plain words\n","stream":"stderr","time":"2026-11-29T17:20:35Z"}"#,
            "{\"log\":\"ends with a return\r\\n\",\"stream\":\"stdout\",\"time\":\"t\"}",
            r#"{"log":"\n","stream":"stdout","time":"t"}"#,
            r#"{"log":"level=info msg=borrowed\n","stream":"stdout","time":"t"}"#,
        ] {
            let unwrapped = unwrap(line).unwrap();
            assert!(matches!(unwrapped.text, std::borrow::Cow::Borrowed(_)), "{line}");
            // What unescaping the whole `log` gives, its line break dropped.
            let (raw, at, _) = as_moby_writes(line).unwrap();
            let unescaped = json_string(raw).unwrap();
            assert_eq!(unwrapped.text(), crate::matcher::trim_line_break(&unescaped), "{line}");
            assert_eq!(unwrapped.span_in_input(), at.start..at.end - 2);
            assert!(unwrapped.ends_line && unwrapped.stream.is_some());
        }
    }

    #[test]
    fn lines_as_moby_writes_them_read_as_any_other_shape() {
        // Each line read by the shortcut and, with a space that only the
        // field by field reader takes, by that reader: the same line.
        for line in [
            r#"{"log":"[ERR] a \"b\" \u003cc\u003e \\\n","stream":"stderr","time":"2026-11-29T17:20:35Z"}"#,
            r#"{"log":"piece","stream":"stdout","time":"t"}"#,
            r#"{"log":"x\n","stream":"std\u006fut","time":"t"}"#,
            r#"{"log":"x\n","stream":"stdin","time":"t"}"#,
            r#"{"log":"x\n","stream":"\q","time":"t"}"#,
            r#"{"log":"x\n","stream":"","time":""}"#,
            r#"{"log":"bad \q\n","stream":"stderr","time":"t"}"#,
            r#"{"log":"\u000a","stream":"stderr","time":"t"}"#,
        ] {
            assert!(as_moby_writes(line).is_some(), "{line}");
            let spaced = line.replacen(r#"{"log""#, r#"{ "log""#, 1);
            assert!(as_moby_writes(&spaced).is_none());
            let (fast, slow) = (unwrap(line), unwrap(&spaced));
            assert_eq!(fast.is_some(), slow.is_some(), "{line}");
            if let (Some(fast), Some(slow)) = (fast, slow) {
                let moved = slow.span_in_input.start - 1..slow.span_in_input.end - 1;
                assert_eq!(LogLine { span_in_input: moved, ..slow }, fast, "{line}");
            }
        }
        for line in [
            r#"{"log":"x\n","stream":"stderr","time":"t"} "#,
            r#"{"log":"x\n","stream":"stderr","attrs":{"a":"b"},"time":"t"}"#,
            r#"{"log":"x\n","stream":"stderr","time":"t"#,
            r#"{"log":"x\"#,
        ] {
            assert!(as_moby_writes(line).is_none(), "{line}");
        }
    }
}
