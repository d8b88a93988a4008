//! Timestamps at the start of log lines: nats-server's `YYYY/MM/DD
//! HH:MM:SS.ffffff`, RFC 3339 / ISO 8601 (`YYYY-MM-DDTHH:MM:SS.fff+02:00`,
//! also with a space or a comma), and syslog's `Mon DD HH:MM:SS`.
//!
//! A time is kept as microseconds since 1970-01-01 00:00 of the clock it was
//! written in: a time with a UTC offset is converted to UTC, a time without one
//! (nats-server, syslog) is taken as written. Hand-written parsers, not a
//! general date library: they run on every matching line of a log, and must
//! refuse anything else (hostile lines) quickly and without panicking.

/// Only this many bytes at the start of a line are searched for a timestamp
/// (a line's prefix: pid, host, level; never the message itself).
const SEARCH_LIMIT: usize = 64;

const MICROS_PER_SECOND: i64 = 1_000_000;
const MICROS_PER_DAY: i64 = 86_400 * MICROS_PER_SECOND;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Stamp {
    /// Microseconds since the epoch (see the module documentation).
    pub micros: i64,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Form {
    /// `2026/11/29 17:20:00.123911` (nats-server, Go's `log` package).
    Slashed,
    /// `2026-11-29T17:20:00.123Z`, `2026-11-29 17:20:00,123`, ...
    Iso,
    /// `2026-11-29T17:20:00+02:00`: with a UTC offset, converted to UTC.
    IsoWithOffset,
    /// `Nov 29 17:20:00`: no year; the report's default year is used.
    Syslog,
}

/// The first timestamp in the first bytes of `line` (before `end`, where the
/// message starts), with how it was written. `default_year` is given to
/// syslog times, which have none.
pub fn find(line: &str, end: usize, default_year: i32) -> Option<(Stamp, Form)> {
    let bytes = line.as_bytes();
    let limit = end.min(SEARCH_LIMIT).min(bytes.len());
    for start in 0..limit {
        if start > 0 && bytes[start - 1].is_ascii_alphanumeric() {
            continue; // Only at the start of a word: not inside a pid or a hex id.
        }
        let rest = &bytes[start..];
        let found = match bytes[start] {
            b'0'..=b'9' => parse_numeric(rest),
            b'A'..=b'Z' => parse_syslog(rest, default_year).map(|stamp| (stamp, Form::Syslog)),
            _ => None,
        };
        if found.is_some() {
            return found;
        }
    }
    None
}

/// `YYYY/MM/DD HH:MM:SS[.f]` or `YYYY-MM-DD[T ]HH:MM:SS[.,f][Z|±HH:MM|±HHMM]`.
fn parse_numeric(text: &[u8]) -> Option<(Stamp, Form)> {
    let mut cursor = Cursor { text, at: 0 };
    let year = cursor.digits(4)?;
    let separator = cursor.one_of(b"/-")?;
    let month = cursor.digits(2)?;
    cursor.exactly(separator)?;
    let day = cursor.digits(2)?;
    if separator == b'/' {
        cursor.exactly(b' ')?;
    } else {
        cursor.one_of(b"Tt ")?;
    }
    let (seconds_of_day, micros) = cursor.clock()?;
    let days = days_from_civil(year as i32, month, day)?;
    let mut stamp = days * MICROS_PER_DAY + seconds_of_day * MICROS_PER_SECOND + micros;
    if separator == b'/' {
        return Some((Stamp { micros: stamp }, Form::Slashed));
    }
    match cursor.offset_seconds() {
        Some(offset) => {
            stamp -= offset * MICROS_PER_SECOND;
            Some((Stamp { micros: stamp }, Form::IsoWithOffset))
        }
        None => Some((Stamp { micros: stamp }, Form::Iso)),
    }
}

/// `Mon DD HH:MM:SS` (the day space-padded or not), in `year`.
fn parse_syslog(text: &[u8], year: i32) -> Option<Stamp> {
    const MONTHS: [&[u8; 3]; 12] =
        [b"Jan", b"Feb", b"Mar", b"Apr", b"May", b"Jun", b"Jul", b"Aug", b"Sep", b"Oct", b"Nov", b"Dec"];
    let name = text.get(..3)?;
    let month = MONTHS.iter().position(|m| &m[..] == name)? as u32 + 1;
    let mut cursor = Cursor { text, at: 3 };
    cursor.exactly(b' ')?;
    if cursor.peek() == Some(b' ') {
        cursor.at += 1; // `Nov  2`
    }
    let day = match cursor.digits(2) {
        Some(day) => day,
        None => cursor.digits(1)?,
    };
    cursor.exactly(b' ')?;
    let (seconds_of_day, micros) = cursor.clock()?;
    let days = days_from_civil(year, month, day)?;
    Some(Stamp { micros: days * MICROS_PER_DAY + seconds_of_day * MICROS_PER_SECOND + micros })
}

struct Cursor<'t> {
    text: &'t [u8],
    at: usize,
}

