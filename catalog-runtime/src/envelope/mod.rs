//! Envelopes: what log shippers, container runtimes and structured loggers
//! wrap around the message a program wrote (Docker's json-file, CRI,
//! journald's JSON, syslog, logfmt, JSON logs), and how to take it off
//! losslessly so that a record sees exactly that message: escapes undone
//! (JSON, including surrogate pairs; Go quoting), the envelope's own fields
//! (time, stream, level) kept apart, pieces of long lines joined
//! ([`PartialLines`]). Each envelope is a small module citing the
//! producer's source for its rules; [`Envelope::detect`] picks one for an
//! input from its first lines, as kubelet, Filebeat and lnav do.
//!
//! ```
//! use catalog_runtime::{Envelope, LogLevel};
//!
//! let line = r#"{"log":"[ERR] disk \u003cfull\u003e \"s7\"\n","stream":"stderr","time":"2026-11-29T17:20:35Z"}"#;
//! let envelope = Envelope::detect([line]);
//! assert_eq!(envelope, Envelope::Docker);
//! let unwrapped = envelope.unwrap(line);
//! assert_eq!(unwrapped.text(), r#"[ERR] disk <full> "s7""#);
//! assert_eq!(unwrapped.level(), Some(LogLevel::Error));
//! ```

use std::borrow::Cow;
use std::fmt;
use std::ops::Range;

use crate::matcher::LogLevel;

mod at_once;
mod cri;
mod detect;
mod docker;
mod join;
mod journald;
mod json;
mod json_fields;
mod level;
mod line_bounds;
mod logfmt;
mod multiline;
mod syslog;
mod trace_marks;
mod unescape;
mod verbatim;

pub use join::PartialLines;
pub use multiline::{LineRole, MultiLine};
pub(crate) use trace_marks::plain_lines_may_hold_events;

