//! What surrounds a message in a log line: the prefix of process id, time and
//! level that [`Matcher::find`](super::Matcher::find) skips, and the log
//! levels, listed once for the matcher and for `errcat scan --unmatched`.

use std::ops::Range;
use std::sync::OnceLock;

use regex::Regex;

/// The level of a log line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
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

/// Where the log prefix of `line` ends: an optional `[pid]`, date and time
/// (bare or bracketed), level, and exception head, as in nats-server's
/// `[1] 2026/11/29 17:20:00.123456 [ERR] `, log4j's `[2026-12-01
/// 10:00:00,000] ERROR ` and Node's `... ERROR TypeError [ERR_X]: ` (ISO
/// timestamps and bare levels such as `ERROR:` are recognized too); and,
/// when it has a level or a head, where it ends without them: a message may
/// itself begin with a level's word (`TRC` as the first value of `{} Failed
/// to send record`, a record's `ERROR: disk full`), which only a match after
/// the shorter prefix finds. The grammar is that of the regex `PREFIX`
/// (digits are ASCII ones), read by hand: it runs on every candidate line,
/// and a regex search cost a thousand instructions a line.
pub(crate) fn log_prefix_ends(line: &str) -> (usize, Option<usize>) {
    let bytes = line.as_bytes();
    let mut at = pid_end(bytes).unwrap_or(0);
    at = timestamp_end(bytes, at).unwrap_or(at);
    let after_level = level_end(bytes, at);
    let after_head = exception_head_end(bytes, after_level.unwrap_or(at));
    match after_head.or(after_level) {
        Some(end) => (end, Some(at)),
        None => (at, None),
    }
}

/// The length of the whole log prefix.
#[cfg(test)]
pub(crate) fn log_prefix_len(line: &str) -> usize {
    log_prefix_ends(line).0
}

/// The prefix as a regex: the definition [`log_prefix_ends`] follows.
#[cfg(test)]
const PREFIX: &str = r"^(?:\[[0-9]+\] )?(?:(?:TIME|\[TIME\]) )?(?:\[?(?:LEVELS)\]?:? )?(?:(?:Uncaught )?(?:[A-Z][A-Za-z0-9]*)?Error(?: \[[A-Z][A-Z0-9_]*\])?: )?";

/// The timestamp of [`PREFIX`].
#[cfg(test)]
const TIME: &str =
    r"[0-9]{4}[-/][0-9]{2}[-/][0-9]{2}[T ][0-9]{2}:[0-9]{2}:[0-9]{2}(?:[.,][0-9]+)?(?:Z|[+-][0-9]{2}:?[0-9]{2})?";

/// After `[digits] ` at the start.
fn pid_end(bytes: &[u8]) -> Option<usize> {
    let at = digits(bytes, expect(bytes, 0, b'[')?, 1, usize::MAX)?;
    expect(bytes, expect(bytes, at, b']')?, b' ')
}

/// After `YYYY-MM-DD HH:MM:SS[.frac][zone] ` at `at` (`/` or `-` in the
/// date, `T` or a space before the time), or the same in brackets, as
/// log4j's `[%d]` writes it.
fn timestamp_end(bytes: &[u8], at: usize) -> Option<usize> {
    let bracketed = expect(bytes, at, b'[');
    let at = bare_timestamp_end(bytes, bracketed.unwrap_or(at))?;
    let at = if bracketed.is_some() { expect(bytes, at, b']')? } else { at };
    expect(bytes, at, b' ')
}

/// After `YYYY-MM-DD HH:MM:SS[.frac][zone]` at `at`.
fn bare_timestamp_end(bytes: &[u8], at: usize) -> Option<usize> {
    let at = digits(bytes, at, 4, 4)?;
    let at = one_of(bytes, at, b"-/")?;
    let at = digits(bytes, at, 2, 2)?;
    let at = one_of(bytes, at, b"-/")?;
    let at = digits(bytes, at, 2, 2)?;
    let at = one_of(bytes, at, b"T ")?;
    let at = digits(bytes, at, 2, 2)?;
    let at = digits(bytes, expect(bytes, at, b':')?, 2, 2)?;
    let mut at = digits(bytes, expect(bytes, at, b':')?, 2, 2)?;
    if let Some(fraction) = one_of(bytes, at, b".,").and_then(|at| digits(bytes, at, 1, usize::MAX)) {
        at = fraction;
    }
    if let Some(zone) = expect(bytes, at, b'Z').or_else(|| zone_end(bytes, at)) {
        at = zone;
    }
    Some(at)
}

