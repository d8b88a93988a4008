//! Docker's json-file log driver: `{"log":"…\n","stream":"stderr","time":"…"}`
//! (moby `daemon/logger/jsonfilelog/jsonlog/jsonlogbytes.go`). The message is
//! `log`, JSON-escaped with `<`, `>`, `&` as `\u003c`, `\u003e`, `\u0026` and
//! a tab as `\u0009`; it ends with `\n` unless it is a piece of a line longer
//! than 16 KiB (`daemon/logger/copier.go`, `defaultBufSize = 16 * 1024`).

use super::json_fields::{self, Json};
use super::{LogLine, Stream};

/// The line's message, when `line` is a json-file entry.
pub(crate) fn unwrap(line: &str) -> Option<LogLine<'_>> {
    let fields = json_fields::fields(line)?;
    let Some(Json::Str { raw, at }) = json_fields::get(&fields, "log") else { return None };
    let stream = match json_fields::get(&fields, "stream").and_then(Json::text).as_deref() {
        Some("stdout") => Some(Stream::Stdout),
        Some("stderr") => Some(Stream::Stderr),
        _ if json_fields::get(&fields, "time").is_some() => None,
        _ => return None,
    };
    let text = json_fields::get(&fields, "log")?.text()?;
    // `\n` or `\u000a`, as written.
    let ends_line = text.ends_with('\n');
    let mut at = at.clone();
    if ends_line {
        at.end -= if raw.ends_with("\\n") { 2 } else { 6 };
    }
    let mut unwrapped = LogLine::wrapped("docker", text, at);
    unwrapped.stream = stream;
    unwrapped.ends_line = ends_line;
    if ends_line {
        unwrapped.strip_line_break();
    }
    Some(unwrapped)
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
}
