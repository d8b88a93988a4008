//! Classifying a buffer of wrapped lines at once, as the matcher's buffer
//! scan classifies plain lines: one pass of the prefilter over the raw
//! buffer ([`Envelope::lines_that_may_match`]) tells which lines need
//! unwrapping and where the literals are; a message that is a run of its
//! line's bytes is then matched against the templates of the literals found
//! in it, without another pass (most lines of Docker, CRI and syslog logs,
//! and JSON and logfmt messages without escapes), and only a message with
//! escapes undone is searched for literals again. What `errcat scan` and
//! Python's `Catalog.classify` do with wrapped lines when none of them needs
//! the line-by-line path.

use std::ops::Range;

use super::{verbatim, Envelope, EnvelopeKind, LogLine, MultiLine};
use crate::format::Template;
use crate::matcher::{Match, Matcher};

impl Envelope {
    /// Finds the best match of every line of `text` (split at `\n`; a final
    /// line break ends the last line) once unwrapped from this envelope,
    /// with a `\r` that ends it dropped: the same matches as unwrapping
    /// each line and [`Matcher::find`] on its message (else, when that
    /// finds nothing, on the line as it is: an envelope is a hint, not a
    /// filter), but only the lines
    /// that may match are unwrapped (see
    /// [`lines_that_may_match`](Self::lines_that_may_match)), and the
    /// literals that pass finds serve the messages it saw whole (see the
    /// module's docs).
    ///
    /// `each(number, line, found)` gets, in line order, the number of each
    /// line that matches (from 0), what its envelope said of it (the
    /// match's span is in [`line.text()`](LogLine::text); a line matched as
    /// it is comes as a plain line) and the match.
    /// Gives the number of lines.
    ///
    /// `None`, with no call of `each`, when some line needs more than this
    /// (the caller then unwraps line by line): a piece of a longer line,
    /// which [`PartialLines`](super::PartialLines) joins with the pieces
    /// after it; a line with a [note](LogLine::note); a message holding a
    /// line break (`\n` or `\r`), which a caller may read as several lines.
    ///
    /// ```
    /// use catalog_runtime::{Dialect, Envelope, Matcher, Template};
    ///
    /// let matcher = Matcher::new([&Template::compile("disk %s full", Dialect::Go).unwrap()]);
    /// let log = concat!(
    ///     r#"{"log":"all \"good\"\n","stream":"stdout","time":"t"}"#, "\n",
    ///     r#"{"log":"disk \u003cvar\u003e full\n","stream":"stderr","time":"t"}"#, "\n",
    /// );
    /// let mut found = Vec::new();
    /// let lines = Envelope::Docker.find_lines_at_once(&matcher, log, |number, line, m| {
    ///     found.push((number, line.text()[m.span].to_owned(), line.span_in_input()));
    /// });
    /// assert_eq!(lines, Some(2));
    /// assert_eq!(found, [(1, "disk <var> full".to_owned(), 8..33)]);
    ///
    /// // A piece of a longer line (no `\n` at the end of Docker's `log`).
    /// let piece = r#"{"log":"disk /var ","stream":"stderr","time":"t"}"#;
    /// assert_eq!(Envelope::Docker.find_lines_at_once(&matcher, piece, |_, _, _| unreachable!()), None);
    /// ```
    pub fn find_lines_at_once<I: AsRef<Template>>(
        &self,
        matcher: &Matcher<I>,
        text: &str,
        each: impl FnMut(usize, &LogLine<'_>, Match<'_>),
    ) -> Option<usize> {
        self.find_at_once(matcher, text.as_bytes(), Some(text), false, each)
    }

