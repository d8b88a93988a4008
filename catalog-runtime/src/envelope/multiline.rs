//! Multi-line events: a Java stack trace (`\tat …`, `Caused by: …`,
//! `... N more`), a Python traceback (`Traceback (most recent call last):`
//! up to the exception line) or a Go panic and goroutine dump, written over
//! several lines, is one event, classified by its message and carrying the
//! rest as context. The message of a Java or Go event is its first line (the
//! exception, the `panic:`), which the caller has classified already: the
//! lines after it only add context. A Python traceback's message is its last
//! line (`ValueError: …`), so its lines are held until that line comes.
//! Python's chained tracebacks (an exception raised while handling another,
//! or `raise … from …`) are one event: the tracebacks after the first, from
//! the `During handling of the above exception…` or `The above exception was
//! the direct cause…` line on, end with a [`LineRole::Chained`] message.

use crate::LogLevel;

/// What a line is to the event around it.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum LineRole {
    /// A line of its own (maybe the first of an event): classify it.
    Line,
    /// A line of the trace of the event whose first line came last: add it
    /// to that event's context.
    Context,
    /// A line held for the message that ends the event (a Python traceback).
    Held,
    /// The message ending a held event: classify it, with this context (the
    /// lines held, the first of them numbered as given).
    Message {
        /// The lines before the message, joined with `\n`.
        context: String,
        /// The number of the event's first line.
        first_line: u64,
    },
    /// The message ending a traceback chained to the event before it (an
    /// exception raised while handling that one's, or from it): classify it
    /// with this context (the lines held since that event's message, the
    /// separator's first); the event before it is its cause, and they are
    /// one event.
    Chained {
        /// The lines between the cause's message and this one, joined with `\n`.
        context: String,
        /// The number of the first of them.
        first_line: u64,
    },
}

/// Which kind of event is open.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Open {
    None,
    /// A line classified; Java or Go trace lines may follow.
    AfterLine,
    /// Within a Java trace.
    Java,
    /// Within a Go panic or goroutine dump.
    Go,
    /// Within a Python traceback, lines held.
    Python,
    /// After a Python traceback's message: blank lines are held, as a
    /// chain's separator may follow them.
    PythonEnded,
}

/// The most lines held for one Python traceback; past this the held lines
/// are given up as context-free (bounded memory, as Promtail's 128 lines).
const MAX_HELD: usize = 128;

/// Groups the lines of one input into events (see the module's docs).
///
/// ```
/// use catalog_runtime::{MultiLine, LineRole};
///
/// let mut events = MultiLine::new();
/// let roles: Vec<LineRole> = [
///     "Exception in thread \"main\" java.lang.IllegalStateException: boom",
///     "\tat com.example.App.run(App.java:22)",
///     "Caused by: java.io.IOException: disk full",
///     "\t... 3 more",
///     "next line",
/// ]
/// .iter()
/// .enumerate()
/// .map(|(i, line)| events.role(i as u64 + 1, line))
/// .collect();
/// assert_eq!(roles, [LineRole::Line, LineRole::Context, LineRole::Context, LineRole::Context, LineRole::Line]);
/// ```
#[derive(Debug)]
pub struct MultiLine {
    open: Open,
    held: Vec<String>,
    first_held: u64,
    /// Whether the lines held follow a chain's separator.
    chained: bool,
}

impl Default for MultiLine {
    fn default() -> Self {
        MultiLine::new()
    }
}

impl MultiLine {
    /// No event open.
    pub fn new() -> Self {
        MultiLine { open: Open::None, held: Vec::new(), first_held: 0, chained: false }
    }