/// After an exception's head at `at`: `Error: `, `<Name>Error: ` or either
/// with ` [ERR_CODE]` before its colon, after `Uncaught ` or not, as Node
/// writes an error's name and code before its message (`TypeError
/// [ERR_INVALID_ARG_TYPE]: `).
fn exception_head_end(bytes: &[u8], at: usize) -> Option<usize> {
    const UNCAUGHT: &[u8] = b"Uncaught ";
    let at = if bytes.get(at..at + UNCAUGHT.len()) == Some(UNCAUGHT) { at + UNCAUGHT.len() } else { at };
    if !bytes.get(at)?.is_ascii_uppercase() {
        return None;
    }
    let name_end = at + bytes[at..].iter().take_while(|b| b.is_ascii_alphanumeric()).count();
    if !bytes[at..name_end].ends_with(b"Error") {
        return None;
    }
    let code_end = expect(bytes, name_end, b' ').and_then(|at| error_code_end(bytes, at));
    expect(bytes, expect(bytes, code_end.unwrap_or(name_end), b':')?, b' ')
}

/// After `[ERR_CODE]` at `at`: a capital letter, then capitals, digits and
/// underscores.
fn error_code_end(bytes: &[u8], at: usize) -> Option<usize> {
    let at = expect(bytes, at, b'[')?;
    if !bytes.get(at)?.is_ascii_uppercase() {
        return None;
    }
    let end =
        at + bytes[at..].iter().take_while(|&&b| b.is_ascii_uppercase() || b.is_ascii_digit() || b == b'_').count();
    expect(bytes, end, b']')
}

/// After `+HH:MM`, `-HHMM`... at `at`.
fn zone_end(bytes: &[u8], at: usize) -> Option<usize> {
    let at = digits(bytes, one_of(bytes, at, b"+-")?, 2, 2)?;
    let at = expect(bytes, at, b':').unwrap_or(at);
    digits(bytes, at, 2, 2)
}

/// After `[LEVEL] `, `LEVEL: `... at `at`: the first spelling, in the
/// regex's order, that the rest of the pattern follows.
fn level_end(bytes: &[u8], at: usize) -> Option<usize> {
    let at = expect(bytes, at, b'[').unwrap_or(at);
    // Every spelling starts with a capital letter: most lines stop here.
    if !bytes.get(at)?.is_ascii_uppercase() {
        return None;
    }
    level_spellings().iter().find_map(|name| {
        let end = at + name.len();
        if name.as_bytes()[0] != bytes[at] || bytes.get(at..end)? != name.as_bytes() {
            return None;
        }
        let end = expect(bytes, end, b']').unwrap_or(end);
        let end = expect(bytes, end, b':').unwrap_or(end);
        expect(bytes, end, b' ')
    })
}

/// Every spelling of every level: the tags, then the words (listed once:
/// walking the chained lists cost a third of the prefix's reading).
fn level_spellings() -> &'static [&'static str] {
    static SPELLED: OnceLock<Vec<&'static str>> = OnceLock::new();
    SPELLED.get_or_init(|| tags().into_iter().chain(words()).collect())
}

fn expect(bytes: &[u8], at: usize, byte: u8) -> Option<usize> {
    (bytes.get(at) == Some(&byte)).then_some(at + 1)
}

fn one_of(bytes: &[u8], at: usize, set: &[u8]) -> Option<usize> {
    set.contains(bytes.get(at)?).then_some(at + 1)
}

/// After `min` to `max` ASCII digits at `at` (as many as there are).
fn digits(bytes: &[u8], at: usize, min: usize, max: usize) -> Option<usize> {
    let mut end = at;
    while end - at < max && bytes.get(end).is_some_and(u8::is_ascii_digit) {
        end += 1;
    }
    (end - at >= min).then_some(end)
}