    /// [`find_lines_at_once`](Self::find_lines_at_once) in bytes, but
    /// `None` (with no call of `each`) also when they are not UTF-8 or some
    /// line may be grouped with others into one event by
    /// [`MultiLine`](super::MultiLine) (see
    /// [`may_hold_events`](Self::may_hold_events)): what a caller that
    /// reads bytes and groups multi-line events classifies at once. The
    /// same as a UTF-8 check, `may_hold_events` and `find_lines_at_once`,
    /// but Docker's lines are looked at for all three in the one pass that
    /// tells which to unwrap (and the lines it passes over are not read
    /// again).
    ///
    /// ```
    /// use catalog_runtime::{Dialect, Envelope, Matcher, Template};
    ///
    /// let matcher = Matcher::new([&Template::compile("disk %s full", Dialect::Go).unwrap()]);
    /// let log = concat!(
    ///     r#"{"log":"disk /var full\n","stream":"stderr","time":"t"}"#, "\n",
    ///     r#"{"log":"\tat com.example.App.run(App.java:22)\n","stream":"stderr","time":"t"}"#, "\n",
    /// );
    /// assert_eq!(Envelope::Docker.find_lines_at_once(&matcher, log, |_, _, _| {}), Some(2));
    /// let at_once = Envelope::Docker.find_lines_at_once_unless_grouped(&matcher, log.as_bytes(), |_, _, _| {});
    /// assert_eq!(at_once, None);
    /// ```
    pub fn find_lines_at_once_unless_grouped<I: AsRef<Template>>(
        &self,
        matcher: &Matcher<I>,
        text: &[u8],
        each: impl FnMut(usize, &LogLine<'_>, Match<'_>),
    ) -> Option<usize> {
        if *self == Envelope::Docker {
            return self.find_at_once(matcher, text, None, true, each);
        }
        let utf8 = std::str::from_utf8(text).ok()?;
        if self.may_hold_events(text) {
            return None;
        }
        self.find_at_once(matcher, text, Some(utf8), false, each)
    }

    /// [`find_lines_at_once`](Self::find_lines_at_once) in `text`: `utf8`
    /// is `text` known to be UTF-8, which it must be but in Docker, whose
    /// bytes are checked on the way (`None` when they are not UTF-8). With
    /// `events` (Docker's), `None` too when the message of a line that is
    /// unwrapped may be grouped into an event: the lines that may be are
    /// among those unwrapped.
    fn find_at_once<I: AsRef<Template>>(
        &self,
        matcher: &Matcher<I>,
        text: &[u8],
        utf8: Option<&str>,
        events: bool,
        mut each: impl FnMut(usize, &LogLine<'_>, Match<'_>),
    ) -> Option<usize> {
        // The lines that may match: number, range in `text`, the line (without
        // a `\r` that ends it), what the envelope said.
        let mut unwrapped_lines: Vec<(usize, Range<usize>, &str, LogLine<'_>)> = Vec::with_capacity(text.len() / 256);
        let mut whole = true;
        let mut unwrap = |number: usize, range: Range<usize>| {
            if !whole {
                return;
            }
            // Only the lines unwrapped are read as text.
            let Ok(line) = std::str::from_utf8(&text[range.clone()]) else {
                whole = false;
                return;
            };
            let line = line.strip_suffix('\r').unwrap_or(line);
            let unwrapped = self.unwrap(line);
            let message = unwrapped.text();
            if unwrapped.is_piece()
                || unwrapped.note().is_some()
                || memchr::memchr2(b'\n', b'\r', message.as_bytes()).is_some()
                || (events && MultiLine::may_group(message))
            {
                whole = false;
                return;
            }
            unwrapped_lines.push((number, range, line, unwrapped));
        };
        // Every occurrence of a literal in `text`, a line's before the next line's.
        let mut literals = Vec::new();
        let passed = match utf8 {
            _ if *self == Envelope::Docker => {
                match verbatim::docker_lines_that_may_match(matcher, text, Some(&mut literals), events, &mut unwrap) {
                    // The lines passed over are UTF-8 when all are ASCII.
                    Some((_, false)) if utf8.is_none() && std::str::from_utf8(text).is_err() => return None,
                    passed => passed.map(|(lines, _)| lines),
                }
            }
            Some(text) => verbatim::lines_that_may_match(self, matcher, text, Some(&mut literals), false, &mut unwrap),
            None => unreachable!("only Docker's lines are read before the text is known to be UTF-8"),
        };
        let (lines, literals_tell) = match passed {
            Some(lines) => (lines, true),
            None => {
                // Any line may match: all are unwrapped.
                let body = text.strip_suffix(b"\n").unwrap_or(text);
                let mut start = 0;
                let mut lines = 0;
                for line in body.split(|&b| b == b'\n') {
                    unwrap(lines, start..start + line.len());
                    start += line.len() + 1;
                    lines += 1;
                }
                (lines, false)
            }
        };
        if !whole {
            return None;
        }
        let mut candidates = Vec::new();
        // The first of `literals` not before the line (the lines come in order).
        let mut next_literal = 0;
        for (number, range, line, unwrapped) in &unwrapped_lines {
            let message = unwrapped.text();
            // The literals found in the line in the prefilter's pass over `text`.
            let in_line = literals_tell.then(|| {
                while literals.get(next_literal).is_some_and(|&(start, _)| start < range.start) {
                    next_literal += 1;
                }
                let count = literals[next_literal..].iter().take_while(|&&(start, _)| start < range.end).count();
                &literals[next_literal..next_literal + count]
            });
            // A message that is a run of the line's own bytes (no escape
            // undone) holds the literals found there: the matcher looks at
            // their templates only, without a pass of its own.
            let found = match (offset_in(text, message), in_line) {
                (Some(at), Some(in_line)) => {
                    let in_message = in_line.iter().filter(|&&(start, _)| (at..at + message.len()).contains(&start));
                    matcher.find_among(message, in_message.map(|&(_, literal)| literal), &mut candidates)
                }
                _ => matcher.find(message),
            };
            match found {
                Some(found) => each(*number, unwrapped, found),
                // Detection is a hint: the line as it is (with the literals
                // found in it) may hold a message that its unwrapped message does not.
                None if unwrapped.envelope() != EnvelopeKind::None => {
                    let plain = LogLine::plain(line);
                    let found = match in_line {
                        Some(in_line) => matcher.find_among(
                            plain.text(),
                            in_line.iter().map(|&(_, literal)| literal),
                            &mut candidates,
                        ),
                        None => matcher.find(plain.text()),
                    };
                    if let Some(found) = found {
                        each(*number, &plain, found);
                    }
                }
                None => {}
            }
        }
        Some(lines)
    }
}

/// Where `part` starts in `text`, when it is a part of it (borrowed from
/// it, not copied).
fn offset_in(text: &[u8], part: &str) -> Option<usize> {
    let at = (part.as_ptr() as usize).wrapping_sub(text.as_ptr() as usize);
    (at <= text.len() && part.len() <= text.len() - at).then_some(at)
}

#[cfg(test)]
mod tests {
    use super::super::wrap;
    use super::*;
    use crate::Catalog;

