//! Docker's json-file log driver: `{"log":"…\n","stream":"stderr","time":"…"}`
//! (moby `daemon/logger/jsonfilelog/jsonlog/jsonlogbytes.go`). The message is
//! `log`, JSON-escaped with `<`, `>`, `&` as `\u003c`, `\u003e`, `\u0026` and
//! a tab as `\u0009`; it ends with `\n` unless it is a piece of a line longer
//! than 16 KiB (`daemon/logger/copier.go`, `defaultBufSize = 16 * 1024`).

use std::ops::Range;

use super::json_fields::{self, Json};
use super::unescape::json_string;
use super::{EnvelopeKind, LogLine, Stream};

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
/// line of exactly the shape moby writes without `attrs`,
/// `{"log":"…","stream":"…","time":"…"}` (`jsonlogbytes.go`,
/// `MarshalJSONBuf`), read without collecting the fields: what
/// [`json_fields::fields`] reads of such a line. Any other line is read
/// field by field.
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
    let log_start = r#"{"log":""#.len();
    if !line.starts_with(r#"{"log":""#) {
        return None;
    }
    let log_end = string_end(log_start)?;
    let stream_start = log_end + r#"","stream":""#.len();
    if !line[log_end..].starts_with(r#"","stream":""#) {
        return None;
    }
    let stream_end = string_end(stream_start)?;
    let time_start = stream_end + r#"","time":""#.len();
    if !line[stream_end..].starts_with(r#"","time":""#) {
        return None;
    }
    let time_end = string_end(time_start)?;
    if &line[time_end..] != "\"}" {
        return None;
    }
    Some((&line[log_start..log_end], log_start..log_end, &line[stream_start..stream_end]))
}

#[cfg(test)]
mod tests {
    use super::*;

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