    /// The role of the message `text` of line `number`, given the lines before it.
    pub fn role(&mut self, number: u64, text: &str) -> LineRole {
        if self.open == Open::PythonEnded {
            if text.trim().is_empty() && self.held.len() < MAX_HELD {
                if self.held.is_empty() {
                    self.first_held = number;
                }
                self.held.push(text.to_owned());
                return LineRole::Held;
            }
            if chain_separator(text) {
                if self.held.is_empty() {
                    self.first_held = number;
                }
                self.held.push(text.to_owned());
                (self.open, self.chained) = (Open::Python, true);
                return LineRole::Held;
            }
            // No chain: the blank lines held are nobody's.
            self.held.clear();
            self.open = Open::AfterLine;
        }
        if self.open == Open::Python {
            if python_continues(text) && self.held.len() < MAX_HELD {
                self.held.push(text.to_owned());
                return LineRole::Held;
            }
            let context = std::mem::take(&mut self.held).join("\n");
            let chained = std::mem::take(&mut self.chained);
            self.open = Open::AfterLine;
            if context.is_empty() || text.trim().is_empty() {
                return LineRole::Line;
            }
            self.open = Open::PythonEnded;
            let first_line = self.first_held;
            return if chained {
                LineRole::Chained { context, first_line }
            } else {
                LineRole::Message { context, first_line }
            };
        }
        if text.starts_with(PYTHON_START) {
            self.open = Open::Python;
            self.first_held = number;
            self.held = vec![text.to_owned()];
            return LineRole::Held;
        }
        let continues = match self.open {
            Open::AfterLine => {
                if java_continues(text) {
                    self.open = Open::Java;
                    true
                } else if goroutine_header(text) {
                    self.open = Open::Go;
                    true
                } else {
                    false
                }
            }
            Open::Java => java_continues(text),
            Open::Go => go_continues(text),
            Open::None | Open::Python | Open::PythonEnded => false,
        };
        if continues {
            return LineRole::Context;
        }
        // Go's runtime writes a blank line between the panic and its goroutines.
        self.open = if go_panic(text) { Open::Go } else { Open::AfterLine };
        LineRole::Line
    }

    /// Whether [`role`](Self::role) may give the message `text` another
    /// role than [`LineRole::Line`], or give one to the lines after it,
    /// whatever lines came before: it opens an event (`Traceback …`,
    /// `panic: …`, `fatal error: …`, a goroutine dump's `goroutine N
    /// […]:`) or goes on with one (a Java frame or `Caused by: …`). When no
    /// message of an input may, each of its lines is a line of its own, and
    /// a caller may classify them as such.
    ///
    /// ```
    /// use catalog_runtime::MultiLine;
    ///
    /// assert!(MultiLine::may_group("\tat com.example.App.run(App.java:22)"));
    /// assert!(MultiLine::may_group("panic: runtime error: index out of range"));
    /// assert!(!MultiLine::may_group("[ERR] disk full"));
    /// ```
    pub fn may_group(text: &str) -> bool {
        text.starts_with(PYTHON_START) || java_continues(text) || go_panic(text) || goroutine_header(text)
    }

    /// Ends the input: the lines held, if any, as context without a message
    /// (with the number of the first).
    pub fn finish(&mut self) -> Option<(u64, String)> {
        let held = std::mem::take(&mut self.held);
        let ended = std::mem::replace(&mut self.open, Open::None) == Open::PythonEnded;
        self.chained = false;
        // Blank lines after a message are held for a chain, not for a message.
        (!held.is_empty() && !ended).then(|| (self.first_held, held.join("\n")))
    }

    /// Whether a line of level `level` may introduce the trace that follows
    /// it: a log line of a warning or worse (`logger.exception(…)`,
    /// Django's `Internal Server Error: …`, logback's `ERROR … failed`),
    /// which the program wrote with the exception's trace after it.
    pub(crate) fn may_introduce(level: Option<LogLevel>) -> bool {
        matches!(level, Some(LogLevel::Warning | LogLevel::Error | LogLevel::Fatal))
    }

    /// Whether the first line of a Java trace, `text`, may follow a line
    /// that introduced it: it has no level of its own (a logger writes the
    /// exception's line bare after its message) and is not the JVM's own
    /// `Exception in thread "…" …`, which no log line introduces.
    pub(crate) fn may_be_introduced(text: &str) -> bool {
        !text.starts_with("Exception in thread ") && LogLevel::find_in(text).is_none()
    }

    /// Whether `text` is the first line of a Python traceback.
    pub(crate) fn starts_traceback(text: &str) -> bool {
        text.starts_with(PYTHON_START)
    }