/// The one list of envelopes: [`Envelope`] and [`EnvelopeKind`] with their
/// names, [`Envelope::kind`] and [`ENVELOPE_NAMES`] are made from it.
macro_rules! envelopes {
    ($($(#[doc = $doc:literal])* $variant:ident $(($key:ty))? = $name:literal,)*) => {
        /// How the lines of an input are wrapped.
        #[derive(Clone, Debug, PartialEq, Eq, Hash)]
        #[non_exhaustive]
        pub enum Envelope {
            $($(#[doc = $doc])* $variant $(($key))?,)*
        }

        /// Which envelope a line was taken out of ([`LogLine::envelope`]): an
        /// [`Envelope`] without the JSON key it may name.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        #[non_exhaustive]
        pub enum EnvelopeKind {
            $(#[doc = concat!("[`Envelope::", stringify!($variant), "`].")] $variant,)*
        }

        impl EnvelopeKind {
            /// Its name, as [`Envelope::from_name`] reads it (`none`, `docker`, ...; `json`).
            ///
            /// ```
            /// use catalog_runtime::{Envelope, EnvelopeKind};
            /// let line = Envelope::Docker.unwrap(r#"{"log":"disk full\n","stream":"stderr","time":"t"}"#);
            /// assert_eq!(line.envelope(), EnvelopeKind::Docker);
            /// assert_eq!(line.envelope().name(), "docker");
            /// assert_eq!(Envelope::Docker.unwrap("not json").envelope(), EnvelopeKind::None);
            /// ```
            pub fn name(self) -> &'static str {
                match self {
                    $(EnvelopeKind::$variant => $name,)*
                }
            }

            /// The envelope of this kind (a JSON one with the usual keys).
            fn envelope(self) -> Envelope {
                match self {
                    $(EnvelopeKind::$variant => Envelope::$variant $((<$key>::default()))?,)*
                }
            }
        }

        impl Envelope {
            /// Which envelope this is, without the JSON key.
            pub fn kind(&self) -> EnvelopeKind {
                match self {
                    $(Envelope::$variant { .. } => EnvelopeKind::$variant,)*
                }
            }
        }

        /// The names [`Envelope::from_name`] takes, for messages.
        pub const ENVELOPE_NAMES: &str = concat!($($name, ", ",)* "json:KEY");

        const ENVELOPE_KINDS: &[EnvelopeKind] = &[$(EnvelopeKind::$variant,)*];
    };
}

envelopes! {
    /// Plain lines, read as they are.
    None = "none",
    /// Docker's json-file driver: `{"log":"…\n","stream":…,"time":…}`.
    Docker = "docker",
    /// The CRI format (containerd, CRI-O): `TIME STREAM P|F MESSAGE`.
    Cri = "cri",
    /// `journalctl -o json`: `MESSAGE`, `PRIORITY`.
    Journald = "journald",
    /// RFC 5424 or RFC 3164 syslog.
    Syslog = "syslog",
    /// logfmt: `level=error msg="…"`.
    Logfmt = "logfmt",
    /// JSON objects with the message under this key, or (with `None`)
    /// under the first of the usual keys (`msg`, `message`, `event`, `M`,
    /// `@m`, `body`, `Body`) the object has.
    Json(Option<String>) = "json",
}

impl fmt::Display for EnvelopeKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl Envelope {
    /// The envelope named `name`: `none`, `docker`, `cri`, `journald`,
    /// `syslog`, `logfmt`, `json` or `json:KEY` (the message under KEY,
    /// dotted for nested objects: `json:error.message`).
    ///
    /// ```
    /// use catalog_runtime::Envelope;
    /// assert_eq!(Envelope::from_name("json:detail"), Some(Envelope::Json(Some("detail".into()))));
    /// assert_eq!(Envelope::from_name("CRI"), Some(Envelope::Cri));
    /// assert_eq!(Envelope::from_name("xml"), None);
    /// ```
    pub fn from_name(name: &str) -> Option<Envelope> {
        if let Some(key) = name.strip_prefix("json:").or_else(|| name.strip_prefix("JSON:")) {
            return (!key.is_empty()).then(|| Envelope::Json(Some(key.to_owned())));
        }
        let name = name.to_ascii_lowercase();
        let name = if name == "plain" { "none" } else { &name };
        ENVELOPE_KINDS.iter().find(|kind| kind.name() == name).map(|kind| kind.envelope())
    }

    /// The envelope that most of the first lines of an input (up to 16 that
    /// are not blank) are in; [`Envelope::None`] when none is.
    pub fn detect<'l>(first_lines: impl IntoIterator<Item = &'l str>) -> Envelope {
        detect::detect(first_lines)
    }

    /// Calls `each(number, range)` for the lines of `text` (split at `\n`;
    /// a final line break ends the last line) that may match a template of
    /// `matcher` once unwrapped from this envelope: the line's number (from
    /// 0) and its range in `text`, without its line break. The others match
    /// nothing, and each (without a `\r` that ends it) is a whole line (not
    /// a piece) without a note whose message holds no line break. Gives the number of lines; `None`,
    /// with no call, when any line may match (some template has no literal
    /// to look for).
    ///
    /// This is the matcher's buffer scan for wrapped lines: its literal
    /// prefilter runs over the raw text, and only the lines holding a
    /// literal, or an escape that may give one (`\"` when a literal holds a
    /// `"`), need unwrapping.
    ///
    /// ```
    /// use catalog_runtime::{Dialect, Envelope, Matcher, Template};
    ///
    /// let matcher = Matcher::new([&Template::compile("disk %s full", Dialect::Go).unwrap()]);
    /// let log = concat!(
    ///     r#"{"log":"all \"good\"\n","stream":"stdout","time":"t"}"#, "\n",
    ///     r#"{"log":"disk /var full\n","stream":"stderr","time":"t"}"#, "\n",
    /// );
    /// let mut lines = Vec::new();
    /// let count = Envelope::Docker.lines_that_may_match(&matcher, log, |number, _| lines.push(number));
    /// assert_eq!((count, lines), (Some(2), vec![1]));
    /// ```
    pub fn lines_that_may_match<I: AsRef<crate::Template>>(
        &self,
        matcher: &crate::Matcher<I>,
        text: &str,
        each: impl FnMut(usize, Range<usize>),
    ) -> Option<usize> {
        verbatim::lines_that_may_match(self, matcher, text, None, false, each)
    }

    /// Whether lines in this envelope can come in pieces that
    /// [`PartialLines`] joins.
    pub fn has_pieces(&self) -> bool {
        matches!(self, Envelope::Docker | Envelope::Cri)
    }

    /// The message of `line` (without its line break) and what the envelope
    /// says of it. A line not in the envelope is read as it is (a plain line
    /// among JSON ones, say); a container line (Docker, CRI) holding a JSON
    /// or logfmt line is unwrapped twice.
    pub fn unwrap<'a>(&self, line: &'a str) -> LogLine<'a> {
        let unwrapped = match self {
            Envelope::None => None,
            Envelope::Docker => docker::unwrap(line).map(nested),
            Envelope::Cri => cri::unwrap(line).map(nested),
            Envelope::Journald => journald::unwrap(line),
            Envelope::Syslog => syslog::unwrap(line),
            Envelope::Logfmt => logfmt::unwrap(line),
            Envelope::Json(key) => json::unwrap(line, key.as_deref()),
        };
        unwrapped.unwrap_or_else(|| LogLine::plain(line))
    }
}

impl fmt::Display for Envelope {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Envelope::Json(Some(key)) => write!(f, "json:{key}"),
            other => f.write_str(other.kind().name()),
        }
    }
}

/// The output stream a container line was written to: pieces of a line
/// are joined per stream.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Stream {
    Stdout,
    Stderr,
}

/// A log line's message, taken out of its envelope, and what the envelope
/// says of it.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct LogLine<'a> {
    text: Cow<'a, str>,
    level: Option<LogLevel>,
    span_in_input: Range<usize>,
    context: Option<Cow<'a, str>>,
    envelope: EnvelopeKind,
    stream: Option<Stream>,
    ends_line: bool,
    note: Option<&'static str>,
}

