//! Which lines of a buffer need unwrapping before they are matched, found
//! without unwrapping them: the matcher's literal prefilter runs over the
//! raw (wrapped) buffer, as over a plain log, and a line with no literal in
//! it is passed over when its envelope cannot have hidden one.
//!
//! Unwrapping copies the message and undoes escapes; it never moves text
//! around. So an occurrence of a literal in the message is either a run of
//! the line's own bytes, which the prefilter saw, or holds a character an
//! escape gave. A line whose escapes give only characters that no literal
//! holds (`\"` when no literal has a `"`; `\u003c` when none has a `<`)
//! therefore has no literal in its message when it has none in its raw
//! text, and no template can match it (none matches without its literal:
//! [`Matcher::for_each_literal`] says when one could). Escapes that give a
//! line break (`\n`, `\r`, `\u000a`) are never passed over, except the `\n`
//! that ends Docker's `log` (taken off by unwrapping): a message holding a
//! line break is for the caller to see. Neither are pieces of a longer line
//! (a literal may straddle two), notes (journald's `null`), byte arrays
//! (journald) or byte escapes (Go's `\xHH`, which may join into one
//! character), nor, in Docker, escapes that give a backslash (the message
//! may itself be a JSON line, whose own escapes can give anything).

use std::ops::Range;

use super::line_bounds::{line_end_at, line_start};
use super::unescape::Escapes;
use super::{docker, Envelope};
use crate::format::Template;
use crate::matcher::Matcher;

/// Calls `each(number, range)` for every line of `text` (split at `\n`; a
/// final line break ends the last line) that may match a template of
/// `matcher` once unwrapped from `envelope`: its number (from 0) and its
/// range in `text`, without its line break; the number of lines. See
/// [`Envelope::lines_that_may_match`].
///
/// With `literals`, every occurrence of a prefilter literal in `text` is
/// pushed onto it as (start, literal), a line's before the next line's.
/// With `events`, Docker's lines whose message may be grouped with others
/// into one event (see [`MultiLine::may_group`](super::MultiLine::may_group))
/// are among those given too (found in the same pass; other envelopes
/// cannot tell, and ignore it: see [`Envelope::may_hold_events`]).
pub(super) fn lines_that_may_match<I: AsRef<Template>>(
    envelope: &Envelope,
    matcher: &Matcher<I>,
    text: &str,
    mut literals: Option<&mut Vec<(usize, usize)>>,
    events: bool,
    mut each: impl FnMut(usize, Range<usize>),
) -> Option<usize> {
    let bytes = text.as_bytes();
    let body = text.strip_suffix('\n').unwrap_or(text);
    let returns = memchr::memchr(b'\r', bytes).is_some();
    let literal_bytes = matcher.literal_bytes();
    let escapes = Escapes { literal_bytes, go: false, nested: false };
    let whole_text = match envelope {
        Envelope::None | Envelope::Syslog => Some(None),
        Envelope::Json(_) => Some(Some(escapes)),
        Envelope::Logfmt => Some(Some(Escapes { go: true, ..escapes })),
        Envelope::Docker | Envelope::Journald => None,
        // A CRI message is read as it is or, holding a JSON or logfmt
        // line, unescaped: any escape may be the message's.
        Envelope::Cri => Some(Some(escapes)),
    };
    if let Some(escapes) = whole_text {
        let mut unwrap = match escapes {
            Some(escapes) => escaped_lines_to_unwrap(escapes, body),
            None => ToUnwrap::default(),
        };
        if !starts_of_lines_with_literal(matcher, text, &mut unwrap.lines, literals.as_deref_mut()) {
            return None;
        }
        if !unwrap.quotes.is_empty() {
            // The lines with `\"` escapes are looked at again, without the
            // escapes' backslashes (see [`escaped_lines_to_unwrap`]).
            let (unquoted, starts) = unquoted_lines(body, &unwrap.quotes);
            let mut found = Vec::new();
            starts_of_lines_with_literal(matcher, &unquoted, &mut found, None);
            let original = |start: usize| starts[starts.partition_point(|&(at, _)| at <= start) - 1].1;
            unwrap.lines.extend(found.into_iter().map(original));
        }
        if *envelope == Envelope::Cri {
            unwrap.lines.extend(cri_pieces(body));
        }
        return Some(unwrapped_by_text(body, unwrap.lines, returns, each));
    }
    if *envelope == Envelope::Docker {
        return docker_lines_that_may_match(matcher, bytes, literals, events, each).map(|(lines, _)| lines);
    }
    // Journald: each line is looked at.
    let mut with_literal: Vec<usize> = Vec::new();
    if !starts_of_lines_with_literal(matcher, text, &mut with_literal, literals) {
        return None;
    }
    let mut with_literal = with_literal.into_iter().peekable();
    let ends = memchr::memchr_iter(b'\n', body.as_bytes()).chain([body.len()]);
    let mut start = 0;
    let mut lines = 0;
    for (number, end) in ends.enumerate() {
        lines = number + 1;
        let range = start..end;
        start = end + 1;
        let has_literal = with_literal.next_if_eq(&range.start).is_some();
        let line = &body[range.clone()];
        let line = line.strip_suffix('\r').unwrap_or(line);
        if has_literal || (returns && line.contains('\r')) || !journald_passes_over(line, escapes) {
            each(number, range);
        }
    }
    Some(lines)
}

