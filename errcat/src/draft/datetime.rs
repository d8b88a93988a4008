//! Dates and times in the shapes logs write them, for [`super::mask`]: one
//! value each, spaces and all, so `at Sun Jul 10 12:00:00 2005` and `at Mon
//! Aug 1 09:30:00 2005` are one template (a weekday or month name is a
//! value only in a date: `May` alone is a word).
//!
//! - ISO 8601 and its kin: `2005-06-03`, `2005/06/03`, with a time after `T`
//!   or a space, and a zone (`Z`, `+01:00`);
//! - times: `12:00`, `12:00:00`, with a fraction (`.123`, `,123`);
//! - syslog and C's `ctime`: `[Sun ]Jul 10[ 12:00:00][ 2005]`, `Sun, 10 Jul
//!   2005[ time]`.

// Three-byte arrays, compared without a call to `memcmp` (every word that
// starts with one of their first letters is looked up).
const MONTHS: [[u8; 3]; 12] =
    [*b"Jan", *b"Feb", *b"Mar", *b"Apr", *b"May", *b"Jun", *b"Jul", *b"Aug", *b"Sep", *b"Oct", *b"Nov", *b"Dec"];
const WEEKDAYS: [[u8; 3]; 7] = [*b"Mon", *b"Tue", *b"Wed", *b"Thu", *b"Fri", *b"Sat", *b"Sun"];

/// The end of the date or time that starts at `at` (a word boundary).
pub fn date_time_end(bytes: &[u8], at: usize) -> Option<usize> {
    let end = match bytes[at] {
        b'0'..=b'9' => iso_end(bytes, at).or_else(|| time_end(bytes, at)).or_else(|| day_month_year_end(bytes, at))?,
        // The first letters of the names (most words are not looked at further).
        b'A' | b'D' | b'F' | b'J' | b'M' | b'N' | b'O' | b'S' | b'T' | b'W' => named_end(bytes, at)?,
        _ => return None,
    };
    bytes.get(end).is_none_or(|&b| !(b.is_ascii_alphanumeric() || b == b'_')).then_some(end)
}

/// `n` digits at `at`: their end.
fn digits(bytes: &[u8], at: usize, min: usize, max: usize) -> Option<usize> {
    let count = bytes[at.min(bytes.len())..].iter().take(max + 1).take_while(|b| b.is_ascii_digit()).count();
    (min..=max).contains(&count).then_some(at + count)
}

fn byte_is(bytes: &[u8], at: usize, set: &[u8]) -> bool {
    bytes.get(at).is_some_and(|b| set.contains(b))
}

/// `2005-06-03` or `2005/06/03`, then a time after `T` or a space, if any.
fn iso_end(bytes: &[u8], at: usize) -> Option<usize> {
    let year = digits(bytes, at, 4, 4)?;
    let separator = *bytes.get(year).filter(|b| matches!(b, b'-' | b'/'))?;
    let month = digits(bytes, year + 1, 1, 2)?;
    (bytes.get(month) == Some(&separator)).then_some(())?;
    let day = digits(bytes, month + 1, 1, 2)?;
    if byte_is(bytes, day, b"T ") {
        if let Some(time) = time_end(bytes, day + 1) {
            return Some(zone_end(bytes, time));
        }
    }
    Some(day)
}

/// `12:00`, `12:00:00`, `12:00:00.123`, `12:00:00,123`.
fn time_end(bytes: &[u8], at: usize) -> Option<usize> {
    let hour = digits(bytes, at, 1, 2)?;
    (bytes.get(hour) == Some(&b':')).then_some(())?;
    let mut end = digits(bytes, hour + 1, 2, 2)?;
    if bytes.get(end) == Some(&b':') {
        end = digits(bytes, end + 1, 2, 2)?;
        if byte_is(bytes, end, b".,") {
            if let Some(fraction) = digits(bytes, end + 1, 1, 9) {
                end = fraction;
            }
        }
    }
    Some(end)
}

/// `Z`, `+01:00`, `-0500` after a time.
fn zone_end(bytes: &[u8], at: usize) -> usize {
    if bytes.get(at) == Some(&b'Z') {
        return at + 1;
    }
    if byte_is(bytes, at, b"+-") {
        if let Some(hours) = digits(bytes, at + 1, 2, 2) {
            let minutes = if bytes.get(hours) == Some(&b':') { hours + 1 } else { hours };
            return digits(bytes, minutes, 2, 2).unwrap_or(hours);
        }
    }
    at
}