    /// Whether the lines held follow a chain's separator (see
    /// [`LineRole::Chained`]): a `Traceback …` line then goes on with the
    /// event before it rather than opening one.
    pub(crate) fn holds_a_chain(&self) -> bool {
        self.chained
    }
}

/// The first line of a Python traceback.
const PYTHON_START: &str = "Traceback (most recent call last):";

/// The line between two chained Python tracebacks (CPython's
/// `Lib/traceback.py`: `_cause_message`, `_context_message`).
fn chain_separator(text: &str) -> bool {
    text.starts_with("During handling of the above exception")
        || text.starts_with("The above exception was the direct cause")
}

/// The first line of a Go panic, after which Go's runtime writes the
/// goroutines.
fn go_panic(text: &str) -> bool {
    text.starts_with("panic: ") || text.starts_with("fatal error: ")
}

/// The first line of a goroutine's trace, `goroutine 1 [running]:`, which
/// begins a goroutine dump (after a panic, or alone: `SIGQUIT`,
/// `debug.Stack`).
fn goroutine_header(text: &str) -> bool {
    text.starts_with("goroutine ") && text.ends_with("]:")
}

/// A line of a Java stack trace after its first line (indented with spaces
/// or tabs, as `printStackTrace`, logback and Node write frames).
fn java_continues(text: &str) -> bool {
    let trimmed = text.trim_start_matches([' ', '\t']);
    let indented = trimmed.len() < text.len();
    (indented && (trimmed.starts_with("at ") || trimmed.starts_with("... ") && trimmed.ends_with(" more")))
        || trimmed.starts_with("Caused by: ")
        || (indented && trimmed.starts_with("Suppressed: "))
}

/// A line of a Go panic or goroutine dump after its first line: blank
/// lines, `goroutine N [state]:`, frames (`pkg.fn(args)`, then `\tfile:line`),
/// `created by …`, `[signal …`, `exit status N`.
fn go_continues(text: &str) -> bool {
    if text.trim().is_empty() || text.starts_with('\t') {
        return true;
    }
    if goroutine_header(text) || text.starts_with("created by ") {
        return true;
    }
    if text.starts_with("[signal ") || text.starts_with("exit status ") {
        return true;
    }
    // A frame: `main.main()`, `net/http.(*conn).serve(0xc000, {0x1, 0x2})`.
    let Some(open) = text.find('(') else { return false };
    text.ends_with(')') && open > 0 && !text[..open].contains(' ') && text[..open].contains('.')
}