/// [`lines_that_may_match`] for Docker lines, of bytes not known to be
/// UTF-8 (only the lines given to `each` are read as text); with the
/// number of lines, whether the text is ASCII (so UTF-8), as the
/// prefilter's pass saw it (`false` when it cannot tell). The lines are
/// read in a pass of their own after the prefilter's (see
/// [`docker::lines_to_unwrap`]).
pub(super) fn docker_lines_that_may_match<I: AsRef<Template>>(
    matcher: &Matcher<I>,
    text: &[u8],
    mut literals: Option<&mut Vec<(usize, usize)>>,
    events: bool,
    each: impl FnMut(usize, Range<usize>),
) -> Option<(usize, bool)> {
    // Where the literals start, a line's before the next line's.
    let mut hits: Vec<usize> = Vec::new();
    let ascii = matcher.for_each_literal_in_bytes(text, |start, _, literal| {
        hits.push(start);
        if let Some(literals) = literals.as_deref_mut() {
            literals.push((start, literal));
        }
    })?;
    let ascii = text[ascii..].is_ascii();
    let body = text.strip_suffix(b"\n").unwrap_or(text);
    Some((docker::lines_to_unwrap(body, matcher.literal_bytes(), hits, events, each), ascii))
}

/// Pushes onto `starts` the start of every line of `text` that holds a
/// prefilter literal of `matcher`, in order, each once, and onto
/// `literals` (when given) every occurrence of a literal; `false` when the
/// literals cannot tell (see [`Matcher::for_each_literal`]).
fn starts_of_lines_with_literal<I: AsRef<Template>>(
    matcher: &Matcher<I>,
    text: &str,
    starts: &mut Vec<usize>,
    literals: Option<&mut Vec<(usize, usize)>>,
) -> bool {
    matcher.for_each_literal(text, line_starts_of_hits(text.as_bytes(), starts, literals))
}

/// What [`starts_of_lines_with_literal`] does with each occurrence of a
/// literal in `bytes` (`hit(start, end, literal)`).
fn line_starts_of_hits<'a>(
    bytes: &'a [u8],
    starts: &'a mut Vec<usize>,
    mut literals: Option<&'a mut Vec<(usize, usize)>>,
) -> impl FnMut(usize, usize, usize) + 'a {
    let (first, mut line_end) = (starts.len(), 0);
    move |start, _, literal| {
        if let Some(literals) = literals.as_deref_mut() {
            literals.push((start, literal));
        }
        if start < line_end && starts.len() > first {
            return;
        }
        starts.push(line_start(bytes, start));
        line_end = line_end_at(bytes, start);
    }
}

