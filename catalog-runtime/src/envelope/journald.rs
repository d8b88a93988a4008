//! `journalctl -o json`: one object per entry, the message in `MESSAGE` and
//! the syslog severity in `PRIORITY` ("0"–"7"). From systemd
//! `docs/JOURNAL_EXPORT_FORMATS.md` and `src/shared/logs-show.c`: a field
//! holding non-printable or non-UTF-8 bytes is an array of numbers (0–255);
//! a field above `JSON_THRESHOLD` (4096 bytes) is `null` unless `--all`; a
//! field repeated in one entry is an array of its values.

use std::borrow::Cow;

use super::json_fields::{self, Json};
use super::{level, EnvelopeKind, LogLine};

/// Fields only journald writes: one of them tells a journal entry.
const JOURNAL_KEYS: [&str; 4] = ["__CURSOR", "__REALTIME_TIMESTAMP", "_BOOT_ID", "__MONOTONIC_TIMESTAMP"];

/// What is said of a `MESSAGE` left out as `null`.
pub(crate) const NULL_MESSAGE: &str =
    "journald MESSAGE is null: journalctl leaves out fields above 4096 bytes unless given --all";

/// The entry's message, when `line` is a journal entry.
pub(crate) fn unwrap(line: &str) -> Option<LogLine<'_>> {
    let fields = json_fields::fields(line)?;
    if !JOURNAL_KEYS.iter().any(|key| json_fields::get(&fields, key).is_some()) {
        return None;
    }
    let mut unwrapped = match json_fields::get(&fields, "MESSAGE")? {
        message @ Json::Str { at, .. } => LogLine::wrapped(EnvelopeKind::Journald, message.text()?, at.clone()),
        Json::Array(raw) => {
            let start = raw.as_ptr() as usize - line.as_ptr() as usize;
            LogLine::wrapped(EnvelopeKind::Journald, array_message(raw)?, start..start + raw.len())
        }
        Json::Null => {
            let mut unwrapped = LogLine::wrapped(EnvelopeKind::Journald, Cow::Borrowed(""), 0..0);
            unwrapped.note = Some(NULL_MESSAGE);
            unwrapped
        }
        Json::Scalar(_) => return None,
    };
    unwrapped.level = json_fields::get(&fields, "PRIORITY")
        .and_then(Json::text)
        .and_then(|priority| priority.parse().ok())
        .and_then(level::from_syslog_severity);
    unwrapped.strip_line_break();
    Some(unwrapped)
}

/// A `MESSAGE` written as an array: of bytes (read as UTF-8, invalid bytes
/// becoming U+FFFD), or of the values of a repeated field (the first).
fn array_message(raw: &str) -> Option<Cow<'static, str>> {
    let inner = raw.strip_prefix('[')?.strip_suffix(']')?.trim();
    if inner.starts_with('"') {
        let literal = first_string(inner)?;
        let text = super::unescape::json_string(&literal[1..literal.len() - 1])?;
        return Some(Cow::Owned(text.into_owned()));
    }
    let bytes: Option<Vec<u8>> =
        inner.split(',').filter(|s| !s.trim().is_empty()).map(|byte| byte.trim().parse::<u8>().ok()).collect();
    Some(Cow::Owned(String::from_utf8_lossy(&bytes?).into_owned()))
}

/// The first string literal of a list's contents.
fn first_string(inner: &str) -> Option<&str> {
    let bytes = inner.as_bytes();
    let mut at = 1;
    while at < bytes.len() {
        match bytes[at] {
            b'\\' => at += 2,
            b'"' => return Some(&inner[..=at]),
            _ => at += 1,
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::LogLevel;

    #[test]
    fn the_message_comes_as_text_bytes_or_null() {
        let text = r#"{"__CURSOR":"s=1","PRIORITY":"3","SYSLOG_IDENTIFIER":"nats-server","MESSAGE":"[ERR] a \"b\""}"#;
        let unwrapped = unwrap(text).unwrap();
        assert_eq!((unwrapped.text(), unwrapped.level()), ("[ERR] a \"b\"", Some(LogLevel::Error)));
        // "\x1b[31mé\xff" as journald writes it: bytes.
        let bytes = r#"{"__REALTIME_TIMESTAMP":"1","PRIORITY":"4","MESSAGE":[27,91,51,49,109,195,169,255]}"#;
        let unwrapped = unwrap(bytes).unwrap();
        assert_eq!((unwrapped.text(), unwrapped.level()), ("\u{1b}[31mé\u{fffd}", Some(LogLevel::Warning)));
        let null = unwrap(r#"{"__CURSOR":"s=2","MESSAGE":null}"#).unwrap();
        assert_eq!((null.text(), null.note()), ("", Some(NULL_MESSAGE)));
        let repeated = unwrap(r#"{"__CURSOR":"s=3","MESSAGE":["first \"one\"","second"]}"#).unwrap();
        assert_eq!(repeated.text(), "first \"one\"");
        assert!(unwrap(r#"{"MESSAGE":"no journal keys"}"#).is_none());
        assert!(unwrap(r#"{"__CURSOR":"s","MESSAGE":[300]}"#).is_none());
    }
}
