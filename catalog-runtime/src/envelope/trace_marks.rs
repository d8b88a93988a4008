//! Whether a buffer of lines may hold a multi-line event, found without
//! reading the lines one by one: a caller classifies lines as
//! [`MultiLine`] would group them only where they may be grouped, and each
//! line on its own (at once, far faster) elsewhere.
//!
//! Every message that [`MultiLine::may_group`] takes holds one of a few
//! marks (`Traceback (most recent call last):`, `panic: `, `goroutine `,
//! `Caused by: `, an indented `at `…), so one search for them all runs over
//! the raw buffer; each line holding one is then unwrapped and its message
//! looked at. A plain line's message is the line, so only the lines that
//! begin with a mark's first byte (or a space or tab) are looked at.

use std::sync::OnceLock;

use aho_corasick::{AhoCorasick, MatchKind};

use super::line_bounds::{line_end_at, line_start};
use super::{Envelope, MultiLine};

/// A mark that the messages [`MultiLine::may_group`] takes hold.
struct Mark {
    text: &'static str,
    /// Whether it comes after an indentation (an indented Java line's
    /// `at `), found only after a space or tab, escaped or not (see
    /// [`after_indentation`]); the others begin a message.
    indented: bool,
}

const MARKS: [Mark; 8] = [
    Mark { text: "Traceback (most recent call last):", indented: false },
    Mark { text: "panic: ", indented: false },
    Mark { text: "fatal error: ", indented: false },
    Mark { text: "goroutine ", indented: false },
    Mark { text: "Caused by: ", indented: false },
    Mark { text: "Suppressed: ", indented: false },
    Mark { text: "at ", indented: true },
    Mark { text: "... ", indented: true },
];

/// The bytes a message that may be grouped can begin with (`[b]` for byte
/// `b`): the first byte of each mark that begins a message, and a space or
/// tab, which begins any indentation.
const MAY_BEGIN_EVENT: [bool; 256] = {
    let mut table = [false; 256];
    table[b' ' as usize] = true;
    table[b'\t' as usize] = true;
    let mut k = 0;
    while k < MARKS.len() {
        if !MARKS[k].indented {
            table[MARKS[k].text.as_bytes()[0] as usize] = true;
        }
        k += 1;
    }
    table
};

impl Envelope {
    /// Whether some line of `text` (split at `\n`), unwrapped from this
    /// envelope, may be grouped with others into one event by
    /// [`MultiLine`] (see [`MultiLine::may_group`]); when not, each line is
    /// a line of its own. A piece of a longer line is looked at alone (a
    /// caller joins pieces line by line anyway). A message given by escapes
    /// that no producer writes (`\u0061t ` for `at `) may be missed; a
    /// journald array (a message of bytes) may be any message.
    ///
    /// ```
    /// use catalog_runtime::Envelope;
    ///
    /// let trace = "[ERR] boom\n\tat com.example.App.run(App.java:22)\n";
    /// assert!(Envelope::None.may_hold_events(trace.as_bytes()));
    /// let docker = r#"{"log":"\tat com.example.App.run(App.java:22)\n","stream":"stderr","time":"t"}"#;
    /// assert!(Envelope::Docker.may_hold_events(docker.as_bytes()));
    /// assert!(!Envelope::Docker.may_hold_events(br#"{"log":"look at this\n","stream":"stderr","time":"t"}"#));
    /// ```
    pub fn may_hold_events(&self, text: &[u8]) -> bool {
        if *self == Envelope::None {
            return plain_lines_may_hold_events(text, false);
        }
        // journald writes a message holding a control character (a tab
        // too) as an array of its bytes, which holds no mark: any array
        // may be one.
        let arrays: [&[u8]; 2] = [b":[", b": ["];
        if *self == Envelope::Journald && arrays.iter().any(|array| memchr::memmem::find(text, array).is_some()) {
            return true;
        }
        static SEARCH: OnceLock<AhoCorasick> = OnceLock::new();
        let search = SEARCH.get_or_init(|| searcher(MARKS.map(|mark| mark.text)));
        let mut looked_at = None;
        search.find_iter(text).any(|found| {
            let start = found.start();
            if MARKS[found.pattern().as_usize()].indented && !after_indentation(&text[..start]) {
                return false;
            }
            let line = (line_start(text, start), line_end_at(text, start));
            // A line holding several marks is looked at once.
            if looked_at.replace(line.0) == Some(line.0) {
                return false;
            }
            match std::str::from_utf8(&text[line.0..line.1]) {
                Ok(line) => MultiLine::may_group(self.unwrap(line.strip_suffix('\r').unwrap_or(line)).text()),
                Err(_) => true,
            }
        })
    }
}

