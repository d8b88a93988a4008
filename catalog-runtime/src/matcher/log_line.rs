//! What surrounds a message in a log line: the prefix of process id, time and
//! level that [`Matcher::find`](super::Matcher::find) skips, and the log
//! levels, listed once for the matcher and for `errcat scan --unmatched`.

use std::ops::Range;
use std::sync::OnceLock;

use regex::Regex;

/// The level of a log line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum LogLevel {
    /// `TRC`, `TRACE`.
    Trace,
    /// `DBG`, `DEBUG`.
    Debug,
    /// `INF`, `INFO`, `NOTICE`.
    Info,
    /// `WRN`, `WARN`, `WARNING`.
    Warning,
    /// `ERR`, `ERROR`.
    Error,
    /// `FTL`, `FATAL`.
    Fatal,
    /// `SYS` (nats-server's system messages).
    System,
}

/// Each level with its bracketed tag (`[ERR]`) and the words that name it.
const SPELLINGS: [(LogLevel, &str, &[&str]); 7] = [
    (LogLevel::Trace, "TRC", &["TRACE"]),
    (LogLevel::Debug, "DBG", &["DEBUG"]),
    (LogLevel::Info, "INF", &["INFO", "NOTICE"]),
    (LogLevel::Warning, "WRN", &["WARN", "WARNING"]),
    (LogLevel::Error, "ERR", &["ERROR"]),
    (LogLevel::Fatal, "FTL", &["FATAL"]),
    (LogLevel::System, "SYS", &[]),
];

impl LogLevel {
    /// The short tag (`ERR`).
    pub fn tag(self) -> &'static str {
        SPELLINGS.iter().find(|(level, _, _)| *level == self).map_or("", |(_, tag, _)| tag)
    }

    /// The level any of its spellings names, in any case (`err`, `ERROR`,
    /// `Warning`).
    ///
    /// ```
    /// use catalog_runtime::LogLevel;
    /// assert_eq!(LogLevel::from_name("warning"), Some(LogLevel::Warning));
    /// assert_eq!(LogLevel::from_name("ERR"), Some(LogLevel::Error));
    /// assert_eq!(LogLevel::from_name("loud"), None);
    /// ```
    pub fn from_name(name: &str) -> Option<LogLevel> {
        let name = name.to_ascii_uppercase();
        SPELLINGS
            .iter()
            .find(|(_, tag, words)| *tag == name || words.contains(&name.as_str()))
            .map(|(level, _, _)| *level)
    }

    /// The first level in `line`: a bracketed tag (`[ERR]`) or a whole word
    /// (`ERROR`), and where it is written.
    ///
    /// ```
    /// use catalog_runtime::LogLevel;
    /// let line = "[1] 2026/11/29 17:20:00.123456 [WRN] slow consumer";
    /// assert_eq!(LogLevel::find_in(line), Some((LogLevel::Warning, 32..35)));
    /// assert_eq!(LogLevel::find_in("2026-11-29 ERROR: boom"), Some((LogLevel::Error, 11..16)));
    /// assert_eq!(LogLevel::find_in("all is well"), None);
    /// ```
    pub fn find_in(line: &str) -> Option<(LogLevel, Range<usize>)> {
        static LEVEL: OnceLock<Regex> = OnceLock::new();
        let regex = LEVEL.get_or_init(|| {
            let pattern = format!(r"\[({})\]|\b({})\b", tags().join("|"), words().join("|"));
            Regex::new(&pattern).expect("the level regex is valid")
        });
        let captures = regex.captures(line)?;
        let found = captures.get(1).or_else(|| captures.get(2))?;
        Some((LogLevel::from_name(found.as_str())?, found.range()))
    }
}

fn tags() -> Vec<&'static str> {
    SPELLINGS.iter().map(|(_, tag, _)| *tag).collect()
}

fn words() -> Vec<&'static str> {
    SPELLINGS.iter().flat_map(|(_, _, words)| words.iter().copied()).collect()
}

/// Length of the log prefix of `line`: an optional `[pid]`, date and time,
/// and level, as in nats-server's `[1] 2026/11/29 17:20:00.123456 [ERR] `
/// (ISO timestamps and bare levels such as `ERROR:` are recognized too).
pub(crate) fn log_prefix_len(line: &str) -> usize {
    static PREFIX: OnceLock<Regex> = OnceLock::new();
    let prefix = PREFIX.get_or_init(|| {
        let levels = [tags(), words()].concat().join("|");
        let pattern = format!(
            r"^(?:\[\d+\] )?(?:\d{{4}}[-/]\d{{2}}[-/]\d{{2}}[T ]\d{{2}}:\d{{2}}:\d{{2}}(?:[.,]\d+)?(?:Z|[+-]\d{{2}}:?\d{{2}})? )?(?:\[?(?:{levels})\]?:? )?"
        );
        Regex::new(&pattern).expect("the log prefix regex is valid")
    });
    prefix.find(line).map_or(0, |m| m.end())
}

/// A line without its line break (`\n` or `\r\n`), as the matcher reads it.
pub(crate) fn trim_line_break(line: &str) -> &str {
    let line = line.strip_suffix('\n').unwrap_or(line);
    line.strip_suffix('\r').unwrap_or(line)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_spelling_names_its_level() {
        for (level, tag, words) in SPELLINGS {
            assert_eq!(level.tag(), tag);
            for name in words.iter().chain([&tag]) {
                assert_eq!(LogLevel::from_name(name), Some(level));
                assert_eq!(LogLevel::from_name(&name.to_ascii_lowercase()), Some(level));
            }
        }
    }

    #[test]
    fn the_prefix_takes_every_level_spelling() {
        assert_eq!(log_prefix_len("[1] 2026/11/29 17:20:00.123456 [ERR] x"), 37);
        assert_eq!(log_prefix_len("2026-11-29T17:20:00Z NOTICE: x"), 29);
        assert_eq!(log_prefix_len("[SYS] x"), 6);
        assert_eq!(log_prefix_len("no prefix"), 0);
    }
}