/// `10 Jul 2005[ time]`.
fn day_month_year_end(bytes: &[u8], at: usize) -> Option<usize> {
    let day = digits(bytes, at, 1, 2)?;
    let month = name_end(bytes, day + 1, &MONTHS).filter(|_| bytes.get(day) == Some(&b' '))?;
    let year = digits(bytes, month + 1, 4, 4).filter(|_| bytes.get(month) == Some(&b' '))?;
    Some(then_time(bytes, year))
}

/// `[Sun ]Jul 10[ 12:00:00][ 2005]` or `Sun, 10 Jul 2005[ time]`.
fn named_end(bytes: &[u8], at: usize) -> Option<usize> {
    let mut start = at;
    if let Some(weekday) = name_end(bytes, at, &WEEKDAYS) {
        if bytes.get(weekday) == Some(&b',') && bytes.get(weekday + 1) == Some(&b' ') {
            return day_month_year_end(bytes, weekday + 2);
        }
        (bytes.get(weekday) == Some(&b' ')).then_some(())?;
        start = weekday + 1;
    }
    let month = name_end(bytes, start, &MONTHS)?;
    // One or two spaces before a day of one digit (syslog pads it).
    let spaces = bytes[month..].iter().take(2).take_while(|&&b| b == b' ').count();
    let day = digits(bytes, month + spaces, 1, 2).filter(|_| spaces > 0)?;
    let mut end = day;
    if bytes.get(end) == Some(&b' ') {
        if let Some(time) = time_end(bytes, end + 1) {
            end = time;
        }
    }
    if bytes.get(end) == Some(&b' ') {
        if let Some(year) = digits(bytes, end + 1, 4, 4) {
            end = year;
        }
    }
    Some(end)
}

/// A space and a time after `at`, if there is one: its end, else `at`.
fn then_time(bytes: &[u8], at: usize) -> usize {
    if bytes.get(at) == Some(&b' ') {
        if let Some(time) = time_end(bytes, at + 1) {
            return zone_end(bytes, time);
        }
    }
    at
}

/// One of `names` (or its full form: `July`, `Sunday`) at `at`, ending a word.
fn name_end(bytes: &[u8], at: usize, names: &[[u8; 3]]) -> Option<usize> {
    let three: [u8; 3] = bytes.get(at..at + 3)?.try_into().ok()?;
    names.contains(&three).then_some(())?;
    let mut end = at + 3;
    while bytes.get(end).is_some_and(u8::is_ascii_lowercase) {
        end += 1;
    }
    let full = end - at;
    (full == 3 || full <= 9 && full > 3 && is_full_name(&bytes[at..end])).then_some(end)
}

fn is_full_name(word: &[u8]) -> bool {
    const FULL: [&str; 19] = [
        "January",
        "February",
        "March",
        "April",
        "June",
        "July",
        "August",
        "September",
        "October",
        "November",
        "December",
        "Monday",
        "Tuesday",
        "Wednesday",
        "Thursday",
        "Friday",
        "Saturday",
        "Sunday",
        "Sept",
    ];
    FULL.iter().any(|full| full.as_bytes() == word)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn date(text: &str) -> Option<&str> {
        date_time_end(text.as_bytes(), 0).map(|end| &text[..end])
    }

    #[test]
    fn reads_the_common_shapes_whole() {
        assert_eq!(date("Sun Jul 10 12:00:00 2005 at"), Some("Sun Jul 10 12:00:00 2005"));
        assert_eq!(date("Jul  1 09:30:00 host"), Some("Jul  1 09:30:00"));
        assert_eq!(date("Sunday, 10 July 2005 12:00"), Some("Sunday, 10 July 2005 12:00"));
        assert_eq!(date("2005-06-03T12:00:00.123+01:00 x"), Some("2005-06-03T12:00:00.123+01:00"));
        assert_eq!(date("2005/06/03 12:00:00,5 x"), Some("2005/06/03 12:00:00,5"));
        assert_eq!(date("12:34:56 done"), Some("12:34:56"));
        assert_eq!(date("10 Jul 2005"), Some("10 Jul 2005"));
    }

    #[test]
    fn names_and_numbers_alone_are_not_dates() {
        assert_eq!(date("May I"), None);
        assert_eq!(date("Sun rises"), None);
        assert_eq!(date("Mayday 10"), None);
        assert_eq!(date("2005 items"), None);
        assert_eq!(date("12:3"), None);
        assert_eq!(date("12:00:00abc"), None);
    }
}
