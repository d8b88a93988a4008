//! JSON structured logs: one object per line, the message under a key that
//! depends on the logger (zap, slog, logrus, pino, bunyan: `msg`; zerolog,
//! python-json-logger, logstash-logback, ECS: `message`; structlog: `event`;
//! zap's development config: `M`; Serilog CLEF: `@m`; OpenTelemetry:
//! `Body`), and the level under `level`, `lvl`, `severity`, `log.level`,
//! `@l` (Serilog leaves it out for Information)... A stack trace in its own
//! field is the line's context.

use std::borrow::Cow;

use super::json_fields::{self, Fields, Json};
use super::{level, EnvelopeKind, LogLine};
use crate::matcher::LogLevel;

/// Message keys, in the order they are tried.
pub(crate) const MESSAGE_KEYS: [&str; 8] = ["msg", "message", "event", "M", "@m", "body", "Body", "MESSAGE"];
const LEVEL_KEYS: [&str; 9] =
    ["level", "lvl", "severity", "log.level", "@l", "L", "levelname", "SeverityText", "PRIORITY"];
/// Fields holding a stack trace (logstash-logback, zap, ECS, OpenTelemetry,
/// python-json-logger's `exc_info`, Serilog's `@x`, pino's `err.stack`).
const STACK_KEYS: [&str; 9] = [
    "stack_trace",
    "stacktrace",
    "error.stack_trace",
    "exception.stacktrace",
    "exc_info",
    "@x",
    "err.stack",
    "error.stack",
    "stack",
];

/// The line's message, when `line` is a JSON object with a string under
/// `key` (or, without one, under one of [`MESSAGE_KEYS`]).
pub(crate) fn unwrap<'a>(line: &'a str, key: Option<&str>) -> Option<LogLine<'a>> {
    let fields = json_fields::fields(line)?;
    let (text, at) = match key {
        Some(key) => message(&fields, key)?,
        None => MESSAGE_KEYS.iter().find_map(|key| message(&fields, key))?,
    };
    let mut unwrapped = LogLine::wrapped(EnvelopeKind::Json, text, at);
    unwrapped.level = LEVEL_KEYS
        .iter()
        .find_map(|key| json_fields::get(&fields, key))
        .and_then(Json::text)
        .and_then(|text| level::from_field(&text))
        .or_else(|| json_fields::get(&fields, "@m").map(|_| LogLevel::Info));
    unwrapped.context = STACK_KEYS.iter().find_map(|key| json_fields::get(&fields, key)).and_then(Json::text);
    unwrapped.strip_line_break();
    Some(unwrapped)
}

/// The text under `key` when it is a string, and its range in the line.
fn message<'a>(fields: &Fields<'a>, key: &str) -> Option<(Cow<'a, str>, std::ops::Range<usize>)> {
    match json_fields::get(fields, key)? {
        value @ Json::Str { at, .. } => Some((value.text()?, at.clone())),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_logger_s_message_and_level_keys_are_read() {
        for (line, text, level) in [
            (
                r#"{"level":"error","ts":1.5,"msg":"a \"b\"","stacktrace":"main.f\n\tx.go:1"}"#,
                "a \"b\"",
                LogLevel::Error,
            ),
            (r#"{"time":"t","level":"ERROR","msg":"disk <full>"}"#, "disk <full>", LogLevel::Error),
            (r#"{"level":"warning","msg":"disk \u003cfull\u003e","time":"t"}"#, "disk <full>", LogLevel::Warning),
            (r#"{"level":50,"time":1,"pid":7,"hostname":"h","msg":"pino"}"#, "pino", LogLevel::Error),
            (r#"{"event":"structlog","level":"warning"}"#, "structlog", LogLevel::Warning),
            (r#"{"@timestamp":"t","log":{"level":"error"},"message":"ecs"}"#, "ecs", LogLevel::Error),
            (r#"{"@t":"t","@m":"serilog"}"#, "serilog", LogLevel::Info),
            (r#"{"L":"WARN","M":"zap dev"}"#, "zap dev", LogLevel::Warning),
        ] {
            let unwrapped = unwrap(line, None).unwrap();
            assert_eq!((unwrapped.text(), unwrapped.level()), (text, Some(level)), "{line}");
        }
        let traced = unwrap(r#"{"message":"boom","error":{"stack_trace":"at a\n\tat b"}}"#, None).unwrap();
        assert_eq!(traced.context(), Some("at a\n\tat b"));
        let keyed = unwrap(r#"{"msg":"not this","detail":"this one"}"#, Some("detail")).unwrap();
        assert_eq!(keyed.text(), "this one");
        assert!(unwrap(r#"{"Body":{"k":"v"}}"#, None).is_none());
        assert!(unwrap(r#"{"level":"error"}"#, None).is_none());
    }
}