impl Cursor<'_> {
    fn peek(&self) -> Option<u8> {
        self.text.get(self.at).copied()
    }

    fn digits(&mut self, count: usize) -> Option<u32> {
        let digits = self.text.get(self.at..self.at + count)?;
        if !digits.iter().all(u8::is_ascii_digit) {
            return None;
        }
        self.at += count;
        Some(digits.iter().fold(0, |value, d| value * 10 + u32::from(d - b'0')))
    }

    fn exactly(&mut self, byte: u8) -> Option<()> {
        (self.peek()? == byte).then(|| self.at += 1)
    }

    fn one_of(&mut self, bytes: &[u8]) -> Option<u8> {
        let byte = self.peek().filter(|b| bytes.contains(b))?;
        self.at += 1;
        Some(byte)
    }

    /// `HH:MM:SS[.f]`: seconds of the day and microseconds. A leap second
    /// (`:60`) counts as the last microsecond of its minute; a fraction
    /// ends a timestamp, digits past the sixth are ignored.
    fn clock(&mut self) -> Option<(i64, i64)> {
        let hour = self.digits(2).filter(|h| *h < 24)?;
        self.exactly(b':')?;
        let minute = self.digits(2).filter(|m| *m < 60)?;
        self.exactly(b':')?;
        let second = self.digits(2).filter(|s| *s <= 60)?;
        // A clock must not run on into more digits (`12:00:001` is not a time).
        if self.peek().is_some_and(|b| b.is_ascii_digit()) {
            return None;
        }
        let mut micros = 0i64;
        if matches!(self.peek(), Some(b'.' | b',')) && self.text.get(self.at + 1).is_some_and(u8::is_ascii_digit) {
            self.at += 1;
            let mut scale = 100_000;
            while let Some(digit) = self.peek().filter(u8::is_ascii_digit) {
                micros += i64::from(digit - b'0') * scale;
                scale /= 10;
                self.at += 1;
            }
        }
        if second == 60 {
            return Some((i64::from(hour * 3600 + minute * 60 + 59), MICROS_PER_SECOND - 1));
        }
        Some((i64::from(hour * 3600 + minute * 60 + second), micros))
    }

    /// `Z`, `±HH:MM` or `±HHMM` after a clock, in seconds east of UTC.
    fn offset_seconds(&mut self) -> Option<i64> {
        match self.peek()? {
            b'Z' | b'z' => Some(0),
            sign @ (b'+' | b'-') => {
                self.at += 1;
                let hours = self.digits(2).filter(|h| *h <= 23)?;
                if self.peek() == Some(b':') {
                    self.at += 1;
                }
                let minutes = self.digits(2).filter(|m| *m < 60)?;
                let seconds = i64::from(hours * 3600 + minutes * 60);
                Some(if sign == b'-' { -seconds } else { seconds })
            }
            _ => None,
        }
    }
}

/// Days since 1970-01-01 of a date of the proleptic Gregorian calendar
/// (H. Hinnant's `days_from_civil`); `None` for an invalid date.
pub fn days_from_civil(year: i32, month: u32, day: u32) -> Option<i64> {
    if !(1..=12).contains(&month) || day == 0 || day > days_in_month(year, month) {
        return None;
    }
    let year = i64::from(year) - i64::from(month <= 2);
    let era = year.div_euclid(400);
    let year_of_era = year - era * 400;
    let month = i64::from(month);
    let day_of_year = (153 * (if month > 2 { month - 3 } else { month + 9 }) + 2) / 5 + i64::from(day) - 1;
    let day_of_era = year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;
    Some(era * 146_097 + day_of_era - 719_468)
}

/// The date of a day since 1970-01-01: (year, month, day).
pub fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let days = days + 719_468;
    let era = days.div_euclid(146_097);
    let day_of_era = days - era * 146_097;
    let year_of_era = (day_of_era - day_of_era / 1460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let shifted_month = (5 * day_of_year + 2) / 153;
    let day = (day_of_year - (153 * shifted_month + 2) / 5 + 1) as u32;
    let month = if shifted_month < 10 { shifted_month + 3 } else { shifted_month - 9 } as u32;
    (year_of_era + era * 400 + i64::from(month <= 2), month, day)
}

