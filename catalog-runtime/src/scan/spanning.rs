//! Messages of several lines in a scan: a line that starts one is read with
//! the lines after it that the message can take, as one event.
//!
//! Two kinds of line start one:
//!
//! * a line holding the first line's literal of a multi-line template
//!   (cargo's `failed to load manifest for workspace member `{}`\nreferenced
//!   by ...`): it is read with as many lines after it as the template has,
//!   and, when the template ends with a text value after a line break, with
//!   the lines after those that go on with the value (not blank, no log
//!   prefix or record of their own);
//! * a line that matches nothing alone, followed by lines indented with
//!   spaces (not those of a trace): a value holding line breaks, as Django's SQL debug
//!   log `(%.3f) %s; args=%s; alias=%s` writes its query.
//!
//! The lines are joined with `\n`, the first line's indentation taken off
//! every line that has it (cargo indents its `Caused by:` chain), and
//! matched as one text; the match is an event when it starts in the first
//! line and runs past it, ending at the line where the match ends. An event takes at most
//! [`MAX_EVENT_LINES`] lines and [`MAX_LINE`](super::MAX_LINE) bytes, and
//! every line is read in at most one window of each kind, so a scan stays
//! linear.

use crate::matcher::{log_prefix_ends, Match};
use crate::{Catalog, MultiLine};

/// The most lines of one message of several lines (as the Python traceback's
/// held lines are bounded).
pub const MAX_EVENT_LINES: usize = 128;

/// A message of several lines found.
pub(super) struct Spanning {
    /// The lines it takes, the first included.
    pub lines: usize,
    /// The lines joined (see the module's docs): the match's spans are in it.
    pub text: String,
    /// The match.
    pub found: Match<'static>,
}

/// The message of several lines that starts at `messages[0]`, if one does;
/// `alone_matched`: whether the first line matches a record alone; `heads`:
/// whether the chunk holds a multi-line template's first-line literal.
pub(super) fn spanning(catalog: &Catalog, messages: &[&str], alone_matched: bool, heads: bool) -> Option<Spanning> {
    let (first, after) = messages.split_first()?;
    let matcher = catalog.matcher();
    let shape = if heads { matcher.multi_line_from(first) } else { None };
    let window = match shape {
        Some(shape) => {
            let mut lines = shape.lines.min(messages.len());
            if shape.open_end {
                lines += after[lines - 1..].iter().take_while(|line| goes_on(catalog, line)).count();
            }
            lines
        }
        None if !alone_matched => 1 + after.iter().take_while(|line| continues(line)).count(),
        None => 1,
    };
    let window = window.min(MAX_EVENT_LINES);
    if window < 2 {
        return None;
    }
    let text = joined(&messages[..window])?;
    let found = catalog.find(&text)?;
    let first_end = text.find('\n').unwrap_or(text.len());
    // A message of the first line that runs past it, not one of the lines after it.
    if found.span.start >= first_end || found.span.end <= first_end {
        return None;
    }
    let lines = 1 + text[..found.span.end].matches('\n').count();
    let found = found.into_owned();
    Some(Spanning { lines, text, found })
}

/// Whether `line` goes on with an open value of the message before it: not
/// blank, not a line of its own (a log prefix, a trace, a record that
/// matches it, the start of another message of several lines).
fn goes_on(catalog: &Catalog, line: &str) -> bool {
    !line.trim().is_empty()
        && log_prefix_ends(line).0 == 0
        && !MultiLine::may_group(line)
        && catalog.matcher().multi_line_from(line).is_none()
        && catalog.find(line).is_none()
}

/// Whether `line` continues the line before it by its indentation with
/// spaces (and is not a line of a trace, which [`MultiLine`] groups; tabs
/// indent Java's frames).
pub(super) fn continues(line: &str) -> bool {
    line.starts_with(' ') && !line.trim().is_empty() && !MultiLine::may_group(line)
}

/// `lines` joined with `\n`, the first one's indentation taken off each
/// that has it; `None` past [`MAX_LINE`](super::MAX_LINE) bytes.
fn joined(lines: &[&str]) -> Option<String> {
    let first = lines.first()?;
    let indent = &first[..first.len() - first.trim_start_matches([' ', '\t']).len()];
    let mut text = String::new();
    for (at, line) in lines.iter().enumerate() {
        if at > 0 {
            text.push('\n');
        }
        text.push_str(line.strip_prefix(indent).unwrap_or(line));
        if text.len() > super::MAX_LINE {
            return None;
        }
    }
    Some(text)
}