impl<'a> LogLine<'a> {
    /// `line` as it is, in no envelope.
    pub fn plain(line: &'a str) -> LogLine<'a> {
        LogLine::wrapped(EnvelopeKind::None, Cow::Borrowed(line), 0..line.len())
    }

    fn wrapped(envelope: EnvelopeKind, text: Cow<'a, str>, span_in_input: Range<usize>) -> LogLine<'a> {
        LogLine { text, level: None, span_in_input, context: None, envelope, stream: None, ends_line: true, note: None }
    }

    /// This line with `level` as its envelope's level.
    pub(crate) fn with_level(self, level: LogLevel) -> LogLine<'a> {
        LogLine { level: Some(level), ..self }
    }

    /// The message as the program wrote it, unescaped: what the catalog
    /// matches (spans of matches are in it).
    pub fn text(&self) -> &str {
        &self.text
    }

    /// The line's level: from the envelope (a JSON `level`, journald's
    /// `PRIORITY`, syslog's PRI...), else from a level in the message's
    /// prefix (`[ERR]`, `ERROR:`).
    pub fn level(&self) -> Option<LogLevel> {
        self.level.or_else(|| LogLevel::find_in(&self.text).map(|(level, _)| level))
    }

    /// The level the envelope gives, if any.
    pub fn envelope_level(&self) -> Option<LogLevel> {
        self.level
    }

    /// The bytes of the input line the message was read from, as the
    /// envelope wrote them (escaped). For a line unwrapped twice whose
    /// outer envelope escapes, the outer message's bytes.
    pub fn span_in_input(&self) -> Range<usize> {
        self.span_in_input.clone()
    }

    /// A stack trace the envelope carries beside the message (`stack_trace`,
    /// `stacktrace`, `error.stack_trace`, `exception.stacktrace`...).
    pub fn context(&self) -> Option<&str> {
        self.context.as_deref()
    }

    /// The (outer) envelope the message was taken from; [`EnvelopeKind::None`]
    /// for a line read as it is.
    pub fn envelope(&self) -> EnvelopeKind {
        self.envelope
    }

    /// Whether this is a piece of a longer line, which [`PartialLines`]
    /// joins with the pieces after it.
    pub fn is_piece(&self) -> bool {
        !self.ends_line
    }

    /// Something to tell of the line: a message the envelope left out
    /// (journald's `null`), a line of too many pieces cut short.
    pub fn note(&self) -> Option<&'static str> {
        self.note
    }

    /// The line with its texts copied out of the input.
    pub fn into_owned(self) -> LogLine<'static> {
        LogLine {
            text: Cow::Owned(self.text.into_owned()),
            context: self.context.map(|context| Cow::Owned(context.into_owned())),
            level: self.level,
            span_in_input: self.span_in_input,
            envelope: self.envelope,
            stream: self.stream,
            ends_line: self.ends_line,
            note: self.note,
        }
    }

    /// Drops a line break the envelope kept at the end of the message
    /// (`\n` or `\r\n`), as plain lines are read without it.
    fn strip_line_break(&mut self) {
        let kept = crate::matcher::trim_line_break(&self.text).len();
        match &mut self.text {
            Cow::Borrowed(text) => *text = &text[..kept],
            Cow::Owned(text) => text.truncate(kept),
        }
    }
}

/// A container line's message unwrapped again when it is itself a JSON log
/// line or logfmt (its level, when it has one, is the line's).
fn nested<'a>(outer: LogLine<'a>) -> LogLine<'a> {
    if outer.is_piece() {
        return outer;
    }
    let inner = match &outer.text {
        Cow::Borrowed(text) => {
            let text: &'a str = text;
            let start = outer.span_in_input.start;
            inner_of(text).map(|inner| {
                let span = start + inner.span_in_input.start..start + inner.span_in_input.end;
                LogLine { span_in_input: span, ..inner }
            })
        }
        Cow::Owned(text) => {
            inner_of(text).map(|inner| LogLine { span_in_input: outer.span_in_input.clone(), ..inner.into_owned() })
        }
    };
    match inner {
        Some(inner) => LogLine {
            level: inner.level.or(outer.level),
            envelope: outer.envelope,
            stream: outer.stream,
            note: outer.note,
            ..inner
        },
        None => outer,
    }
}

/// A container line's message read as a JSON log line or logfmt, if it is one.
fn inner_of(text: &str) -> Option<LogLine<'_>> {
    match text.as_bytes().first() {
        Some(b'{') => json::unwrap(text, None),
        Some(_) if may_hold_inner(text) => logfmt::unwrap(text),
        _ => None,
    }
}

/// Whether a container line's message may be a JSON log line or logfmt
/// (see [`inner_of`]).
fn may_hold_inner(text: &str) -> bool {
    text.starts_with('{')
        || memchr::memchr_iter(b'=', text.as_bytes())
            .any(|at| text[..at].ends_with("msg") || text[..at].ends_with("message"))
}

#[cfg(test)]
mod tests;

/// The producers' escaping, shared by the envelope tests of every crate.
#[cfg(test)]
#[path = "../../../tests/support/wrap.rs"]
mod wrap;