    fn catalog() -> Catalog {
        Catalog::load("../data/nats-io/nats-server").expect("the seed records load")
    }

    /// Each line unwrapped and matched alone: what `find_lines_at_once` must give.
    fn line_by_line(catalog: &Catalog, envelope: &Envelope, text: &str) -> Vec<(usize, String, Match<'static>)> {
        let body = text.strip_suffix('\n').unwrap_or(text);
        let mut found = Vec::new();
        for (number, line) in body.split('\n').enumerate() {
            let line = line.strip_suffix('\r').unwrap_or(line);
            let unwrapped = envelope.unwrap(line);
            let plain = || catalog.find(line).map(|m| (line, m));
            if let Some((text, m)) = catalog.find(unwrapped.text()).map(|m| (unwrapped.text(), m)).or_else(plain) {
                found.push((number, text.to_owned(), m.into_owned()));
            }
        }
        found
    }

    fn at_once(catalog: &Catalog, envelope: &Envelope, text: &str) -> Option<Vec<(usize, String, Match<'static>)>> {
        let mut found = Vec::new();
        let lines = envelope.find_lines_at_once(catalog.matcher(), text, |number, line, m| {
            found.push((number, line.text().to_owned(), m.into_owned()));
        })?;
        let body = text.strip_suffix('\n').unwrap_or(text);
        assert_eq!(lines, body.split('\n').count(), "{text:?}");
        Some(found)
    }

    const MESSAGES: [&str; 4] = [
        r#"[ERR] unable to persist session "s <7>" (seq=3): nats: timeout"#,
        "GET /healthz 200",
        r#"unable to persist session "" (seq=0): "#,
        "create QoS2 incoming messages stream for account \"日本\": nats: timeout",
    ];

