//! logfmt (go-logfmt, slog's `TextHandler`, logrus's text formatter,
//! Heroku): `time=… level=error msg="unable to persist session \"s7\"" err=…`.
//! A value is quoted when it holds a space, `=`, `"` or a control character
//! (go-logfmt `encode.go` `needsQuotedValueRune`); quoted values are
//! Go-quoted (slog `handler.go` uses `strconv.Quote`), so a `%q` value in the
//! message arrives escaped twice.

use std::borrow::Cow;
use std::ops::Range;

use super::unescape::go_quoted;
use super::{level, EnvelopeKind, LogLine};

/// Keys of the message, most usual first.
const MESSAGE_KEYS: [&str; 2] = ["msg", "message"];
const LEVEL_KEYS: [&str; 3] = ["level", "lvl", "severity"];
const STACK_KEYS: [&str; 3] = ["stacktrace", "stack_trace", "stack"];

/// One `key=value`: the key, the value's raw text (without its quotes) and
/// its range in the line, and whether it was quoted.
struct Pair<'a> {
    key: &'a str,
    raw: &'a str,
    at: Range<usize>,
    quoted: bool,
}

impl<'a> Pair<'a> {
    fn text(&self) -> Option<Cow<'a, str>> {
        if self.quoted {
            go_quoted(self.raw)
        } else {
            Some(Cow::Borrowed(self.raw))
        }
    }
}

/// The line's message, when `line` is logfmt with a message key.
pub(crate) fn unwrap(line: &str) -> Option<LogLine<'_>> {
    let pairs = pairs(line)?;
    let find = |keys: &[&str]| keys.iter().find_map(|key| pairs.iter().find(|pair| pair.key == *key));
    let message = find(&MESSAGE_KEYS)?;
    let mut unwrapped = LogLine::wrapped(EnvelopeKind::Logfmt, message.text()?, message.at.clone());
    unwrapped.level = find(&LEVEL_KEYS).and_then(Pair::text).and_then(|text| level::from_field(&text));
    unwrapped.context = find(&STACK_KEYS).and_then(Pair::text);
    Some(unwrapped)
}

/// Every pair of `line`, when it is nothing but pairs (at least two).
fn pairs(line: &str) -> Option<Vec<Pair<'_>>> {
    let bytes = line.as_bytes();
    let mut pairs = Vec::new();
    let mut at = 0;
    loop {
        while bytes.get(at) == Some(&b' ') {
            at += 1;
        }
        if at == bytes.len() {
            break;
        }
        let key_end = at + line[at..].find(['=', ' ', '"'])?;
        if key_end == at || bytes[key_end] != b'=' {
            return None;
        }
        let key = &line[at..key_end];
        at = key_end + 1;
        if bytes.get(at) == Some(&b'"') {
            let start = at + 1;
            let mut end = start;
            loop {
                match *bytes.get(end)? {
                    b'\\' => end += 2,
                    b'"' => break,
                    _ => end += 1,
                }
            }
            pairs.push(Pair { key, raw: line.get(start..end)?, at: start..end, quoted: true });
            at = end + 1;
            if !matches!(bytes.get(at), None | Some(b' ')) {
                return None;
            }
        } else {
            let end = line[at..].find(' ').map_or(line.len(), |end| at + end);
            if line[at..end].contains('"') {
                return None;
            }
            pairs.push(Pair { key, raw: &line[at..end], at: at..end, quoted: false });
            at = end;
        }
    }
    (pairs.len() >= 2).then_some(pairs)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::LogLevel;

    #[test]
    fn the_message_is_unquoted_as_go_quoted_it() {
        // As slog's TextHandler writes `logger.Error(fmt.Sprintf("... %q ...", "s7"))`.
        let line = r#"time=2026-11-29T17:20:35.000Z level=ERROR msg="unable to persist session \"s7\" (seq=5): disk full" err="a b""#;
        let unwrapped = unwrap(line).unwrap();
        assert_eq!(unwrapped.text(), r#"unable to persist session "s7" (seq=5): disk full"#);
        assert_eq!(unwrapped.level(), Some(LogLevel::Error));
        assert_eq!(&line[unwrapped.span_in_input()], r#"unable to persist session \"s7\" (seq=5): disk full"#);
        let bare = unwrap("level=warn msg=restarting component=raft").unwrap();
        assert_eq!((bare.text(), bare.level()), ("restarting", Some(LogLevel::Warning)));
        assert_eq!(unwrap(r#"msg="" level=info"#).unwrap().text(), "");
        for line in [
            "msg=only",
            "level=error no message",
            r#"msg="unterminated level=error"#,
            "[ERR] msg=x level=y",
            r#"msg=a"b level=error"#,
            "level=error component=raft",
        ] {
            assert!(unwrap(line).is_none(), "{line}");
        }
    }
}