/// The lines of `body` holding the backslashes at `quotes` (sorted), one
/// after the other, without those backslashes; and where each of them
/// starts there and in `body`, in order.
fn unquoted_lines(body: &str, quotes: &[usize]) -> (String, Vec<(usize, usize)>) {
    let bytes = body.as_bytes();
    let mut unquoted = String::new();
    let mut starts = Vec::new();
    let mut quotes = quotes.iter().peekable();
    while let Some(&first) = quotes.peek() {
        let (start, end) = (line_start(bytes, *first), line_end_at(bytes, *first));
        starts.push((unquoted.len(), start));
        let mut from = start;
        while let Some(at) = quotes.next_if(|&&at| at < end) {
            unquoted.push_str(&body[from..*at]);
            from = at + 1;
        }
        unquoted.push_str(&body[from..end]);
        unquoted.push('\n');
    }
    (unquoted, starts)
}

/// What a pass over a text's escapes found (see
/// [`escaped_lines_to_unwrap`]).
#[derive(Default)]
struct ToUnwrap {
    /// The starts of the lines with an escape that is not harmless.
    lines: Vec<usize>,
    /// Where the backslashes of `\"` escapes are, when a literal holds a
    /// quote, in order.
    quotes: Vec<usize>,
}

/// [`lines_that_may_match`] for envelopes whose lines need no reading one
/// by one: their messages are parts of the line, and any part may be the
/// message once its escapes are undone. The lines holding a literal, an
/// escape that is not harmless (their starts in `unwrap`) or a `\r` before
/// their end are found in passes over the whole `body`, and only they are
/// looked at.
fn unwrapped_by_text(
    body: &str,
    mut unwrap: Vec<usize>,
    returns: bool,
    mut each: impl FnMut(usize, Range<usize>),
) -> usize {
    let bytes = body.as_bytes();
    if returns {
        // A `\r` but the one before a line's break.
        for at in memchr::memchr_iter(b'\r', bytes) {
            if !matches!(bytes.get(at + 1), None | Some(b'\n')) {
                unwrap.push(line_start(bytes, at));
            }
        }
    }
    unwrap.sort_unstable();
    unwrap.dedup();
    let (mut number, mut counted_to) = (0, 0);
    for start in unwrap {
        number += memchr::memchr_iter(b'\n', &bytes[counted_to..start]).count();
        counted_to = start;
        each(number, start..line_end_at(bytes, start));
    }
    number + memchr::memchr_iter(b'\n', &bytes[counted_to..]).count() + 1
}