    /// `message` wrapped in `envelope`.
    fn wrap(envelope: &Envelope, message: &str) -> String {
        match envelope {
            Envelope::Docker => {
                format!(r#"{{"log":{},"stream":"stderr","time":"t"}}"#, wrap::docker_string(&format!("{message}\n")))
            }
            Envelope::Cri => format!("2026-11-29T17:20:35.1Z stderr F {message}"),
            Envelope::Journald => {
                format!(r#"{{"__CURSOR":"s","PRIORITY":"3","MESSAGE":{}}}"#, wrap::docker_string(message))
            }
            Envelope::Syslog => format!("<11>1 2026-11-29T17:20:35Z h app 1 - - {message}"),
            Envelope::Logfmt => format!("level=error msg={}", wrap::go_quote(message)),
            Envelope::Json(_) => format!(r#"{{"level":"error","msg":{}}}"#, wrap::docker_string(message)),
            Envelope::None => message.to_owned(),
        }
    }

    const ENVELOPES: [Envelope; 7] = [
        Envelope::None,
        Envelope::Docker,
        Envelope::Cri,
        Envelope::Journald,
        Envelope::Syslog,
        Envelope::Logfmt,
        Envelope::Json(None),
    ];

    #[test]
    fn lines_found_at_once_are_those_found_line_by_line() {
        let catalog = catalog();
        for envelope in &ENVELOPES {
            let mut lines: Vec<String> = MESSAGES.iter().map(|message| wrap(envelope, message)).collect();
            // A plain line among wrapped ones, an empty line, and a `\r\n`.
            lines.push(MESSAGES[0].to_owned());
            lines.push(String::new());
            lines.push(format!("{}\r", wrap(envelope, MESSAGES[2])));
            let text = lines.join("\n");
            for text in [text.clone(), format!("{text}\n")] {
                let found = at_once(&catalog, envelope, &text).unwrap_or_else(|| panic!("{envelope}: {text}"));
                assert_eq!(found, line_by_line(&catalog, envelope, &text), "{envelope}");
                assert_eq!(found.iter().map(|(number, ..)| *number).collect::<Vec<_>>(), [0, 2, 3, 4, 6], "{envelope}");
            }
        }
    }

    #[test]
    fn pieces_notes_and_line_breaks_need_the_line_by_line_path() {
        let catalog = catalog();
        let good = wrap(&Envelope::Docker, MESSAGES[0]);
        let piece = r#"{"log":"[ERR] unable to persist ","stream":"stderr","time":"t"}"#;
        let cri_piece = "2026-11-29T17:20:35.1Z stderr P [ERR] unable to persist ";
        let null = r#"{"__CURSOR":"s","PRIORITY":"3","MESSAGE":null}"#;
        let two_lines = wrap(&Envelope::Json(None), &format!("{}\nat main", MESSAGES[0]));
        let a_return = wrap(&Envelope::Json(None), &format!("{}\rx", MESSAGES[0]));
        let cases = [
            (Envelope::Docker, format!("{good}\n{piece}\n{good}\n")),
            (Envelope::Cri, format!("{cri_piece}\n{}\n", wrap(&Envelope::Cri, MESSAGES[0]))),
            (Envelope::Journald, format!("{}\n{null}\n", wrap(&Envelope::Journald, MESSAGES[0]))),
            (Envelope::Json(None), format!("{two_lines}\n")),
            (Envelope::Json(None), format!("{}\n{a_return}", MESSAGES[1])),
        ];
        for (envelope, text) in cases {
            let mut called = false;
            let lines = envelope.find_lines_at_once(catalog.matcher(), &text, |_, _, _| called = true);
            assert_eq!((lines, called), (None, false), "{envelope}: {text}");
        }
    }

    #[test]
    fn bytes_are_classified_at_once_when_they_are_utf8_and_no_line_is_grouped() {
        let catalog = catalog();
        for envelope in &ENVELOPES {
            let lines: Vec<String> = MESSAGES.iter().map(|message| wrap(envelope, message)).collect();
            let text = lines.join("\n") + "\n";
            let mut found = Vec::new();
            let count =
                envelope.find_lines_at_once_unless_grouped(catalog.matcher(), text.as_bytes(), |number, line, m| {
                    found.push((number, line.text().to_owned(), m.into_owned()));
                });
            assert_eq!(count, Some(MESSAGES.len()), "{envelope}");
            assert_eq!(found, line_by_line(&catalog, envelope, &text), "{envelope}");
            // Bytes that are not UTF-8: in a line that may match, in one
            // that is passed over (non-ASCII, then checked), alone.
            let invalid = |text: &[u8], from: &[u8]| {
                let at = text.windows(from.len()).position(|w| w == from).expect("the bytes to replace");
                [&text[..at], &[0xff, 0xfe][..], &text[at + from.len()..]].concat()
            };
            let passed_over =
                [text.as_bytes(), b"\n", &invalid(wrap(envelope, "GET /x").as_bytes(), b"/x")[..]].concat();
            let cases = [invalid(text.as_bytes(), b"timeout"), passed_over, vec![0xc3]];
            for bytes in cases {
                let mut called = false;
                let count =
                    envelope.find_lines_at_once_unless_grouped(catalog.matcher(), &bytes, |_, _, _| called = true);
                assert_eq!((count, called), (None, false), "{envelope}: {:?}", String::from_utf8_lossy(&bytes));
            }
        }
    }
}