fn days_in_month(year: i32, month: u32) -> u32 {
    match month {
        2 if year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

impl Stamp {
    /// `2026-11-29 17:20:00.123` (milliseconds; `precise` shows microseconds).
    pub fn display(self, precise: bool) -> String {
        let (days, micros_of_day) = (self.micros.div_euclid(MICROS_PER_DAY), self.micros.rem_euclid(MICROS_PER_DAY));
        let (year, month, day) = civil_from_days(days);
        let seconds = micros_of_day / MICROS_PER_SECOND;
        let (hour, minute, second) = (seconds / 3600, seconds / 60 % 60, seconds % 60);
        let fraction = micros_of_day % MICROS_PER_SECOND;
        if precise {
            format!("{year:04}-{month:02}-{day:02} {hour:02}:{minute:02}:{second:02}.{fraction:06}")
        } else {
            format!("{year:04}-{month:02}-{day:02} {hour:02}:{minute:02}:{second:02}.{:03}", fraction / 1000)
        }
    }

    /// The year of this time (to give year-less syslog times a year).
    pub fn year(self) -> i32 {
        civil_from_days(self.micros.div_euclid(MICROS_PER_DAY)).0 as i32
    }
}

/// The current year (UTC), the default year of syslog times.
pub fn current_year() -> i32 {
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs());
    Stamp { micros: now as i64 * MICROS_PER_SECOND }.year()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(line: &str) -> Option<(String, Form)> {
        find(line, line.len(), 2026).map(|(stamp, form)| (stamp.display(true), form))
    }

    fn shown(line: &str) -> String {
        at(line).map_or_else(|| "none".to_owned(), |(time, _)| time)
    }

    #[test]
    fn nats_server_lines() {
        let line = "[4127] 2026/11/29 17:20:00.123911 [ERR] unable to persist session";
        assert_eq!(at(line), Some(("2026-11-29 17:20:00.123911".to_owned(), Form::Slashed)));
        assert_eq!(shown("2026/01/02 03:04:05 plain Go log"), "2026-01-02 03:04:05.000000");
    }

    #[test]
    fn rfc3339_and_iso_8601() {
        assert_eq!(at("2026-11-29T17:20:00Z x"), Some(("2026-11-29 17:20:00.000000".to_owned(), Form::IsoWithOffset)));
        assert_eq!(shown("2026-11-29T17:20:00.5+02:00 level=error"), "2026-11-29 15:20:00.500000");
        assert_eq!(shown("2026-11-29T23:30:00-0130 x"), "2026-11-30 01:00:00.000000");
        assert_eq!(shown("ts=2026-11-29 17:20:00,123 ERROR x"), "2026-11-29 17:20:00.123000");
        assert_eq!(at("2026-11-29 17:20:00 x").map(|(_, form)| form), Some(Form::Iso));
        // Nanoseconds: digits past microseconds are dropped, not rounded into the next second.
        assert_eq!(shown("2026-12-31T23:59:59.999999999Z"), "2026-12-31 23:59:59.999999");
    }

    #[test]
    fn syslog_lines() {
        assert_eq!(
            at("Nov 29 17:20:00 host nats-server[12]: x"),
            Some(("2026-11-29 17:20:00.000000".to_owned(), Form::Syslog))
        );
        assert_eq!(shown("Feb  3 04:05:06 host x"), "2026-02-03 04:05:06.000000");
        assert_eq!(shown("<34>Feb 3 04:05:06 host x"), "2026-02-03 04:05:06.000000");
    }

    #[test]
    fn invalid_dates_and_times_are_refused() {
        for line in [
            "2026/13/01 00:00:00 month",
            "2026/02/29 00:00:00 not a leap year",
            "2026-04-31T00:00:00Z day",
            "2026/11/29 24:00:00 hour",
            "2026/11/29 12:60:00 minute",
            "2026/11/29 12:00:001 too many digits",
            "2026/11/29T12:00:00 slashes take a space",
            "2026-11/29 12:00:00 mixed separators",
            "Foo 29 17:20:00 month name",
            "Nov 29 17:20 no seconds",
            "12026/11/29 17:20:00 inside a number",
            "",
            "2026/11/2",
            "\u{0}\u{FFFD}<script>",
        ] {
            assert_eq!(at(line), None, "{line:?}");
        }
        assert_eq!(shown("2024/02/29 00:00:60 leap day, leap second"), "2024-02-29 00:00:59.999999");
    }

    #[test]
    fn only_the_prefix_before_the_message_is_searched() {
        let line = "[ERR] retry at 2026/11/29 17:20:00";
        assert_eq!(find(line, 6, 2026), None, "inside the message");
        let far = format!("{} 2026/11/29 17:20:00", "x".repeat(SEARCH_LIMIT));
        assert_eq!(find(&far, far.len(), 2026), None, "past the search limit");
        // A multi-byte character right at the limit is no problem.
        let wide = format!("{}é 2026/11/29 17:20:00", "x".repeat(SEARCH_LIMIT - 1));
        assert_eq!(find(&wide, wide.len(), 2026), None);
    }

    #[test]
    fn calendar_round_trips() {
        assert_eq!(days_from_civil(1970, 1, 1), Some(0));
        assert_eq!(days_from_civil(2000, 3, 1), Some(11_017));
        assert_eq!(days_from_civil(1969, 12, 31), Some(-1));
        for days in (-800_000..800_000).step_by(97) {
            let (year, month, day) = civil_from_days(days);
            assert_eq!(days_from_civil(year as i32, month, day), Some(days));
        }
    }
}