/// Where the context at the end of `line` begins: a space and a dotted
/// name in parentheses, ` (org.apache.kafka.connect.util.KafkaBasedLog)`,
/// as log4j's and logback's `%m (%c)` layouts write the logger after every
/// message (`line.len()` when the line does not end so). The name is two or
/// more identifiers (ASCII letters, digits, `_`, `$`, not starting with a
/// digit) joined by dots, without spaces: a message's own parenthesised
/// text seldom is one (`(at src/x.rs:10)`, `(1.2)`, `(a, b)` are not).
pub(crate) fn context_start(line: &str) -> usize {
    let bytes = line.as_bytes();
    let Some(inner) = bytes.strip_suffix(b")") else {
        return line.len();
    };
    let Some(open) = memchr::memrchr(b'(', inner) else {
        return line.len();
    };
    let is_name = |segment: &[u8]| {
        let part = |b: &u8| b.is_ascii_alphanumeric() || *b == b'_' || *b == b'$';
        segment.first().is_some_and(|b| !b.is_ascii_digit() && part(b)) && segment.iter().all(part)
    };
    let name = &inner[open + 1..];
    let dotted = name.contains(&b'.') && name.split(|&b| b == b'.').all(is_name);
    match open.checked_sub(1) {
        Some(space) if dotted && bytes[space] == b' ' => space,
        _ => line.len(),
    }
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

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig { cases: 20000, ..Default::default() })]

        #[test]
        fn the_prefix_reader_agrees_with_its_regex(
            parts in proptest::collection::vec(proptest::sample::select(&[
                "[", "]", "12", "1", " ", "2026", "/", "-", "11", "29", "T", "17", ":", "20", "00", ".", ",",
                "123456", "Z", "+", "01", "ERR", "ERROR", "WARN", "WARNING", "INF", "NOTICE", "x", "٣",
                "Uncaught ", "Type", "Error", "E", "ERR_X", "_", "9", "é", ": ",
            ][..]), 0..16)
        ) {
            let line = parts.concat();
            let levels = level_spellings().join("|");
            let regex = Regex::new(&PREFIX.replace("TIME", TIME).replace("LEVELS", &levels)).unwrap();
            proptest::prop_assert_eq!(log_prefix_len(&line), regex.find(&line).map_or(0, |m| m.end()), "{:?}", line);
        }
    }

    #[test]
    fn the_prefix_takes_log4j_timestamps_and_exception_heads() {
        let kafka = "[2026-12-01 10:00:00,000] ERROR localhost:9092 is down";
        assert_eq!(log_prefix_ends(kafka), (32, Some(26)));
        let node = "2026-12-01T10:00:00.000Z ERROR RangeError [ERR_PERFORMANCE_INVALID_TIMESTAMP]: 5 is not";
        assert_eq!(log_prefix_ends(node), (node.find("5 is").unwrap(), Some(25)));
        assert_eq!(log_prefix_len("Uncaught TypeError: x is not a function"), 20);
        assert_eq!(log_prefix_len("Error [ERR_STREAM_DESTROYED]: x"), 30);
        // Not an exception's head, nor a timestamp.
        assert_eq!(log_prefix_len("Errors: x"), 0);
        assert_eq!(log_prefix_len("typeError: x"), 0);
        assert_eq!(log_prefix_len("TypeError [err_x]: x"), 0);
        assert_eq!(log_prefix_len("[2026-12-01 10:00:00 x"), 0);
    }

    #[test]
    fn a_dotted_name_in_parentheses_ends_the_line_as_context() {
        let line = "ERROR Unexpected exception in localhost:9092 (org.apache.kafka.connect.util.KafkaBasedLog)";
        assert_eq!(context_start(line), line.find(" (org").unwrap());
        assert_eq!(context_start("x (kafka.server.Log$Foo_2)"), 1);
        for not_context in [
            "x (Log)",
            "x (1.2)",
            "x (a. b)",
            "x (a..b)",
            "x(a.b)",
            "x (a.b) y",
            "x (at src/x.rs:10)",
            "(a.b)",
            ")",
            "",
        ] {
            assert_eq!(context_start(not_context), not_context.len(), "{not_context:?}");
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