/// Whether a message that starts with `escaped`, JSON-escaped (a string's
/// contents after its opening quote), may be grouped with others into one
/// event: it starts with a mark that begins a message (see [`MARKS`]), or
/// with a space, a tab or an escape (which may give a tab), maybe an
/// indentation. A look at a few bytes that [`MultiLine::may_group`] then
/// settles on the message.
pub(super) fn may_begin_event(escaped: &[u8]) -> bool {
    match escaped.first() {
        Some(b'\\') => true,
        Some(&byte) if MAY_BEGIN_EVENT[usize::from(byte)] => {
            matches!(byte, b' ' | b'\t')
                || MARKS.iter().any(|mark| !mark.indented && escaped.starts_with(mark.text.as_bytes()))
        }
        _ => false,
    }
}

/// [`Envelope::may_hold_events`] for plain lines, whose message starts
/// where the line does: only the lines beginning with a mark's first byte
/// (or a space or tab, which begins any indented Java line) are looked at.
/// Going from line break to line break costs less than a search for the
/// marks after line breaks, which stops at every line break too (measured
/// on the example log: slower). With `or_space_indented`, a line after
/// another that begins with a space is one too (a scan reads such a line
/// with the one before it: see `scan::spanning`); looking for it in the
/// same pass saves a second search of the whole text.
pub(crate) fn plain_lines_may_hold_events(text: &[u8], or_space_indented: bool) -> bool {
    let starts = std::iter::once(0).chain(memchr::memchr_iter(b'\n', text).map(|at| at + 1));
    starts.into_iter().any(|start| match text.get(start) {
        Some(b' ') if or_space_indented && start > 0 => true,
        Some(&byte) if MAY_BEGIN_EVENT[usize::from(byte)] => {
            MultiLine::may_group(&String::from_utf8_lossy(&text[start..line_end_at(text, start)]))
        }
        _ => false,
    })
}

/// A search for `marks`, none of which can begin inside another, so that
/// a search for them one after the other finds them all: leftmost-first,
/// it runs with its vector prefilter (Teddy), many times as fast as a
/// search for overlapping matches.
fn searcher<M: AsRef<[u8]>>(marks: impl IntoIterator<Item = M>) -> AhoCorasick {
    let mut builder = AhoCorasick::builder();
    builder.match_kind(MatchKind::LeftmostFirst).build(marks).expect("the marks build a searcher")
}

/// Whether `before` (the text before a mark) ends with a space or a tab,
/// as it is or escaped (`\t`, `\u0009`, `\x09`): an indentation, maybe.
fn after_indentation(before: &[u8]) -> bool {
    matches!(before.last(), Some(b' ' | b'\t'))
        || before.ends_with(b"\\t")
        || before.ends_with(b"\\u0009")
        || before.ends_with(b"\\x09")
}

#[cfg(test)]
mod tests {
    use super::super::wrap;
    use super::*;

    /// Messages that may be grouped, and others.
    const GROUPED: [&str; 9] = [
        "\tat com.example.App.run(App.java:22)",
        "    at Object.<anonymous> (/app/index.js:3:9)",
        " at one space",
        "\t... 3 more",
        "Caused by: java.io.IOException: disk <full> & \"gone\"",
        "Traceback (most recent call last):",
        "panic: boom",
        "fatal error: all goroutines are asleep",
        "goroutine 1 [running]:",
    ];
    const ALONE: [&str; 7] = [
        "[ERR] look at this",
        "  File \"app.py\", line 3",
        "main.main()",
        "\t/app/main.go:8 +0x1d",
        "at the start",
        "the goroutine 7 [running]: later",
        "",
    ];