/// A line of a Python traceback before its exception line.
fn python_continues(text: &str) -> bool {
    text.starts_with(' ')
        || text.starts_with('\t')
        || text.is_empty()
        || chain_separator(text)
        || text.starts_with(PYTHON_START)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn roles(lines: &[&str]) -> Vec<LineRole> {
        let mut events = MultiLine::new();
        lines.iter().enumerate().map(|(i, line)| events.role(i as u64 + 1, line)).collect()
    }

    #[test]
    fn a_python_traceback_is_classified_by_its_exception_line() {
        let lines = [
            "Traceback (most recent call last):",
            "  File \"app.py\", line 3, in <module>",
            "    main()",
            "ValueError: bad \"x\"",
            "next",
        ];
        let context = lines[..3].join("\n");
        let held = LineRole::Held;
        assert_eq!(
            roles(&lines),
            [held.clone(), held.clone(), held, LineRole::Message { context, first_line: 1 }, LineRole::Line]
        );
    }

    #[test]
    fn a_chained_traceback_ends_with_a_chained_message() {
        // As CPython writes `raise … from …` (and, with the other separator,
        // an exception raised while handling another).
        let lines = [
            "Traceback (most recent call last):",
            "  File \"app.py\", line 3, in load",
            "KeyError: 'a'",
            "",
            "The above exception was the direct cause of the following exception:",
            "",
            "Traceback (most recent call last):",
            "  File \"app.py\", line 5, in <module>",
            "LookupError: no a",
            "",
            "next",
        ];
        let held = LineRole::Held;
        let first = LineRole::Message { context: lines[..2].join("\n"), first_line: 1 };
        let chained = LineRole::Chained { context: lines[3..8].join("\n"), first_line: 4 };
        let mut expected = vec![held.clone(), held.clone(), first];
        expected.extend([held.clone(), held.clone(), held.clone(), held.clone(), held.clone(), chained]);
        // A blank line after a message, held for a chain that does not come.
        expected.extend([held, LineRole::Line]);
        assert_eq!(roles(&lines), expected);
        // Without a separator, the next traceback is an event of its own.
        let lines = [
            "Traceback (most recent call last):",
            "  x",
            "KeyError: 'a'",
            "",
            "Traceback (most recent call last):",
            "  y",
            "OSError: b",
        ];
        let roles = roles(&lines);
        assert_eq!(roles[6], LineRole::Message { context: lines[4..6].join("\n"), first_line: 5 });
        let mut events = MultiLine::new();
        for (at, line) in lines[..4].iter().enumerate() {
            events.role(at as u64 + 1, line);
        }
        assert_eq!(events.finish(), None, "blank lines after a message are no event");
    }

    #[test]
    fn a_go_panic_and_its_goroutines_are_context() {
        let lines = [
            "panic: runtime error: index out of range [5] with length 3",
            "",
            "goroutine 1 [running]:",
            "main.main()",
            "\t/app/main.go:8 +0x1d",
            "exit status 2",
            "[INF] next",
        ];
        let mut expected = vec![LineRole::Context; lines.len()];
        (expected[0], expected[6]) = (LineRole::Line, LineRole::Line);
        assert_eq!(roles(&lines), expected);
    }

    #[test]
    fn plain_lines_stay_lines() {
        let lines = ["a", "  indented but not a frame", "b (c)", "Caused by nothing"];
        assert_eq!(roles(&lines), vec![LineRole::Line; 4]);
        // What a Go trace holds, outside one.
        let lines = ["a", "\tindented with a tab", "main.main()", "exit status 2", "", "created by x"];
        assert_eq!(roles(&lines), vec![LineRole::Line; 6]);
        let mut events = MultiLine::new();
        events.role(1, "Traceback (most recent call last):");
        assert_eq!(events.finish(), Some((1, "Traceback (most recent call last):".to_owned())));
    }

    #[test]
    fn a_goroutine_dump_after_a_line_is_its_context() {
        let lines = ["SIGQUIT: quit", "goroutine 1 [running]:", "main.main()", "\t/app/main.go:8 +0x1d", "next"];
        let expected = [LineRole::Line, LineRole::Context, LineRole::Context, LineRole::Context, LineRole::Line];
        assert_eq!(roles(&lines), expected);
    }

    /// Lines of every kind of event and lines like them.
    const LINES: [&str; 22] = [
        "[ERR] disk full",
        "Exception in thread \"main\" java.lang.IllegalStateException: boom",
        "\tat com.example.App.run(App.java:22)",
        "    at Object.<anonymous> (/app/index.js:3:9)",
        " at one space",
        "\u{a0}at a no-break space",
        "\t... 3 more",
        "Caused by: java.io.IOException: disk full",
        "\tSuppressed: x",
        "Traceback (most recent call last):",
        "  File \"app.py\", line 3, in <module>",
        "ValueError: bad",
        "During handling of the above exception, another exception occurred:",
        "panic: boom",
        "fatal error: all goroutines are asleep",
        "",
        "goroutine 1 [running]:",
        "main.main()",
        "\t/app/main.go:8 +0x1d",
        "created by main.main",
        "exit status 2",
        "[signal SIGSEGV: segmentation violation]",
    ];

    proptest! {
        /// A line gets another role than `Line` only after (or at) a line
        /// that `may_group`: where none may, a caller can skip grouping.
        #[test]
        fn only_lines_that_may_group_make_events(picks in proptest::collection::vec(0..LINES.len(), 1..24)) {
            let lines: Vec<&str> = picks.iter().map(|&i| LINES[i]).collect();
            let first_that_may = lines.iter().position(|line| MultiLine::may_group(line)).unwrap_or(lines.len());
            for (at, role) in roles(&lines).into_iter().enumerate().take(first_that_may) {
                prop_assert_eq!(role, LineRole::Line, "line {} of {:?}", at, lines);
            }
        }
    }
}
