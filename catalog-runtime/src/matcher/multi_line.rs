//! Templates whose message spans lines (cargo's `failed to load manifest
//! for workspace member `{}`\nreferenced by ...`, Kafka's `Handle new
//! assignment with:\n\tNew active tasks: {}...`): the literal text of each
//! one's first line, found in a line that may start such a message, and how
//! many lines the message has. A scan reads a line holding one with the
//! lines after it (see `scan::spanning`).

use std::collections::BTreeMap;
use std::sync::OnceLock;

use aho_corasick::{AhoCorasick, MatchKind};

use super::prefilter::Prefilter;
use super::scan_notes::ScanNotes;
use crate::format::{self, Piece, Template};

/// The first-line literals of a matcher's multi-line templates.
#[derive(Debug)]
pub(crate) struct MultiLineHeads {
    /// The first-line literals (each once), in the order of their first
    /// template.
    heads: Vec<Box<str>>,
    /// For each literal, the most lines a message that starts with it has.
    lines: Vec<MessageLines>,
    /// Finds the first-line literals in a line, built on first use.
    search: OnceLock<AhoCorasick>,
    /// Tells whether a whole chunk holds one, built on first use: the
    /// matcher's gram filter, as an automaton over the heads of every
    /// dataset (some hundreds) crawled through a chunk of the sparse
    /// nats-server log at 40 instructions a byte, three times what the
    /// whole scan costs. (A plain chunk's scan finds them with the
    /// templates' literals instead: see `Matcher::prefilter`.)
    chunk_search: OnceLock<Prefilter>,
}

/// How many lines a message of several lines takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub(crate) struct MessageLines {
    /// The lines of the template (its inner line breaks, plus one).
    pub(crate) lines: usize,
    /// Whether its last value is open text after a line break, which the
    /// lines after the template's may go on (`Must be one of:\n%s` and the
    /// names listed one a line).
    pub(crate) open_end: bool,
}

/// The shortest first-line literal looked for: shorter ones (a `(`, a
/// `: `) occur in most lines, which would all be read with the lines after
/// them for nothing.
const SHORTEST_HEAD: usize = 4;

impl MultiLineHeads {
    /// The heads of `templates`.
    pub(crate) fn new<'t>(templates: impl Iterator<Item = &'t Template>) -> Self {
        let mut heads: Vec<Box<str>> = Vec::new();
        let mut lines: Vec<MessageLines> = Vec::new();
        let mut known: BTreeMap<&str, usize> = BTreeMap::new();
        for template in templates {
            let Some((head, shape)) = head_of(template) else { continue };
            match known.get(head) {
                Some(&at) => {
                    let known = &mut lines[at];
                    known.lines = known.lines.max(shape.lines);
                    known.open_end |= shape.open_end;
                }
                None => {
                    known.insert(head, heads.len());
                    heads.push(head.into());
                    lines.push(shape);
                }
            }
        }
        MultiLineHeads { heads, lines, search: OnceLock::new(), chunk_search: OnceLock::new() }
    }

    /// The first-line literals, each once.
    pub(crate) fn heads(&self) -> impl Iterator<Item = &str> {
        self.heads.iter().map(AsRef::as_ref)
    }

    /// Whether `text` may hold the first line of a multi-line message.
    pub(crate) fn any_in(&self, text: &[u8]) -> bool {
        if self.heads.is_empty() {
            return false;
        }
        let search = self.chunk_search.get_or_init(|| Prefilter::new(&self.heads().collect::<Vec<_>>()));
        let mut found = false;
        search.for_each_counting(text, &mut ScanNotes::new(text), |_, _, _| found = true);
        found
    }

    /// The lines a message starting in `line` may take, when `line` holds
    /// the first-line literal of a multi-line template (the most of all it
    /// holds).
    pub(crate) fn lines_from(&self, line: &str) -> Option<MessageLines> {
        if self.heads.is_empty() {
            return None;
        }
        let search = self.search.get_or_init(|| {
            let builder = AhoCorasick::builder().match_kind(MatchKind::Standard).build(self.heads());
            builder.expect("literal patterns build")
        });
        search
            .find_overlapping_iter(line)
            .map(|found| self.lines[found.pattern().as_usize()])
            .reduce(|a, b| MessageLines { lines: a.lines.max(b.lines), open_end: a.open_end || b.open_end })
    }
}

/// The longest literal run of `template`'s first line and the lines of its
/// message, for a template with a line break inside it (not only at its
/// end, as Go's `"...\n"` formats have) whose first line has such a run.
fn head_of(template: &Template) -> Option<(&str, MessageLines)> {
    if template.dialect == format::Dialect::Pattern && !format::pieces_describe_regex(template) {
        return None;
    }
    let mut lines = 1;
    let mut head: Option<&str> = None;
    let mut last_break_then_value = false;
    for piece in template.pieces.iter() {
        match piece {
            Piece::Literal(text) => {
                let text: &str = text.as_ref();
                let text = if std::ptr::eq(piece, template.pieces.last().expect("a piece")) {
                    text.trim_end_matches(['\n', '\r'])
                } else {
                    text
                };
                for (at, run) in text.split('\n').enumerate() {
                    if at > 0 {
                        lines += 1;
                    }
                    if lines == 1 && head.is_none_or(|longest| run.len() > longest.len()) {
                        head = Some(run);
                    }
                }
                last_break_then_value = text.ends_with('\n');
            }
            Piece::Value { .. } => {}
        }
    }
    let open_end = last_break_then_value && matches!(template.pieces.last(), Some(Piece::Value { .. }));
    let head = head.map(|run| run.trim_end_matches('\r')).filter(|run| run.trim().len() >= SHORTEST_HEAD)?;
    (lines > 1).then_some((head, MessageLines { lines, open_end }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::Dialect;

    fn heads(messages: &[(&str, Dialect)]) -> MultiLineHeads {
        let templates: Vec<Template> =
            messages.iter().map(|(message, dialect)| Template::compile(message, *dialect).unwrap()).collect();
        MultiLineHeads::new(templates.iter())
    }

    #[test]
    fn a_template_with_inner_line_breaks_has_a_head() {
        let heads = heads(&[
            ("failed to load manifest for workspace member `{}`\nreferenced by workspace at `{}`", Dialect::Rust),
            ("'%s' is not a registered tag library. Must be one of:\n%s", Dialect::Python),
            ("disk full\n", Dialect::Go),
            ("%s\n%s", Dialect::Go),
        ]);
        let member = "error: failed to load manifest for workspace member `a/b`";
        assert_eq!(heads.lines_from(member), Some(MessageLines { lines: 2, open_end: false }));
        let library = "'x' is not a registered tag library. Must be one of:";
        assert_eq!(heads.lines_from(library), Some(MessageLines { lines: 2, open_end: true }));
        // A break that ends the message, and a first line of no literal, make no head.
        assert_eq!(heads.lines_from("disk full"), None);
        assert!(heads.any_in(member.as_bytes()));
        assert!(!heads.any_in(b"disk full\nreferenced by workspace"));
    }

    #[test]
    fn no_multi_line_template_no_search() {
        let heads = heads(&[("disk %s full", Dialect::Go)]);
        assert_eq!(heads.heads().count(), 0);
        assert!(!heads.any_in(b"disk / full\n  more"));
    }
}
