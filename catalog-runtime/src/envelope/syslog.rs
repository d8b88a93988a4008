//! Syslog lines: RFC 5424 (`<PRI>1 TIMESTAMP HOSTNAME APP-NAME PROCID MSGID
//! STRUCTURED-DATA MSG`, `-` for a nil value, MSG possibly starting with a
//! UTF-8 BOM) and RFC 3164 / BSD (`<PRI>Mmm dd hh:mm:ss HOST TAG[PID]: MSG`,
//! the day space-padded, and the file form without `<PRI>` that rsyslog
//! writes). The level is PRI's severity, PRI % 8 (RFC 5424 §6.2.1).

use super::{level, EnvelopeKind, LogLine};

const MONTHS: [&str; 12] = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/// The line's message, when `line` is a syslog line.
pub(crate) fn unwrap(line: &str) -> Option<LogLine<'_>> {
    let (severity, after_pri) = match pri(line) {
        Some((pri, end)) => (Some(pri % 8), end),
        None => (None, 0),
    };
    let rest = &line[after_pri..];
    let start = match rest.strip_prefix("1 ") {
        Some(_) if severity.is_some() => rfc5424_message(line, after_pri + 2)?,
        _ => rfc3164_message(line, after_pri)?,
    };
    let mut start = start;
    if line[start..].starts_with('\u{feff}') {
        start += '\u{feff}'.len_utf8();
    }
    let mut unwrapped = LogLine::wrapped(EnvelopeKind::Syslog, line[start..].into(), start..line.len());
    unwrapped.level = severity.and_then(level::from_syslog_severity);
    Some(unwrapped)
}

/// `<PRI>` at the start: its value and where it ends.
fn pri(line: &str) -> Option<(u32, usize)> {
    let end = line.strip_prefix('<')?.find('>')? + 1;
    let digits = &line[1..end];
    if digits.is_empty() || digits.len() > 3 || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let pri: u32 = digits.parse().ok()?;
    (pri <= 191).then_some((pri, end + 1))
}

/// Where MSG starts, after the five header fields and the structured data
/// that begin at `at`.
fn rfc5424_message(line: &str, mut at: usize) -> Option<usize> {
    for _ in 0..5 {
        let field = line[at..].find(' ')?;
        if field == 0 {
            return None;
        }
        at += field + 1;
    }
    let bytes = line.as_bytes();
    if bytes.get(at) == Some(&b'-') {
        at += 1;
    } else {
        // One or more `[SD-ID param="value"...]`; a value escapes `"`, `\` and `]`.
        while bytes.get(at) == Some(&b'[') {
            let mut quoted = false;
            at += 1;
            loop {
                match *bytes.get(at)? {
                    b'\\' if quoted => at += 1,
                    b'"' => quoted = !quoted,
                    b']' if !quoted => break,
                    _ => {}
                }
                at += 1;
            }
            at += 1;
        }
    }
    match bytes.get(at) {
        None => Some(at),
        Some(b' ') => Some(at + 1),
        Some(_) => None,
    }
}

/// Where MSG starts in a BSD line whose timestamp begins at `at`.
fn rfc3164_message(line: &str, at: usize) -> Option<usize> {
    let rest = &line[at..];
    let month = rest.get(..3)?;
    if !MONTHS.contains(&month) || rest.as_bytes().get(3) != Some(&b' ') {
        return None;
    }
    // `dd` or ` d`, then `hh:mm:ss`.
    let day = rest.get(4..6)?;
    let time = rest.get(7..15)?.as_bytes();
    let time_ok = time.iter().enumerate().all(|(i, b)| if i % 3 == 2 { *b == b':' } else { b.is_ascii_digit() });
    if !day.trim_start().bytes().all(|b| b.is_ascii_digit()) || day.trim().is_empty() || !time_ok {
        return None;
    }
    if rest.as_bytes().get(6) != Some(&b' ') || rest.as_bytes().get(15) != Some(&b' ') {
        return None;
    }
    let mut at = at + 16;
    // HOST then TAG, or the TAG alone: the tag ends with `:` (after `[PID]`).
    for _ in 0..2 {
        let token_end = line[at..].find(' ').map_or(line.len(), |end| at + end);
        let token = &line[at..token_end];
        if token.ends_with(':') && !token[..token.len() - 1].contains(':') || token.ends_with("]:") {
            return Some((token_end + 1).min(line.len()));
        }
        at = token_end + 1;
        if at > line.len() {
            return None;
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::LogLevel;

    #[test]
    fn rfc5424_gives_the_message_after_the_structured_data() {
        let line = "<11>1 2026-11-29T17:20:35Z host-a nats-server 1035 - - [ERR] beta";
        let unwrapped = unwrap(line).unwrap();
        assert_eq!((unwrapped.text(), unwrapped.level()), ("[ERR] beta", Some(LogLevel::Error)));
        // RFC 5424 §6.5's example 4, with a BOM before the message.
        let line = "<165>1 2003-10-11T22:14:15.003Z mymachine.example.com evntslog - ID47 [exampleSDID@32473 iut=\"3\" eventSource=\"Appl\\]ication\"][x@1 a=\"b\"] \u{feff}An application event";
        let unwrapped = unwrap(line).unwrap();
        assert_eq!((unwrapped.text(), unwrapped.level()), ("An application event", Some(LogLevel::Info)));
        assert_eq!(unwrap("<13>1 - - - - - -").unwrap().text(), "");
    }

    #[test]
    fn rfc3164_gives_the_message_after_the_tag() {
        let line = "<28>Dec  1 17:20:35 host-a nats-server[1035]: [WRN] slow consumer";
        let unwrapped = unwrap(line).unwrap();
        assert_eq!((unwrapped.text(), unwrapped.level()), ("[WRN] slow consumer", Some(LogLevel::Warning)));
        let file_form = unwrap("Nov 29 17:20:35 host-a kernel: a: b").unwrap();
        assert_eq!((file_form.text(), file_form.level()), ("a: b", None));
        assert_eq!(unwrap("<13>Nov 29 17:20:35 app: x").unwrap().text(), "x");
        for line in ["Dec  1 17:20:35 host-a no tag here", "<999>1 x", "Mon Dec  1 x", "<11>Foo 29 17:20:35 h t: x"] {
            assert!(unwrap(line).is_none(), "{line}");
        }
    }
}
