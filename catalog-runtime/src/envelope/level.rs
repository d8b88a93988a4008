//! The levels envelopes write, as [`LogLevel`]s: words (`error`, `warn`,
//! Serilog's `Information`, zap's `dpanic`), syslog severities (journald's
//! `PRIORITY`, a syslog `<PRI>`) and bunyan/pino numbers.

use crate::matcher::LogLevel;

/// A level word, in any case.
pub(crate) fn from_word(word: &str) -> Option<LogLevel> {
    if let Some(level) = LogLevel::from_name(word) {
        return Some(level);
    }
    Some(match word.to_ascii_lowercase().as_str() {
        "information" | "informational" => LogLevel::Info,
        "verbose" => LogLevel::Trace,
        "crit" | "critical" | "alert" | "emerg" | "emergency" | "panic" | "dpanic" => LogLevel::Fatal,
        "eror" => LogLevel::Error,
        _ => return None,
    })
}

/// A syslog severity, 0 (emergency) to 7 (debug) (RFC 5424 §6.2.1).
pub(crate) fn from_syslog_severity(severity: u32) -> Option<LogLevel> {
    Some(match severity {
        0..=2 => LogLevel::Fatal,
        3 => LogLevel::Error,
        4 => LogLevel::Warning,
        5 | 6 => LogLevel::Info,
        7 => LogLevel::Debug,
        _ => return None,
    })
}

/// A level field's value: a word, or a bunyan/pino number (10 trace ...
/// 60 fatal, from bunyan's `lib/bunyan.js` level constants).
pub(crate) fn from_field(text: &str) -> Option<LogLevel> {
    match text.parse::<u32>() {
        Ok(number) => Some(match number {
            0..=10 => LogLevel::Trace,
            11..=20 => LogLevel::Debug,
            21..=30 => LogLevel::Info,
            31..=40 => LogLevel::Warning,
            41..=50 => LogLevel::Error,
            _ => LogLevel::Fatal,
        }),
        Err(_) => from_word(text.trim()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_producer_spelling_is_a_level() {
        for (text, level) in [
            ("error", LogLevel::Error),
            ("ERROR", LogLevel::Error),
            ("warn", LogLevel::Warning),
            ("Information", LogLevel::Info),
            ("dpanic", LogLevel::Fatal),
            ("50", LogLevel::Error),
            ("40", LogLevel::Warning),
            ("30", LogLevel::Info),
            ("60", LogLevel::Fatal),
        ] {
            assert_eq!(from_field(text), Some(level), "{text}");
        }
        assert_eq!(from_field("loud"), None);
        assert_eq!(from_syslog_severity(3), Some(LogLevel::Error));
        assert_eq!(from_syslog_severity(6), Some(LogLevel::Info));
        assert_eq!(from_syslog_severity(8), None);
    }
}