/// The starts of the CRI lines of `body` that are pieces (their first tag
/// `P`: `TIMESTAMP STREAM P MESSAGE`), found by searching the text for the
/// streams followed by `P` rather than reading every line.
fn cri_pieces(body: &str) -> Vec<usize> {
    use memchr::memmem::Finder;
    static FINDERS: std::sync::OnceLock<[Finder<'static>; 2]> = std::sync::OnceLock::new();
    let finders = FINDERS.get_or_init(|| [Finder::new(" stdout P"), Finder::new(" stderr P")]);
    let bytes = body.as_bytes();
    let mut pieces = Vec::new();
    for finder in finders {
        for found in finder.find_iter(bytes) {
            let tag_end = found + b" stdout P".len();
            if !matches!(bytes.get(tag_end), None | Some(b' ' | b':' | b'\n')) {
                continue;
            }
            let start = line_start(bytes, found);
            // The stream right after the line's timestamp, its first space.
            if memchr::memchr(b' ', &bytes[start..]).map(|space| start + space) == Some(found) {
                pieces.push(start);
            }
        }
    }
    pieces
}

/// Whether a journald `line` (holding no `\r` or `\n`) has a message
/// holding no literal when the line holds none, and is a whole line
/// without a note whose message holds no line break.
fn journald_passes_over(line: &str, escapes: Escapes<'_>) -> bool {
    // A `MESSAGE` of bytes, or `null`, is not the line's text.
    !line.contains('[') && !line.contains("null") && escapes.all_harmless(line)
}

/// The lines of `body` with an escape that is not harmless (see
/// [`Escapes`]), read in
/// turn from the start of the text as from the start of each line (none
/// goes past a line break). When a literal holds a quote (so that `\"`
/// is not harmless), the `\"` escapes are set apart instead: a line
/// holding them is to be unwrapped when a literal is in its raw text
/// (the message may be the raw line: a line that is not JSON, an
/// unquoted logfmt value) or in its text without their backslashes
/// (the message as the escapes give it).
fn escaped_lines_to_unwrap(escapes: Escapes<'_>, body: &str) -> ToUnwrap {
    let bytes = body.as_bytes();
    let quotes_apart = escapes.literal_bytes[usize::from(b'"')];
    let mut found = ToUnwrap::default();
    let mut at = 0;
    while let Some(next) = memchr::memchr(b'\\', &bytes[at..]) {
        let next = at + next;
        if quotes_apart && bytes.get(next + 1) == Some(&b'"') {
            found.quotes.push(next);
            at = next + 2;
            continue;
        }
        match escapes.harmless(&bytes[next + 1..]) {
            Some(used) => at = next + 1 + used,
            None => {
                found.lines.push(line_start(bytes, next));
                at = line_end_at(bytes, next);
            }
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::Dialect;
    use proptest::prelude::*;

    /// Templates whose literals hold what escapes give: quotes, `<`, a
    /// backslash, a tab, non-ASCII (in the BMP and beyond), and one of
    /// plain letters, which an escape may split.
    const FORMATS: [&str; 7] = [
        "disk \"%s\" is full",
        "tag <%s> was closed",
        "path C:\\temp\\%s is gone",
        "column\tseparated %d here",
        "café au lait %d",
        "emoji 😀 face %s",
        "plain words on %s",
    ];
    /// Messages of those templates (with text around them) and others.
    const MESSAGES: [&str; 10] = [
        "[ERR] disk \"sda\" is full",
        "tag <b> was closed, then more",
        "path C:\\temp\\x is gone",
        "column\tseparated 5 here",
        "2026-11-29 café au lait 3",
        "emoji 😀 face y",
        "[1] 2026/11/29 17:20:35.000001 [ERR] plain words on sdb",
        "nothing & nobody <here> \"at all\"\tné 😀 \\",
        "plain words",
        "",
    ];

    fn matcher() -> Matcher {
        let templates: Vec<Template> = FORMATS.iter().map(|f| Template::compile(f, Dialect::Go).unwrap()).collect();
        Matcher::new(&templates)
    }

    /// [`matcher`] and one without its backslash (whose literals hold a
    /// quote, so that lines with `\"` escapes are looked at again without
    /// the escapes' backslashes, but no backslash).
    fn matchers() -> [Matcher; 2] {
        let formats = FORMATS.iter().filter(|format| !format.contains('\\'));
        let templates: Vec<Template> = formats.map(|f| Template::compile(f, Dialect::Go).unwrap()).collect();
        [matcher(), Matcher::new(&templates)]
    }

    /// `text` as a JSON string's contents: what must be escaped is, and
    /// character `i` is written as `\uXXXX` (a surrogate pair beyond the
    /// BMP) when `as_unicode(i, c)`.
    fn json_escaped(text: &str, as_unicode: impl Fn(usize, char) -> bool) -> String {
        let mut out = String::new();
        for (i, c) in text.chars().enumerate() {
            match c {
                _ if as_unicode(i, c) => {
                    for unit in c.encode_utf16(&mut [0; 2]) {
                        out.push_str(&format!("\\u{unit:04x}"));
                    }
                }
                '"' => out.push_str("\\\""),
                '\\' => out.push_str("\\\\"),
                '\t' => out.push_str("\\t"),
                '<' | '>' | '&' => out.push_str(&format!("\\u{:04x}", c as u32)),
                c => out.push(c),
            }
        }
        out
    }

    /// `text` Go-quoted (without the quotes), character `i` as `\u`, `\U`
    /// or `\x` when `as_unicode(i, c)`.
    fn go_escaped(text: &str, as_unicode: impl Fn(usize, char) -> bool) -> String {
        let mut out = String::new();
        for (i, c) in text.chars().enumerate() {
            match c {
                _ if as_unicode(i, c) && c.is_ascii() && i % 2 == 0 => out.push_str(&format!("\\x{:02x}", c as u32)),
                _ if as_unicode(i, c) && (c as u32) < 0x10000 => out.push_str(&format!("\\u{:04x}", c as u32)),
                _ if as_unicode(i, c) => out.push_str(&format!("\\U{:08x}", c as u32)),
                '"' => out.push_str("\\\""),
                '\\' => out.push_str("\\\\"),
                '\t' => out.push_str("\\t"),
                c => out.push(c),
            }
        }
        out
    }

    /// Each envelope with `message` in it, escaped as `as_unicode` says.
    fn wrapped(message: &str, as_unicode: &dyn Fn(usize, char) -> bool) -> Vec<(Envelope, String)> {
        let json = json_escaped(message, as_unicode);
        let inner = format!(r#"{{"level":"error","msg":"{json}"}}"#);
        vec![
            (Envelope::Docker, format!(r#"{{"log":"{json}\n","stream":"stderr","time":"2026-11-29T17:20:35Z"}}"#)),
            // A JSON line in Docker: escaped twice.
            (
                Envelope::Docker,
                format!(r#"{{"log":"{}\n","stream":"stdout","time":"t"}}"#, json_escaped(&inner, as_unicode)),
            ),
            (Envelope::Docker, format!(r#"{{"log":"{json}\n","stream":"stderr","attrs":{{"k":"v"}},"time":"t"}}"#)),
            (Envelope::Cri, format!("2026-11-29T17:20:35.000001234Z stderr F {message}")),
            (Envelope::Cri, format!("2026-11-29T17:20:35.000001234Z stdout F {inner}")),
            (
                Envelope::Cri,
                format!(
                    "2026-11-29T17:20:35.000001234Z stdout F level=error msg=\"{}\"",
                    go_escaped(message, as_unicode)
                ),
            ),
            (Envelope::Json(None), inner.clone()),
            (Envelope::Json(None), format!(r#"{{"message":"{json}","msg":1,"stack":"{json}"}}"#)),
            (Envelope::Logfmt, format!("time=t level=error msg=\"{}\" err=x", go_escaped(message, as_unicode))),
            (Envelope::Journald, format!(r#"{{"__CURSOR":"s=1","PRIORITY":"3","MESSAGE":"{json}"}}"#)),
            (Envelope::Syslog, format!("<11>1 2026-11-29T17:20:35Z host-a app 1035 - - {message}")),
        ]
    }

    /// What unwrapping each line of `lines` the long way gives, checked
    /// against [`lines_that_may_match`]: every line it passes over matches
    /// nothing and is a whole line without a note or a line break. Gives
    /// how many were passed over.
    fn passed_over_match_nothing(matcher: &Matcher, envelope: &Envelope, lines: &[String]) -> usize {
        let text = lines.join("\n") + "\n";
        let mut reported = Vec::new();
        let count = lines_that_may_match(envelope, matcher, &text, None, false, |number, range| {
            assert_eq!(&text[range], lines[number]);
            reported.push(number);
        });
        assert_eq!(count, Some(lines.len()));
        let mut passed_over = 0;
        for (number, line) in lines.iter().enumerate() {
            if reported.contains(&number) {
                continue;
            }
            passed_over += 1;
            // As a CRLF line is read.
            let unwrapped = envelope.unwrap(line.strip_suffix('\r').unwrap_or(line));
            assert_eq!(matcher.find(unwrapped.text()), None, "{envelope}: {line}");
            assert!(!unwrapped.is_piece() && unwrapped.note().is_none(), "{envelope}: {line}");
            assert!(!unwrapped.text().contains(['\n', '\r']), "{envelope}: {line}");
        }
        passed_over
    }

    #[test]
    fn a_line_passed_over_matches_nothing_when_escapes_give_a_literal() {
        for matcher in matchers() {
            passed_over_lines_match_nothing(&matcher);
        }
        // Each template's message is found, in every envelope and style.
        let matcher = matcher();
        for (message, format) in MESSAGES.iter().zip(FORMATS) {
            for style in STYLES {
                for (envelope, line) in wrapped(message, style) {
                    let found = matcher.find(envelope.unwrap(&line).text()).map(|m| m.index);
                    assert_eq!(found.map(|i| FORMATS[i]), Some(format), "{envelope}: {line}");
                }
            }
        }
    }

    /// Escaped only where it must be; every character as `\u`; every other
    /// one (which splits each literal); the first few; those beyond ASCII;
    /// all but letters and digits.
    const STYLES: [&dyn Fn(usize, char) -> bool; 6] =
        [&|_, _| false, &|_, _| true, &|i, _| i % 2 == 1, &|i, _| i < 6, &|_, c| !c.is_ascii(), &|_, c| {
            !c.is_alphanumeric()
        }];

    /// [`passed_over_match_nothing`] on every message in every envelope and
    /// style, alone and all in one text.
    fn passed_over_lines_match_nothing(matcher: &Matcher) {
        let styles = STYLES;
        // Escaped only where it must be; every character as `\u`; every
        // other one (which splits each literal); the first few; those
        // beyond ASCII; all but letters and digits.
        let mut passed_over = 0;
        for style in styles {
            for message in MESSAGES {
                for (envelope, line) in wrapped(message, style) {
                    let lines = [line.clone(), line.replace("stderr", "stdout")];
                    passed_over += passed_over_match_nothing(matcher, &envelope, &lines);
                }
            }
        }
        // Each envelope's lines in one text, with returns in and at the end
        // of lines: each is numbered as it should be.
        for (at, (envelope, _)) in wrapped("", &|_, _| false).into_iter().enumerate() {
            let mut lines: Vec<String> = Vec::new();
            for style in styles {
                for message in MESSAGES.iter().chain(&["a\rreturn", "plain words on\r", "end\r"]) {
                    lines.push(wrapped(message, style).swap_remove(at).1);
                }
            }
            lines.push(format!("{}\r", lines[0]));
            passed_over += passed_over_match_nothing(matcher, &envelope, &lines);
        }
        // Lines with nothing to find are passed over: the shortcut works.
        assert!(passed_over > 100, "{passed_over}");
    }

    #[test]
    fn lines_with_escaped_quotes_are_told_apart_by_their_literals() {
        let [_, matcher] = matchers();
        let lines = [
            r#"{"level":"error","msg":"nothing \"at all\""}"#,
            r#"{"level":"error","msg":"[ERR] disk \"sda\" is full"}"#,
            r#"{"level":"error","msg":"\"quoted\" words on \"\" \"x\" and disk \"y"}"#,
            r#"{"level":"error","msg":"a tab\there \"q\""}"#,
            r#"{"level":"error","msg":"disk \"sdb\" is full"}"#,
            r#"{"level":"error","msg":"disk \u0022sdc\u0022 is full"}"#,
            r#"{"level":"error","msg":"disk \\\"sdd\\\" is full"}"#,
        ];
        let text = lines.join("\n");
        let mut reported = Vec::new();
        let count = lines_that_may_match(&Envelope::Json(None), &matcher, &text, None, false, |number, range| {
            assert_eq!(&text[range], lines[number]);
            reported.push(number);
        });
        assert_eq!(count, Some(lines.len()));
        // The lines with a literal once their quotes are unescaped (the
        // last one's message `disk \"sdd\" is full` holds `" is full`), the
        // one with an escaped tab (a literal holds a tab), the one whose
        // quotes are `\u` escapes; not the lines without.
        assert_eq!(reported, [1, 3, 4, 5, 6]);
        assert_eq!(passed_over_match_nothing(&matcher, &Envelope::Json(None), &lines.map(str::to_owned)), 2);
        // A line that is not JSON is its own message, backslashes and all:
        // its literal is found in its raw text.
        let [matcher, _] = matchers();
        let lines = [r#"path C:\temp\"x" is gone"#, r#"{"msg":"path C:\\temp\\\"x\" is gone"}"#, r#"{"msg":"\"a\""}"#];
        let lines = lines.map(str::to_owned);
        assert_eq!(passed_over_match_nothing(&matcher, &Envelope::Json(None), &lines), 1);
        assert!(matcher.find(Envelope::Json(None).unwrap(&lines[0]).text()).is_some());
        assert!(matcher.find(Envelope::Json(None).unwrap(&lines[1]).text()).is_some());
    }

    #[test]
    fn pieces_notes_line_breaks_and_returns_are_unwrapped() {
        let matcher = matcher();
        let lines = [
            r#"{"log":"a piece","stream":"stderr","time":"t"}"#,
            r#"{"log":"two\nlines\n","stream":"stderr","time":"t"}"#,
            r#"{"log":"return\r\n","stream":"stderr","time":"t"}"#,
            r#"{"log":"raw return","stream":"stderr","time":"t"}"#,
            r#"{"log":"fine\n","stream":"stderr","time":"t"}"#,
        ];
        let text = lines.join("\n").replace("raw return", "raw\rreturn");
        let mut reported = Vec::new();
        lines_that_may_match(&Envelope::Docker, &matcher, &text, None, false, |number, _| reported.push(number));
        assert_eq!(reported, [0, 1, 2, 3]);
        let text = "2026-11-29T17:20:35.1Z stderr P piece\n2026-11-29T17:20:35.1Z stderr F end\r\n";
        let mut reported = Vec::new();
        lines_that_may_match(&Envelope::Cri, &matcher, text, None, false, |number, range| {
            reported.push((number, range))
        });
        assert_eq!(reported, [(0, 0..37)]);
        // Pieces however their tags end; a stream and `P` inside a message
        // do not make a piece.
        let lines = [
            "2026-11-29T17:20:35.1Z stdout P:x piece",
            "2026-11-29T17:20:35.1Z stderr F words stderr P more",
            "2026-11-29T17:20:35.1Z stderr P",
            "2026-11-29T17:20:35.1Z stdout Pz not a tag",
            "2026-11-29T17:20:35.1Z stdout P",
        ];
        reported.clear();
        lines_that_may_match(&Envelope::Cri, &matcher, &lines.join("\n"), None, false, |number, _| {
            reported.push((number, 0..0))
        });
        assert_eq!(reported.iter().map(|(n, _)| *n).collect::<Vec<_>>(), [0, 2, 4]);
        let text = "{\"__CURSOR\":\"s\",\"MESSAGE\":null}\n{\"__CURSOR\":\"s\",\"MESSAGE\":[104,105]}";
        reported.clear();
        lines_that_may_match(&Envelope::Journald, &matcher, text, None, false, |number, range| {
            reported.push((number, range))
        });
        assert_eq!(reported, [(0, 0..31), (1, 32..text.len())]);
    }

    #[test]
    fn a_template_without_a_literal_makes_every_line_a_candidate() {
        let matcher = Matcher::new([&Template::compile("%s: %d", Dialect::Go).unwrap()]);
        assert_eq!(lines_that_may_match(&Envelope::Syslog, &matcher, "a\nb\n", None, false, |_, _| panic!()), None);
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]

        #[test]
        fn a_line_passed_over_matches_nothing(
            parts in prop::collection::vec(prop_oneof![
                prop::sample::select(FORMATS.iter().map(|f| f.replace("%s", "v").replace("%d", "7")).collect::<Vec<_>>()),
                prop::sample::select(vec!["\"", "\\", "<", ">", "&", "\t", "é", "😀", "/", " ", "disk", "words", "\\u0041", "msg=", "{"])
                    .prop_map(str::to_owned),
                "[a-z ]{0,6}",
            ], 0..6),
            escaped in prop::collection::vec(any::<bool>(), 1..8),
        ) {
            let message = parts.concat();
            let style = |i: usize, _| escaped[i % escaped.len()];
            for matcher in matchers() {
                for (envelope, line) in wrapped(&message, &style) {
                    passed_over_match_nothing(&matcher, &envelope, &[line]);
                }
            }
        }
    }

    #[test]
    fn journald_notes_and_byte_messages_are_never_passed_over() {
        let none = [false; 256];
        let escapes = Escapes { literal_bytes: &none, go: false, nested: false };
        assert!(!journald_passes_over(r#"{"__CURSOR":"s","MESSAGE":null}"#, escapes));
        assert!(!journald_passes_over(r#"{"__CURSOR":"s","MESSAGE":[104,105]}"#, escapes));
        assert!(journald_passes_over(r#"{"__CURSOR":"s","MESSAGE":"hi \"x\""}"#, escapes));
    }
}