    /// `message` in each envelope, as its producers escape it.
    fn wrapped(message: &str) -> Vec<(Envelope, String)> {
        let (docker, go) = (wrap::docker_string(&format!("{message}\n")), wrap::go_quote(message));
        let json = serde_json::to_string(message).unwrap();
        vec![
            (Envelope::None, message.to_owned()),
            (Envelope::Docker, format!(r#"{{"log":{docker},"stream":"stderr","time":"2026-11-29T17:20:00Z"}}"#)),
            (Envelope::Cri, format!("2026-11-29T17:20:00.1Z stderr F {message}")),
            (Envelope::Json(None), format!(r#"{{"level":"error","msg":{json}}}"#)),
            (Envelope::Logfmt, format!("level=error msg={go}")),
            (Envelope::Syslog, format!("<11>1 2026-11-29T17:20:00Z host app 1 - - {message}")),
            (Envelope::Cri, format!(r#"2026-11-29T17:20:00.1Z stderr F {{"level":"error","msg":{json}}}"#)),
            (
                Envelope::Docker,
                format!(
                    r#"{{"log":{},"stream":"stdout","time":"t"}}"#,
                    wrap::docker_string(&format!("level=error msg={go}\n"))
                ),
            ),
            (Envelope::Journald, journald(message)),
            (
                Envelope::Docker,
                format!(
                    r#"{{"log":{},"stream":"stdout","time":"t"}}"#,
                    wrap::docker_string(&format!("{{\"level\": \"error\", \"message\": {json}}}\n"))
                ),
            ),
        ]
    }

    /// Whether [`Envelope::find_lines_at_once_unless_grouped`] classifies
    /// `text` at once, with templates that have a literal and with one that
    /// has none (every line is then unwrapped).
    fn at_once_unless_grouped(envelope: &Envelope, text: &str) -> bool {
        use crate::{Dialect, Matcher, Template};
        let with_literal = Template::compile("disk %s is full", Dialect::Go).unwrap();
        let without = Template::compile("%s", Dialect::Go).unwrap();
        let [one, other] = [Matcher::new([&with_literal]), Matcher::new([&without])].map(|matcher| {
            envelope.find_lines_at_once_unless_grouped(&matcher, text.as_bytes(), |_, _, _| {}).is_some()
        });
        assert_eq!(one, other, "{envelope}: {text:?}");
        one
    }

    /// A journal entry as `journalctl -o json` writes it: `MESSAGE` as an
    /// array of bytes when it holds a control character (systemd
    /// `src/shared/logs-show.c`).
    fn journald(message: &str) -> String {
        let text = if message.chars().any(char::is_control) {
            let bytes: Vec<String> = message.bytes().map(|b| b.to_string()).collect();
            format!("[{}]", bytes.join(","))
        } else {
            serde_json::to_string(message).unwrap()
        };
        format!(r#"{{"__CURSOR":"s=1","PRIORITY":"3","MESSAGE":{text}}}"#)
    }

    #[test]
    fn a_message_that_may_be_grouped_is_found_in_every_envelope_among_others() {
        for message in GROUPED {
            assert!(MultiLine::may_group(message), "{message:?}");
            for ((envelope, line), (_, alone)) in wrapped(message).into_iter().zip(wrapped(ALONE[0])) {
                let text = format!("{alone}\n{line}\n{alone}");
                assert!(envelope.may_hold_events(text.as_bytes()), "{envelope}: {text:?}");
                assert!(!at_once_unless_grouped(&envelope, &text), "{envelope}: {text:?}");
            }
        }
        for message in ALONE {
            assert!(!MultiLine::may_group(message), "{message:?}");
            for (envelope, line) in wrapped(message) {
                let text = [line.as_str(); 3].join("\n");
                // A message of bytes may be anything.
                let bytes = envelope == Envelope::Journald && line.contains(r#""MESSAGE":["#);
                assert_eq!(envelope.may_hold_events(text.as_bytes()), bytes, "{envelope}: {text:?}");
                assert_eq!(at_once_unless_grouped(&envelope, &text), !bytes, "{envelope}: {text:?}");
            }
        }
    }

    #[test]
    fn a_plain_line_indented_with_a_space_after_another_is_looked_for_on_request() {
        for (text, indented) in [
            ("disk full\n  the end", true),
            ("disk full\n more", true),
            ("disk full\n\tmore", false),
            ("  more\ndisk full", false),
            ("disk full\nmore ", false),
        ] {
            assert!(!plain_lines_may_hold_events(text.as_bytes(), false), "{text:?}");
            assert_eq!(plain_lines_may_hold_events(text.as_bytes(), true), indented, "{text:?}");
        }
    }
}
