//! The multi-pattern matcher: which record does a message (or a log line
//! containing one) come from, and what are its field values?
//!
//! A literal prefilter over each template's longest literal piece (strided
//! 8-byte grams in a Bloom filter, Aho-Corasick for short pieces; see
//! `prefilter`) picks the candidate records whose literal occurs in the
//! input; templates without a usable piece are candidates of every line
//! (ranked last) or, for patterns of unknown literal text, found by one
//! regex set. Candidates are verified most specific first, and only until
//! one matches: without a regex where the template is literal text and
//! simple placeholders (`literal_match`), else with its own regex. Regexes
//! and the other per-template searchers are built on first use, so building
//! a matcher for thousands of records is cheap. Every step is linear in the
//! input (the `regex` crate guarantees it per pattern; the literal matcher
//! has a step budget), so no input takes super-linear time.

use std::cell::OnceCell;
use std::ops::Range;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::OnceLock;

use literal_match::{LiteralTemplate, Outcome};
use log_line::context_start;
#[cfg(test)]
use log_line::log_prefix_len;
pub use log_line::LogLevel;
pub(crate) use log_line::{log_prefix_ends, trim_line_break};
use memchr::memmem::Finder;
pub(crate) use multi_line::MessageLines;
use multi_line::MultiLineHeads;
use prefilter::Prefilter;
use regex::{Regex, RegexSet, RegexSetBuilder};
use scan_notes::ScanNotes;
use word_edges::WordEdges;

mod final_literal;
mod groups;
mod literal_match;
mod log_line;
mod multi_line;
mod prefilter;
mod resplit;
mod scan_notes;
mod word_edges;

use crate::format::{self, Dialect, Piece, Spec, Template};
use crate::model::Value;

/// Adds to `sets` one regex set of `regexes` (each one's template in
/// `owners`), or, when that set is beyond the regex crate's size limit,
/// sets of each half: one set too big must not leave every opaque template
/// unmatched.
fn regex_sets(regexes: &[String], owners: &[u32], sets: &mut Vec<(RegexSet, Vec<u32>)>) {
    match RegexSetBuilder::new(regexes).dfa_size_limit(OPAQUE_DFA_BYTES).build() {
        Ok(set) => sets.push((set, owners.to_vec())),
        Err(_) if regexes.len() > 1 => {
            let half = regexes.len() / 2;
            regex_sets(&regexes[..half], &owners[..half], sets);
            regex_sets(&regexes[half..], &owners[half..], sets);
        }
        // One regex that compiles alone: the set's limits are the same.
        Err(_) => {}
    }
}

/// The lazy DFA cache of the opaque templates' regex set: a set of many
/// wildcard-heavy patterns needs more states than the default 2 MiB before
/// the regex crate gives up on its DFA for a slower engine.
const OPAQUE_DFA_BYTES: usize = 32 << 20;

/// A record found in a message or line.
#[derive(Clone, Debug, PartialEq)]
pub struct Match<'h> {
    /// Index of the record in the catalog.
    pub index: usize,
    /// Byte range of the message in the searched text.
    pub span: Range<usize>,
    /// The field values, in field order.
    pub values: Vec<Value<'h>>,
}

impl Match<'_> {
    /// The match with its values copied out of the searched text.
    pub fn into_owned(self) -> Match<'static> {
        Match { index: self.index, span: self.span, values: self.values.into_iter().map(Value::into_owned).collect() }
    }

    /// [`span`](Self::span) as a range of `line`'s own bytes, when the text
    /// searched was `String::from_utf8_lossy(line)`: each U+FFFD there
    /// stands for the invalid bytes it replaced. (For a `line` that is
    /// UTF-8, the same range.)
    ///
    /// ```
    /// # use catalog_runtime::Catalog;
    /// let catalog = Catalog::load("../data/nats-io/nats-server").unwrap();
    /// let line = b"unable to persist session \"\xff\xfe\" (seq=1): timeout";
    /// let text = String::from_utf8_lossy(line);
    /// let found = catalog.find(&text).unwrap();
    /// assert_eq!(found.span, 0..text.len());
    /// assert_eq!(found.span_in_bytes(line), 0..line.len());
    /// ```
    pub fn span_in_bytes(&self, line: &[u8]) -> Range<usize> {
        // The offset in `line` of each offset in the lossy text.
        let original = |offset: usize| {
            let (mut lossy, mut original) = (0, 0);
            for chunk in line.utf8_chunks() {
                let valid = chunk.valid().len();
                if offset <= lossy + valid {
                    return original + offset - lossy;
                }
                lossy += valid + char::REPLACEMENT_CHARACTER.len_utf8();
                original += valid + chunk.invalid().len();
            }
            original
        };
        original(self.span.start)..original(self.span.end)
    }
}

/// The searchers of one template, each built on first use: a searcher is
/// costly to set up for every line, and most templates of a large catalog
/// are never candidates.
#[derive(Debug, Default)]
struct Searchers {
    find: OnceLock<Option<Regex>>,
    parse: OnceLock<Option<Regex>>,
    /// The template's literal text, in order, as runs without line breaks:
    /// a line lacking one of them in order cannot match, which is checked
    /// much faster than by the regex.
    runs: OnceLock<Box<[Finder<'static>]>>,
    /// The template matched without a regex (see
    /// [`crate::matcher::literal_match`]), if it can be.
    literal: OnceLock<Option<LiteralTemplate>>,
    /// Whether the template ends with literal text after a text value (see
    /// [`crate::matcher::final_literal`]).
    ends_with_text_then_literal: OnceLock<bool>,
    /// Whether the template ends with a text value, which runs to the end
    /// of the line or of the context after it (see [`find_regex`]).
    ends_with_open_value: OnceLock<bool>,
}

/// Matches messages against a set of templates. Ranking: the template with
/// the most literal characters wins; ties go to the lower index.
///
/// The matcher owns its items: plain [`Template`]s, or anything that holds
/// one, such as a catalog's [`Entry`](crate::Entry)s, so that a catalog keeps
/// one copy of each template.
#[derive(Debug)]
pub struct Matcher<I = Template> {
    items: Vec<I>,
    /// Each template's searchers, allocated when it is first a candidate:
    /// an empty cell is two words, so that setting up a matcher over
    /// thousands of templates writes little memory.
    searchers: Box<[OnceLock<Box<Searchers>>]>,
    /// The literals the prefilter looks for, the templates that require
    /// each, the other templates and the ranking: see [`Index`].
    index: Index,
    /// Built on first use (see [`Matcher::literals_in`]), over the index's
    /// literals and, numbered after them, the first-line literals of the
    /// multi-line templates (see [`Matcher::prefilter`]).
    prefilter: OnceLock<Prefilter>,
    /// Short texts looked up in the index's table of literals so far, the
    /// prefilter unbuilt.
    table_lookups: AtomicU32,
    /// The sets of the opaque templates' regexes (see [`Index`]), each with
    /// the template of each of its patterns.
    opaque_sets: OnceLock<Vec<(RegexSet, Vec<u32>)>>,
    /// The first-line literals of the templates whose message spans lines,
    /// built on first use (see [`multi_line`]).
    multi_line: OnceLock<MultiLineHeads>,
    /// For each prefilter literal, the word edges its hits must meet (see
    /// [`WordEdges::of_literal`]), built on first use: a one-word record
    /// (`consumer`) is then no candidate of the lines that hold a longer
    /// word (`consumers`), which verifying cost as much as the rest of a
    /// sparse scan.
    literal_edges: OnceLock<Box<[WordEdges]>>,
}

impl Matcher {
    /// Builds a matcher over `templates`; match indexes are positions in it.
    ///
    /// ```
    /// use catalog_runtime::{Dialect, Matcher, Template, Value};
    ///
    /// let templates = [
    ///     Template::compile("stream %s not found", Dialect::Go).unwrap(),
    ///     Template::compile("stream %s not found in account %q", Dialect::Go).unwrap(),
    /// ];
    /// let matcher = Matcher::new(&templates);
    /// // The most specific template (most literal text) wins.
    /// let found = matcher.parse(r#"stream ORDERS not found in account "A""#).unwrap();
    /// assert_eq!(found.index, 1);
    /// assert_eq!(found.values, [Value::Str("ORDERS".into()), Value::Str("A".into())]);
    /// // `find` looks inside a log line, after its prefix.
    /// let found = matcher.find("[7] 2026/11/29 17:20:00.123456 [WRN] stream X not found").unwrap();
    /// assert_eq!((found.index, found.span), (0, 37..55));
    /// ```
    pub fn new<'t>(templates: impl IntoIterator<Item = &'t Template>) -> Self {
        Matcher::from_items(templates.into_iter().cloned().collect())
    }
}

impl<I: AsRef<Template>> Matcher<I> {
    /// Builds a matcher over `items`, each holding a template; match indexes
    /// are positions in it.
    pub fn from_items(items: Vec<I>) -> Self {
        let index = Index::of(&items);
        Matcher::with_index(items, index)
    }

    /// The matcher over `items` whose index is `index`: [`Index::of`] them,
    /// computed before (by a build script, for a catalog compiled into a
    /// program: half of the start-up of 9,829 templates, measured).
    pub(crate) fn with_index(items: Vec<I>, index: Index) -> Self {
        // One that is not of these items (damaged bytes, another build's) is made anew.
        let index = if index.is_sound_for(items.len()) { index } else { Index::of(&items) };
        Matcher {
            searchers: (0..items.len()).map(|_| OnceLock::new()).collect(),
            index,
            items,
            prefilter: OnceLock::new(),
            table_lookups: AtomicU32::new(0),
            opaque_sets: OnceLock::new(),
            multi_line: OnceLock::new(),
            literal_edges: OnceLock::new(),
        }
    }

    /// See [`Matcher::literal_edges`](Self#structfield.literal_edges).
    fn literal_edges(&self) -> &[WordEdges] {
        self.literal_edges.get_or_init(|| {
            let literals = self.index.literal_ends.len();
            (0..literals)
                .map(|literal| {
                    let owners = self.index.owners_of(literal).iter().map(|&owner| self.template(owner as usize));
                    WordEdges::of_literal(self.index.literal(literal), owners)
                })
                .collect()
        })
    }

    /// The first-line literals of the multi-line templates.
    fn multi_line(&self) -> &MultiLineHeads {
        self.multi_line.get_or_init(|| MultiLineHeads::new(self.items.iter().map(AsRef::as_ref)))
    }

    /// Whether `text` may hold the first line of a message of several
    /// lines.
    pub(crate) fn may_start_multi_line(&self, text: &[u8]) -> bool {
        self.multi_line().any_in(text)
    }

    /// The lines a message of several lines that starts in `line` may
    /// take, when `line` holds the literal of such a template's first line.
    pub(crate) fn multi_line_from(&self, line: &str) -> Option<MessageLines> {
        self.multi_line().lines_from(line)
    }

    /// The items, in index order.
    pub fn items(&self) -> &[I] {
        &self.items
    }

    /// The index of the items (see [`Matcher::with_index`]).
    #[cfg(feature = "cache")]
    pub(crate) fn index(&self) -> &Index {
        &self.index
    }

    /// The items, taken back.
    pub fn into_items(self) -> Vec<I> {
        self.items
    }

    /// The prefilter, built on first use. It finds the first-line literals
    /// of the multi-line templates too, numbered after the index's own
    /// (see [`Matcher::is_head`]), so that a scan of plain lines tells in
    /// its own pass whether a chunk needs reading line by line, where a
    /// second search of the chunk for them alone cost as much as a tenth of
    /// a sparse scan with every dataset embedded (measured).
    fn prefilter(&self) -> &Prefilter {
        self.prefilter.get_or_init(|| {
            let mut literals = self.index.literals();
            literals.extend(self.multi_line().heads());
            Prefilter::new(&literals)
        })
    }

    /// Whether prefilter literal `literal` is a multi-line template's
    /// first-line literal rather than one of the index's (which no template
    /// requires as such: see [`Matcher::prefilter`]).
    fn is_head(&self, literal: usize) -> bool {
        literal >= self.index.literal_ends.len()
    }

    /// Calls `hit(literal)` for every occurrence in `text` of every
    /// prefilter literal. Setting the prefilter up for thousands of
    /// literals takes milliseconds, a good part of a start-up that may
    /// match a single message (`errcat explain`); so the first short texts
    /// are looked up in the index's sorted table of the literals instead
    /// (see [`Index::for_each_literal_in`]), and the prefilter is built
    /// once texts are long or many. Both find exactly the occurrences, so
    /// the candidates are the same either way.
    fn literals_in(&self, text: &str, mut hit: impl FnMut(usize)) {
        let prefilter = match self.prefilter.get() {
            Some(prefilter) => prefilter,
            None if text.len() <= SHORT_TEXT && self.table_lookups.fetch_add(1, Ordering::Relaxed) < TABLE_LOOKUPS => {
                return self.index.for_each_literal_in(text, hit);
            }
            None => self.prefilter(),
        };
        prefilter.for_each(text, |_, literal| {
            if !self.is_head(literal) {
                hit(literal)
            }
        });
    }

    /// Template `index`'s searchers.
    fn searchers(&self, index: usize) -> &Searchers {
        self.searchers[index].get_or_init(Box::default)
    }

    /// Template `index`.
    fn template(&self, index: usize) -> &Template {
        self.items[index].as_ref()
    }

    /// The best record for a whole message.
    pub fn parse<'h>(&self, message: &'h str) -> Option<Match<'h>> {
        self.parse_map(message, Some)
    }

    /// The best record for a message inside `line` (a log line with a
    /// timestamp or level prefix, say). A trailing line break is ignored.
    pub fn find<'h>(&self, line: &'h str) -> Option<Match<'h>> {
        self.find_map(line, Some)
    }

    /// Like [`parse`](Self::parse), but the best match that `accept` turns
    /// into `Some` wins (a typed enum rejects values its fields cannot hold).
    pub fn parse_map<'h, T>(&self, message: &'h str, mut accept: impl FnMut(Match<'h>) -> Option<T>) -> Option<T> {
        let candidates = self.candidates(message);
        let mut viable = candidates.into_iter().filter(|&index| self.holds_runs(index, message));
        viable.find_map(|index| self.try_parse(index as usize, message).and_then(&mut accept))
    }

    /// Like [`find`](Self::find), with an `accept` step as in [`parse_map`](Self::parse_map).
    pub fn find_map<'h, T>(&self, line: &'h str, accept: impl FnMut(Match<'h>) -> Option<T>) -> Option<T> {
        self.find_in_trimmed(trim_line_break(line), accept)
    }

    /// [`find_map`](Self::find_map) on a line without its line break.
    fn find_in_trimmed<'h, T>(&self, line: &'h str, accept: impl FnMut(Match<'h>) -> Option<T>) -> Option<T> {
        let candidates = self.candidates(line);
        self.first_in_line(&candidates, line, accept)
    }

    /// The first of the `ranked` candidates (in ranking order) that matches
    /// in `line` and that `accept` takes. The best wins, so the candidates
    /// after it are never looked at; the log prefix is only read once a
    /// candidate holds its literal runs.
    fn first_in_line<'h, T>(
        &self,
        ranked: &[u32],
        line: &'h str,
        mut accept: impl FnMut(Match<'h>) -> Option<T>,
    ) -> Option<T> {
        let mut frame = None;
        ranked.iter().find_map(|&index| {
            if !self.viable(index, line) {
                return None;
            }
            let frame = frame.get_or_insert_with(|| LineFrame::of(line));
            self.try_find_after_prefix(index as usize, line, frame).and_then(&mut accept)
        })
    }

    /// [`try_find_after`](Self::try_find_after) after the whole log prefix,
    /// else after the prefix without its level and exception head (see
    /// [`log_prefix_ends`]), else, for a message that begins with a
    /// placeholder, at the line's start: what looked like a prefix may be its value (a timestamp in
    /// `2026-03-29 02:30:00 couldn’t be interpreted ...`, whose literal
    /// begins with the space the prefix took). A message that ends with a
    /// text value is looked for before the line's context first (see
    /// [`context_start`]), then in the whole line.
    fn try_find_after_prefix<'h>(&self, index: usize, line: &'h str, frame: &LineFrame) -> Option<Match<'h>> {
        let template = self.template(index);
        let ends_with_open_value =
            *self.searchers(index).ends_with_open_value.get_or_init(|| ends_with_open_value(template));
        let after = |start: usize| {
            let context_start = if ends_with_open_value { frame.context_start(line) } else { line.len() };
            let before_context = (start + 1..line.len()).contains(&context_start);
            let found = before_context.then(|| self.try_find_after(index, &line[..context_start], start));
            found.flatten().or_else(|| self.try_find_after(index, line, start))
        };
        let after_shorter_prefix = |before_level: usize| {
            may_begin_within(template, line, before_level..frame.start).then(|| after(before_level)).flatten()
        };
        after(frame.start).or_else(|| frame.before_level.and_then(after_shorter_prefix)).or_else(|| {
            let starts_with_value = matches!(template.pieces.first(), Some(Piece::Value { .. }));
            let retry = frame.start > 0 && starts_with_value && may_begin_within(template, line, 0..frame.start);
            retry.then(|| after(0)).flatten()
        })
    }

    /// Every record that matches inside `line`, best first.
    pub fn find_all<'h>(&self, line: &'h str) -> Vec<Match<'h>> {
        let line = trim_line_break(line);
        let mut viable = self.candidates(line);
        viable.retain(|&index| self.viable(index, line));
        let frame = if viable.is_empty() { LineFrame::whole(line) } else { LineFrame::of(line) };
        viable.into_iter().filter_map(|index| self.try_find_after_prefix(index as usize, line, &frame)).collect()
    }

    /// Whether template `index` matches the whole message, and its values.
    fn try_parse<'h>(&self, index: usize, message: &'h str) -> Option<Match<'h>> {
        let template = self.template(index);
        let regex = self.searchers(index).parse.get_or_init(|| Regex::new(&format!("^(?s:{})$", template.regex)).ok());
        let captures = regex.as_ref()?.captures(message)?;
        let values =
            extract(template, &captures).or_else(|| Some(resplit::values(template, message, true, false)?.1))?;
        Some(Match { index, span: 0..message.len(), values })
    }

    /// Whether template `index` occurs in `line` after its log prefix of
    /// `start` bytes (a `[pid]`, a timestamp, a level), and its values; a
    /// message that begins with a placeholder must begin right there.
    fn try_find_after<'h>(&self, index: usize, line: &'h str, start: usize) -> Option<Match<'h>> {
        let rest = &line[start..];
        let (span, spans) = match self.split(index, rest)? {
            Ok(split) => split,
            Err(from) => {
                let (span, values) = self.resplit(index, rest, from)?;
                return Some(Match { index, span: span.start + start..span.end + start, values });
            }
        };
        let (span, values) = self.reading(index, rest, span, spans)?;
        Some(Match { index, span: span.start + start..span.end + start, values })
    }

    /// Where template `index` is in `rest` and each of its placeholders
    /// (the leftmost, shortest split), or `Err(start)` when the regex found
    /// a message at `start` with a group that took part in no match (a
    /// pattern's): that leaves no text to read a value from, another split
    /// may have one (see [`resplit`]).
    #[allow(clippy::type_complexity)]
    fn split(&self, index: usize, rest: &str) -> Option<Result<(Range<usize>, Vec<Range<usize>>), usize>> {
        let template = self.template(index);
        if let Some(literal) = self.searchers(index).literal.get_or_init(|| LiteralTemplate::new(template)) {
            match literal.find(rest) {
                Outcome::Match(span, spans) => return Some(Ok((span, spans))),
                Outcome::NoMatch => return None,
                Outcome::Undecided => {}
            }
        }
        let regex = self.searchers(index).find.get_or_init(|| Regex::new(&find_regex(template)).ok()).as_ref()?;
        // Most candidates that reach this point still fail; `is_match` (a DFA)
        // rejects them far faster than a search for capture groups.
        if !regex.is_match(rest) {
            return None;
        }
        let captures = regex.captures(rest)?;
        let whole = captures.get(0).map_or(0..0, |m| m.range());
        let spans: Option<Vec<Range<usize>>> = (1..captures.len()).map(|g| Some(captures.get(g)?.range())).collect();
        let start = whole.start;
        Some(spans.map(|spans| (whole, spans)).ok_or(start))
    }

    /// Where each placeholder of template `index` is in `message`, the text
    /// of one of its matches: the split [`find`](Self::find) reads, with the
    /// last literal placed where the message ends; `None` when the values
    /// came from another split. The searchers the match built are reused,
    /// so this costs a second look at the message, no regex compiled; the
    /// caller checks that the spans read the match's values.
    pub(crate) fn placeholder_spans(&self, index: usize, message: &str) -> Option<Vec<Range<usize>>> {
        let (_, mut spans) = self.split(index, message)?.ok()?;
        let template = self.template(index);
        let placed = self
            .searchers(index)
            .ends_with_text_then_literal
            .get_or_init(|| final_literal::ends_with_text_then_literal(template));
        if let (true, Some(last)) = (*placed, spans.last_mut()) {
            last.end = final_literal::last_value_end(message, last.end, final_literal::last_literal(template));
        }
        Some(spans)
    }

    /// The message found at `span` in `rest` with its placeholders at
    /// `spans` (the leftmost, shortest reading), and its values: with its
    /// last literal placed where the message ends (see
    /// [`final_literal`]), else as found, else another split whose values
    /// agree (see [`resplit`]).
    fn reading<'h>(
        &self,
        index: usize,
        rest: &'h str,
        span: Range<usize>,
        mut spans: Vec<Range<usize>>,
    ) -> Option<(Range<usize>, Vec<Value<'h>>)> {
        let template = self.template(index);
        let texts = |spans: &[Range<usize>]| spans.iter().map(|s| &rest[s.clone()]).collect();
        let placed = self
            .searchers(index)
            .ends_with_text_then_literal
            .get_or_init(|| final_literal::ends_with_text_then_literal(template));
        if let (true, Some(last)) = (*placed, spans.last().cloned()) {
            let end = final_literal::last_value_end(rest, last.end, final_literal::last_literal(template));
            if end != last.end {
                let placed_last = spans.len() - 1;
                spans[placed_last].end = end;
                if let Some(values) = values_of(template, texts(&spans)) {
                    return Some((span.start..span.end + (end - last.end), values));
                }
                spans[placed_last].end = last.end;
            }
        }
        // The spans' room holds their texts (a collect in place: no allocation).
        match values_of(template, spans.into_iter().map(|s| &rest[s]).collect()) {
            Some(values) => Some((span, values)),
            None => self.resplit(index, rest, span.start),
        }
    }

    /// Another split of the message that starts at `from` in `rest`, when
    /// the regex's own split gives values that disagree or do not parse (a
    /// text argument rendered twice, a number followed by literal digits).
    fn resplit<'h>(&self, index: usize, rest: &'h str, from: usize) -> Option<(Range<usize>, Vec<Value<'h>>)> {
        let template = self.template(index);
        let anchored_end = find_regex(template).ends_with('$');
        let (end, values) = resplit::values(template, &rest[from..], anchored_end, true)?;
        Some((from..from + end, values))
    }

    /// The best match of every line of `text` that has one, in line order:
    /// the same results as [`find`](Self::find) on each line, but the literal
    /// prefilter runs over the whole buffer, so lines that contain no
    /// template's literal (most lines of most logs) cost nothing more.
    /// `each` gets the line's byte range in `text` (without its line break)
    /// and the match, whose span is relative to the line.
    ///
    /// ```
    /// # use catalog_runtime::{Dialect, Matcher, Template};
    /// let template = Template::compile("disk %s full", Dialect::Go).unwrap();
    /// let matcher = Matcher::new([&template]);
    /// let log = "ok\nwarn: disk /var full\nok\ndisk /tmp full\n";
    /// let mut found = Vec::new();
    /// matcher.find_lines(log, |line, m| found.push((&log[line], m.values[0].to_string())));
    /// assert_eq!(found, [("warn: disk /var full", "/var".to_owned()), ("disk /tmp full", "/tmp".to_owned())]);
    /// ```
    pub fn find_lines<'h>(&self, text: &'h str, mut each: impl FnMut(Range<usize>, Match<'h>)) {
        self.find_numbered_lines(text, |_, range, found| each(range, found));
    }

    /// [`find_lines`](Self::find_lines), with each line's number as well
    /// (the line breaks before it in `text`), and the number of line breaks
    /// in `text` returned: the prefilter counts them in its own pass over
    /// the text (where the CPU has AVX2), so a caller that numbers lines
    /// need not read the text once more.
    ///
    /// ```
    /// # use catalog_runtime::{Dialect, Matcher, Template};
    /// let template = Template::compile("disk %s full", Dialect::Go).unwrap();
    /// let matcher = Matcher::new([&template]);
    /// let log = "ok\nwarn: disk /var full\nok\ndisk /tmp full\nok";
    /// let mut found = Vec::new();
    /// let line_breaks = matcher.find_numbered_lines(log, |number, _, m| found.push((number, m.values[0].to_string())));
    /// assert_eq!(found, [(1, "/var".to_owned()), (3, "/tmp".to_owned())]);
    /// assert_eq!(line_breaks, 4);
    /// ```
    pub fn find_numbered_lines<'h>(&self, text: &'h str, each: impl FnMut(usize, Range<usize>, Match<'h>)) -> usize {
        self.numbered_lines(Text::Str(text), false, each).expect("a str is UTF-8")
    }

    /// [`find_numbered_lines`](Self::find_numbered_lines) on bytes, which
    /// are checked to be UTF-8 on the way: the prefilter's AVX2 pass tests
    /// whether they are all ASCII, so a full check is left only for text
    /// with other bytes (or where that pass does not run), and each line
    /// with candidates is checked on its own. `None` when the bytes are not
    /// UTF-8; `each` may have been called for some lines by then, whose
    /// matches the caller drops.
    ///
    /// ```
    /// # use catalog_runtime::{Dialect, Matcher, Template};
    /// let template = Template::compile("disk %s full", Dialect::Go).unwrap();
    /// let matcher = Matcher::new([&template]);
    /// assert_eq!(matcher.find_numbered_lines_in(b"ok\ndisk /var full\n", |_, _, _| {}), Some(2));
    /// assert_eq!(matcher.find_numbered_lines_in(b"ok\xff\ndisk /var full\n", |_, _, _| {}), None);
    /// ```
    pub fn find_numbered_lines_in<'h>(
        &self,
        bytes: &'h [u8],
        each: impl FnMut(usize, Range<usize>, Match<'h>),
    ) -> Option<usize> {
        self.numbered_lines(Text::Bytes(bytes), false, each)
    }

    /// [`find_numbered_lines_in`](Self::find_numbered_lines_in), `None` also
    /// when `bytes` may hold the first line of a multi-line template's
    /// message (which only reading line by line finds whole): what a scan of
    /// plain lines does with a chunk.
    pub(crate) fn find_numbered_lines_unless_multi_line<'h>(
        &self,
        bytes: &'h [u8],
        each: impl FnMut(usize, Range<usize>, Match<'h>),
    ) -> Option<usize> {
        self.numbered_lines(Text::Bytes(bytes), true, each)
    }

    /// All of the above; with `unless_multi_line`, `None` when a multi-line
    /// template's first-line literal occurs.
    fn numbered_lines<'h>(
        &self,
        text: Text<'h>,
        unless_multi_line: bool,
        mut each: impl FnMut(usize, Range<usize>, Match<'h>),
    ) -> Option<usize> {
        let bytes = text.bytes();
        if !self.index.unfiltered.is_empty() || !self.index.opaque.is_empty() {
            if unless_multi_line && self.may_start_multi_line(bytes) {
                return None;
            }
            // Some template can match any line: every line is a candidate.
            let text = text.line(0..bytes.len())?;
            let (mut start, mut number) = (0, 0);
            for line in text.split_inclusive('\n') {
                let trimmed = trim_line_break(line);
                if let Some(found) = self.find_in_trimmed(trimmed, Some) {
                    each(number, start..start + trimmed.len(), found);
                }
                start += line.len();
                number += usize::from(line.ends_with('\n'));
            }
            return Some(number);
        }
        let mut line: Option<(usize, Range<usize>)> = None;
        let mut found: Vec<u32> = Vec::new();
        let mut valid = true;
        let mut head_seen = false;
        let mut notes = ScanNotes::new(bytes);
        let (edges, ends) = (self.literal_edges(), &self.index.literal_ends);
        self.prefilter().for_each_counting(bytes, &mut notes, |notes, at, literal| {
            if head_seen || self.is_head(literal) {
                // The chunk is given back whole: nothing more to look at.
                head_seen |= unless_multi_line;
                return;
            }
            let bound = edges[literal];
            if (bound.start || bound.end) && !bound.may_hold(bytes, at, at + groups::range(ends, literal).len()) {
                return;
            }
            match &line {
                Some((_, current)) if at < current.end => {}
                current => {
                    if let Some((number, done)) = current.clone() {
                        valid &= self.best_in_line(text, done, &mut found, &mut |range, m| each(number, range, m));
                    }
                    let start = memchr::memrchr(b'\n', &bytes[..at]).map_or(0, |i| i + 1);
                    let end = memchr::memchr(b'\n', &bytes[at..]).map_or(bytes.len(), |i| at + i);
                    line = Some((notes.line_breaks_before(start), start..end));
                }
            }
            found.extend_from_slice(self.index.owners_of(literal));
        });
        if head_seen {
            return None;
        }
        if let Some((number, done)) = line {
            valid &= self.best_in_line(text, done, &mut found, &mut |range, m| each(number, range, m));
        }
        // What the scan saw to be ASCII needs no check: the rest starts on
        // a character boundary then.
        let checked = valid && text.line(notes.ascii_prefix()..bytes.len()).is_some();
        checked.then(|| notes.line_breaks_before(bytes.len()))
    }

    /// Verifies the candidates `found` of the line at `range`, best first;
    /// drains `found`. False when the line is not UTF-8.
    fn best_in_line<'h>(
        &self,
        text: Text<'h>,
        range: Range<usize>,
        found: &mut Vec<u32>,
        each: &mut impl FnMut(Range<usize>, Match<'h>),
    ) -> bool {
        let Some(line) = text.line(range.clone()) else {
            found.clear();
            return false;
        };
        let line = trim_line_break(line);
        let range = range.start..range.start + line.len();
        self.rank(found);
        if let Some(m) = self.first_in_line(found, line, Some) {
            each(range, m);
        }
        found.clear();
        true
    }

    /// Calls `hit(start, end, literal)` for every occurrence in `text` of
    /// a prefilter literal, all the occurrences within one line before
    /// those of later lines; `false` (and no call) when some template is a
    /// candidate of lines that hold no literal (see [`Index::unfiltered`]),
    /// so that the occurrences cannot tell which lines may match.
    pub(crate) fn for_each_literal(&self, text: &str, hit: impl FnMut(usize, usize, usize)) -> bool {
        self.for_each_literal_noting(text.as_bytes(), &mut ScanNotes::new(text.as_bytes()), hit)
    }

    /// [`for_each_literal`](Self::for_each_literal) in bytes, and then the
    /// length of a prefix of `text` that the prefilter's pass saw to be
    /// ASCII (see [`ScanNotes`]): `None` when the literals cannot tell.
    pub(crate) fn for_each_literal_in_bytes(&self, text: &[u8], hit: impl FnMut(usize, usize, usize)) -> Option<usize> {
        let mut notes = ScanNotes::new(text);
        self.for_each_literal_noting(text, &mut notes, hit).then(|| notes.ascii_prefix())
    }

    fn for_each_literal_noting<'t>(
        &self,
        text: &'t [u8],
        notes: &mut ScanNotes<'t>,
        mut hit: impl FnMut(usize, usize, usize),
    ) -> bool {
        if !self.index.unfiltered.is_empty() || !self.index.opaque.is_empty() {
            return false;
        }
        if !self.index.literal_ends.is_empty() {
            let ends = &self.index.literal_ends;
            self.prefilter().for_each_counting(text, notes, |_, start, literal| {
                if !self.is_head(literal) {
                    hit(start, start + groups::range(ends, literal).len(), literal);
                }
            });
        }
        true
    }

    /// What [`find`](Self::find) gives for `message` (without a line
    /// break), given `literals`: prefilter literals that include every one
    /// occurring in `message` (as [`for_each_literal`](Self::for_each_literal)
    /// reports them in a text holding it), when that can tell. Others may
    /// be among them: their templates are looked at in vain, as none
    /// matches without its literal. `found` is room for the candidates.
    pub(crate) fn find_among<'h>(
        &self,
        message: &'h str,
        literals: impl IntoIterator<Item = usize>,
        found: &mut Vec<u32>,
    ) -> Option<Match<'h>> {
        debug_assert!(self.index.unfiltered.is_empty() && self.index.opaque.is_empty());
        found.clear();
        for literal in literals {
            found.extend_from_slice(self.index.owners_of(literal));
        }
        self.rank(found);
        self.first_in_line(found, message, Some)
    }

    /// Which bytes occur in the prefilter's literals (`[b]` for byte `b`).
    pub(crate) fn literal_bytes(&self) -> &[bool; 256] {
        &self.index.literal_bytes
    }

    /// Templates whose required literal occurs in `text`, in ranking order.
    fn candidates(&self, text: &str) -> Vec<u32> {
        let mut found: Vec<u32> = self.index.unfiltered.clone();
        self.literals_in(text, |literal| found.extend_from_slice(self.index.owners_of(literal)));
        for (set, owners) in self.opaque_sets() {
            found.extend(set.matches(text).iter().map(|i| owners[i]));
        }
        self.rank(&mut found);
        found
    }

    /// The regex sets of the opaque templates' find regexes, without their
    /// start anchors: they run on the whole line, before the log prefix is
    /// known, so they may report a template that then fails, never miss one.
    fn opaque_sets(&self) -> &[(RegexSet, Vec<u32>)] {
        if self.index.opaque.is_empty() {
            return &[];
        }
        self.opaque_sets.get_or_init(|| {
            let mut regexes = Vec::new();
            let mut owners = Vec::new();
            for &index in &self.index.opaque {
                let regex = find_regex(self.template(index as usize));
                let regex = regex.strip_prefix('^').map(str::to_owned).unwrap_or(regex);
                // A template whose regex does not compile never matches.
                if Regex::new(&regex).is_ok() {
                    regexes.push(regex);
                    owners.push(index);
                }
            }
            let mut sets = Vec::new();
            regex_sets(&regexes, &owners, &mut sets);
            sets
        })
    }

    /// Sorts `found` in ranking order without repeats.
    fn rank(&self, found: &mut Vec<u32>) {
        found.sort_unstable_by_key(|&i| self.index.rank[i as usize]);
        found.dedup();
    }

    /// Whether template `index` may match in `text`: most candidates hold
    /// a literal by chance, and a few substring searches reject them before
    /// any log prefix or regex work. A template matched without a regex
    /// searches its literals itself: checking them first would search twice.
    fn viable(&self, index: u32, text: &str) -> bool {
        let template = self.template(index as usize);
        self.searchers(index as usize).literal.get_or_init(|| LiteralTemplate::new(template)).is_some()
            || self.holds_runs(index, text)
    }

    /// Whether `text` holds template `index`'s literal runs, in order.
    fn holds_runs(&self, index: u32, text: &str) -> bool {
        let index = index as usize;
        runs_in_order(self.searchers(index).runs.get_or_init(|| literal_runs(self.template(index))), text)
    }
}

/// What building a matcher derives from its templates, apart from them:
/// which literal the prefilter looks for on behalf of which templates, and
/// the ranking.
#[derive(Debug, PartialEq)]
#[cfg_attr(feature = "cache", derive(serde::Serialize, serde::Deserialize))]
pub(crate) struct Index {
    /// The prefilter's literals (each once), one after the other; literal
    /// `l` ends at `literal_ends[l]` (see [`groups`]).
    literal_text: String,
    literal_ends: Vec<u32>,
    /// For each literal, its first four bytes ([`prefix`]) in the high half
    /// and its number in the low half, sorted: the literals that may start
    /// at a position of a text are one run of it. It finds them in a short
    /// text with no set-up (see [`Index::for_each_literal_in`]).
    by_prefix: Vec<u64>,
    /// For each literal `l`, the templates that require it, in index order:
    /// group `l` of `owners`, which ends at `owner_ends[l]` (see [`groups`]).
    owner_ends: Vec<u32>,
    owners: Vec<u32>,
    /// Templates whose literal runs are all shorter than the prefilter's
    /// grams (`%v: %v`, a pattern's `(.*?) to (.*?)`): candidates of every
    /// line that holds their runs in order. Ranked last, they are only
    /// verified on lines that no more literal template matches.
    unfiltered: Vec<u32>,
    /// Templates whose literal text is not known (a `messagePattern` that is
    /// not a plain sequence of literals and groups): one regex set, built
    /// on first use, tells which of them match a line, so that they are
    /// never tried one by one.
    opaque: Vec<u32>,
    /// Position of each template in ranking order.
    rank: Vec<u32>,
    /// Which bytes occur in the literals (`[b]` for byte `b`).
    // Not serialized (serde has no arrays this long): read back from the
    // literals' text by `deserialize`.
    #[cfg_attr(feature = "cache", serde(skip, default = "no_bytes"))]
    literal_bytes: [bool; 256],
}

#[cfg(feature = "cache")]
fn no_bytes() -> [bool; 256] {
    [false; 256]
}

/// Which bytes occur in `text` (`[b]` for byte `b`).
fn bytes_of(text: &str) -> [bool; 256] {
    let mut bytes = [false; 256];
    for &byte in text.as_bytes() {
        bytes[usize::from(byte)] = true;
    }
    bytes
}

impl Index {
    /// The index of `templates`.
    fn of<I: AsRef<Template>>(templates: &[I]) -> Index {
        let mut required: Vec<(&str, u32)> = Vec::with_capacity(templates.len());
        let mut unfiltered = Vec::new();
        let mut opaque = Vec::new();
        for (index, template) in templates.iter().enumerate() {
            let index = index as u32;
            let template = template.as_ref();
            match required_literal(template) {
                Some(literal) if literal.len() >= prefilter::MIN_LITERAL => required.push((literal, index)),
                _ if template.dialect == Dialect::Pattern && !format::pieces_describe_regex(template) => {
                    opaque.push(index)
                }
                _ => unfiltered.push(index),
            }
        }
        // The templates of each literal, grouped by sorting rather than in a
        // hash map of the literals (which took more time than the rest of
        // the index at 5,110 templates, measured); the literals are numbered
        // in the order of their first template.
        required.sort_unstable();
        let mut by_literal: Vec<&[(&str, u32)]> = required.chunk_by(|a, b| a.0 == b.0).collect();
        by_literal.sort_unstable_by_key(|owners| owners[0].1);
        let literals: Vec<&str> = by_literal.iter().map(|owners| owners[0].0).collect();
        let mut order: Vec<u32> = (0..templates.len() as u32).collect();
        order.sort_unstable_by_key(|&i| (std::cmp::Reverse(templates[i as usize].as_ref().literal_len), i));
        let mut rank = vec![0; templates.len()];
        for (position, &index) in order.iter().enumerate() {
            rank[index as usize] = position as u32;
        }
        let mut by_prefix: Vec<u64> = (literals.iter().enumerate())
            .map(|(number, literal)| (u64::from(prefix(literal.as_bytes())) << 32) | number as u64)
            .collect();
        by_prefix.sort_unstable();
        let literal_ends = groups::ends(literals.iter().map(|literal| literal.len()));
        let literal_text = literals.concat();
        let literal_bytes = bytes_of(&literal_text);
        let owner_ends = groups::ends(by_literal.iter().map(|owners| owners.len()));
        let owners = by_literal.iter().flat_map(|owners| owners.iter().map(|&(_, index)| index)).collect();
        Index { literal_text, literal_ends, by_prefix, owner_ends, owners, unfiltered, opaque, rank, literal_bytes }
    }

    /// The index that [`Index::serialize`] wrote, its literal bytes read
    /// back from its literals.
    #[cfg(feature = "cache")]
    pub(crate) fn deserialize_whole<'de, D: serde::Deserializer<'de>>(deserializer: D) -> Result<Index, D::Error> {
        let index = <Index as serde::Deserialize>::deserialize(deserializer)?;
        Ok(Index { literal_bytes: bytes_of(&index.literal_text), ..index })
    }

    /// Whether the index can be one of `templates` templates: every number
    /// in it in range, every group inside its list, every literal long
    /// enough for the prefilter and cut at character boundaries. An index
    /// read from bytes is used only so, so that no bytes make a lookup
    /// panic; one that passes is of the templates when the bytes are (their
    /// checksum tells).
    fn is_sound_for(&self, templates: usize) -> bool {
        let in_range = |numbers: &[u32], bound: usize| numbers.iter().all(|&number| (number as usize) < bound);
        let groups_end_at = |ends: &[u32], len: usize| {
            ends.windows(2).all(|pair| pair[0] <= pair[1]) && ends.last().map_or(0, |&end| end as usize) == len
        };
        let literals = self.literal_ends.len();
        let mut start = 0;
        let literals_sound = self.literal_ends.iter().all(|&end| {
            let (from, end) = (start, end as usize);
            start = end;
            end >= from + prefilter::MIN_LITERAL && self.literal_text.get(from..end).is_some()
        });
        self.rank.len() == templates
            && in_range(&self.rank, templates)
            && in_range(&self.owners, templates)
            && in_range(&self.unfiltered, templates)
            && in_range(&self.opaque, templates)
            && literals_sound
            && start == self.literal_text.len()
            && self.owner_ends.len() == literals
            && groups_end_at(&self.owner_ends, self.owners.len())
            && self.by_prefix.len() == literals
            && self.by_prefix.windows(2).all(|pair| pair[0] <= pair[1])
            && self.by_prefix.iter().all(|&entry| ((entry & u64::from(u32::MAX)) as usize) < literals)
    }

    /// Prefilter literal `literal`.
    fn literal(&self, literal: usize) -> &str {
        &self.literal_text[groups::range(&self.literal_ends, literal)]
    }

    /// The prefilter's literals, in order.
    fn literals(&self) -> Vec<&str> {
        (0..self.literal_ends.len()).map(|literal| self.literal(literal)).collect()
    }

    /// Calls `hit(literal)` for every occurrence of every prefilter literal
    /// in `text`, found with the table of [`Index::by_prefix`].
    fn for_each_literal_in(&self, text: &str, mut hit: impl FnMut(usize)) {
        let bytes = text.as_bytes();
        for start in 0..bytes.len().saturating_sub(3) {
            let key = u64::from(prefix(&bytes[start..]));
            let first = self.by_prefix.partition_point(|&entry| entry >> 32 < key);
            for &entry in self.by_prefix[first..].iter().take_while(|&&entry| entry >> 32 == key) {
                let literal = (entry & u64::from(u32::MAX)) as usize;
                if bytes[start..].starts_with(self.literal(literal).as_bytes()) {
                    hit(literal);
                }
            }
        }
    }

    /// The templates that require prefilter literal `literal`.
    fn owners_of(&self, literal: usize) -> &[u32] {
        &self.owners[groups::range(&self.owner_ends, literal)]
    }
}

/// The text of a buffer scan: a `str`, or bytes not yet known to be UTF-8.
#[derive(Clone, Copy)]
enum Text<'h> {
    Str(&'h str),
    Bytes(&'h [u8]),
}

impl<'h> Text<'h> {
    fn bytes(self) -> &'h [u8] {
        match self {
            Text::Str(text) => text.as_bytes(),
            Text::Bytes(bytes) => bytes,
        }
    }

    /// The text in `range`, which starts and ends at line breaks or the
    /// text's ends (character boundaries of a `str`), if it is UTF-8: a
    /// `str`'s is sliced, bytes are checked.
    fn line(self, range: Range<usize>) -> Option<&'h str> {
        match self {
            Text::Str(text) => Some(&text[range]),
            Text::Bytes(bytes) => std::str::from_utf8(&bytes[range]).ok(),
        }
    }
}

/// The texts looked up without the prefilter are at most this long; a
/// longer one is worth the prefilter's set-up (see [`Matcher::literals_in`]).
const SHORT_TEXT: usize = 4096;

/// Short texts looked up without the prefilter before it is built: a
/// lookup costs a binary search per byte of the text, so after about this
/// many the prefilter's set-up has paid for itself (a caller matching line
/// after line).
const TABLE_LOOKUPS: u32 = 1024;

// The table of [`Index::by_prefix`] looks literals up by their first four bytes.
const _: () = assert!(prefilter::MIN_LITERAL >= 4);

/// The first four bytes of `bytes` (at least four), little-endian.
fn prefix(bytes: &[u8]) -> u32 {
    u32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]])
}

/// A template's literal text as runs without line breaks, in order (only
/// for templates whose pieces describe their regex).
fn literal_runs(template: &Template) -> Box<[Finder<'static>]> {
    if template.dialect == Dialect::Pattern && !format::pieces_describe_regex(template) {
        return Box::default();
    }
    let literals = template.pieces.iter().filter_map(|piece| match piece {
        Piece::Literal(text) => Some(text.as_ref()),
        Piece::Value { .. } => None,
    });
    literals
        .flat_map(|text| text.split(['\n', '\r']))
        .filter(|run| !run.is_empty())
        .map(|run| Finder::new(run).into_owned())
        .collect()
}

/// Whether every run occurs in `text`, each after the previous one.
fn runs_in_order(runs: &[Finder<'static>], text: &str) -> bool {
    let mut at = 0;
    for run in runs {
        match run.find(&text.as_bytes()[at..]) {
            Some(found) => at += found + run.needle().len(),
            None => return false,
        }
    }
    true
}

/// The longest run of literal text within a line: any rendered message
/// contains it. Line breaks split runs, since lines are matched without them.
/// `None` for templates whose pieces do not describe the regex (see
/// `format::compile_pattern`) or that have no literal text.
fn required_literal(template: &Template) -> Option<&str> {
    if template.dialect == Dialect::Pattern && !format::pieces_describe_regex(template) {
        return None;
    }
    template
        .pieces
        .iter()
        .filter_map(|piece| match piece {
            Piece::Literal(text) => Some(text.as_ref()),
            Piece::Value { .. } => None,
        })
        .flat_map(|text| text.split(['\n', '\r']))
        .filter(|run| !run.is_empty())
        .max_by_key(|run| run.len())
}

/// The regex that finds a message inside a line (after its log prefix).
///
/// Context may follow a message (`... - User "alice"`, a closing `]`, a
/// logger's ` (kafka.server.ReplicaManager)`): a message that ends with
/// literal text or a placeholder that ends by itself (a quoted string, an
/// integer, a float...) is found wherever it is (its last literal after a
/// text value is then moved to where the message ends: see
/// [`final_literal`]). One that ends with a text
/// placeholder takes the rest of the line (its lazy regex would otherwise
/// capture nothing), as does one that ends with a line break (Go's
/// `"...\n"` log formats: the line's break has been trimmed). One that
/// begins with a placeholder starts where the log prefix ends (or a leading
/// placeholder would swallow the prefix). One that begins or ends with a
/// word character starts or ends at a word edge (see [`word_edges`]).
///
/// Of all records that match a part of a line, the most literal wins
/// (ranking, see [`Matcher`]): in `... [PUBLISH wildcards not allowed in
/// publish's topic: "sensors/+/temp"]`, the record `wildcards not allowed
/// in publish's topic: %q`, not the two-word `not allowed`.
pub(crate) fn find_regex(template: &Template) -> String {
    let starts_with_value = matches!(template.pieces.first(), Some(Piece::Value { .. }));
    let ends_with_value = ends_with_open_value(template);
    let ends_with_break = matches!(template.pieces.last(), Some(Piece::Literal(text)) if text.ends_with(['\n', '\r']));
    // `regex::escape` leaves line breaks as they are, so they end the regex too.
    let body = if ends_with_break { template.regex.trim_end_matches(['\n', '\r']) } else { &template.regex };
    let start = if starts_with_value { "^" } else { "" };
    let end = if ends_with_value || ends_with_break { "$" } else { "" };
    let (word_start, word_end) = WordEdges::of(template).regex_asserts();
    format!("{start}{word_start}(?s:{body}){word_end}{end}")
}

/// Whether `template` ends with a value that nothing but the line's end
/// ends: a text placeholder, or any group of a pattern.
fn ends_with_open_value(template: &Template) -> bool {
    match template.pieces.last() {
        Some(Piece::Value { spec, .. }) => {
            template.dialect == Dialect::Pattern || format::is_open_ended(spec, template.dialect)
        }
        _ => false,
    }
}

/// Where the message may stand in a line: after the log prefix (or the
/// prefix without its level and exception head) and, when it ends with a
/// text value, before the context at the line's end (read only for such a
/// message: most candidates end otherwise).
#[derive(Debug)]
struct LineFrame {
    start: usize,
    before_level: Option<usize>,
    context_start: OnceCell<usize>,
}

impl LineFrame {
    fn of(line: &str) -> LineFrame {
        let (start, before_level) = log_prefix_ends(line);
        LineFrame { start, before_level, context_start: OnceCell::new() }
    }

    /// The whole line, for a line no template is looked for in.
    fn whole(line: &str) -> LineFrame {
        LineFrame { start: 0, before_level: None, context_start: OnceCell::from(line.len()) }
    }

    /// See [`context_start`]; `line` is the one the frame is of.
    fn context_start(&self, line: &str) -> usize {
        *self.context_start.get_or_init(|| context_start(line))
    }
}

/// Whether a match of `template` in `line` may begin at a position in
/// `starts`, which end where the whole log prefix does. After the whole log
/// prefix, a message that begins with literal text was looked for
/// everywhere: the search after the shorter prefix finds another only where
/// that text begins within the level (a record's `ERROR: disk full` in `...
/// ERROR: disk full`), which a few comparisons tell (it cost as much as the
/// rest of the matching on a plain log). A message that begins with a value
/// is anchored where it starts: it reads otherwise than after the whole
/// prefix only when the literal after that value begins within the prefix
/// (a level's `TRC` as the value of `{} Failed to send record`, a timestamp
/// as that of `%s couldn’t be interpreted`); beginning later, it gives the
/// split the search after the whole prefix tried, with the prefix's text
/// added to the value.
fn may_begin_within<'t>(template: &'t Template, line: &str, starts: Range<usize>) -> bool {
    if template.dialect == Dialect::Pattern {
        return true;
    }
    // A piece's text up to its first line break, which the line does not hold.
    let first_line = |text: &'t str| {
        let text = text.as_bytes();
        &text[..memchr::memchr2(b'\n', b'\r', text).unwrap_or(text.len())]
    };
    let bytes = line.as_bytes();
    match &template.pieces[..] {
        [Piece::Literal(text), ..] => {
            let first = first_line(text);
            let window = bytes.get(starts.start..(starts.end + first.len()).min(bytes.len()));
            first.is_empty() || window.is_some_and(|window| starts_in(window, first, starts.len()))
        }
        [Piece::Value { .. }, Piece::Literal(text), ..] => {
            let next = first_line(text);
            let window = bytes.get(starts.start..(starts.end + next.len()).min(bytes.len()));
            next.is_empty() || window.is_some_and(|window| starts_in(window, next, window.len()))
        }
        _ => true,
    }
}

/// Whether `needle` (not empty) occurs in `window` starting before
/// `before`. The windows are a log prefix long: a search for the needle's
/// first byte costs less than setting up a substring searcher, which the
/// candidates of every line of a dense log did (measured).
fn starts_in(window: &[u8], needle: &[u8], before: usize) -> bool {
    let first = needle[0];
    memchr::memchr_iter(first, window).take_while(|&at| at < before).any(|at| window[at..].starts_with(needle))
}

/// Typed values from the capture groups (one per value piece). An argument
/// rendered twice must capture the same value both times.
fn extract<'h>(template: &Template, captures: &regex::Captures<'h>) -> Option<Vec<Value<'h>>> {
    let texts: Option<Vec<&'h str>> = (1..captures.len()).map(|group| Some(captures.get(group)?.as_str())).collect();
    values_of(template, texts?)
}

/// Typed values from the text of each value piece, in order.
pub(crate) fn values_of<'h>(template: &Template, texts: Vec<&'h str>) -> Option<Vec<Value<'h>>> {
    let mut values: Vec<Option<Value<'h>>> = vec![None; template.fields.len()];
    // Walked again rather than collected: this runs for every match.
    let placeholders = || {
        template.pieces.iter().filter_map(|piece| match piece {
            Piece::Value { field, spec } => Some((usize::from(*field), spec)),
            Piece::Literal(_) => None,
        })
    };
    if texts.len() != placeholders().count() {
        return None;
    }
    for ((field, spec), &text) in placeholders().zip(&texts) {
        match &values[field] {
            // Rendered again: a value read once must write the same text
            // with every verb that renders it (`%[1]d ... %[1]x`).
            Some(previous) => {
                let kind = template.fields[field].kind;
                let same = format::parse_value(kind, spec, template.dialect, text).is_some_and(|v| v == *previous);
                let mut again = String::new();
                format::render(&mut again, spec, template.dialect, previous).ok()?;
                // The capture leaves space padding out.
                if !same && again.trim_matches(' ') != text.trim_matches(' ') {
                    return None;
                }
            }
            None => {
                let value = format::parse_value(template.fields[field].kind, spec, template.dialect, text)?;
                values[field] = Some(value);
            }
        }
    }
    // `*` counts are read back from the text the value was written as, once
    // every value written by a placeholder of its own is known. A count used
    // by several placeholders, or also written as a value (`%[2]*[1]d ...
    // %[2]d`), takes the first reading that renders every one of them as
    // its own reading does: a width read from text it does not pad is only
    // a bound (found by fuzzing).
    let mut readings: Vec<(usize, &Spec, usize, Value<'h>)> = Vec::new();
    for ((field, spec), &text) in placeholders().zip(&texts) {
        let (width, precision) = format::star_fields(template, field, spec);
        for (star, is_width) in [(width, true), (precision, false)] {
            if let Some(star) = star {
                readings.push((star, spec, field, format::star_value(spec, template.dialect, text, is_width)));
            }
        }
    }
    let mut stars: Vec<usize> = readings.iter().map(|reading| reading.0).collect();
    stars.sort_unstable();
    stars.dedup();
    for star in stars {
        let of_star: Vec<_> = readings.iter().filter(|reading| reading.0 == star).collect();
        let candidates: Vec<Value<'h>> = match &values[star] {
            Some(known) => vec![known.clone()],
            None => of_star.iter().map(|reading| reading.3.clone()).collect(),
        };
        let renders_as_read = |candidate: &Value<'h>| {
            of_star.iter().all(|&(_, spec, field, read)| {
                let with = |count: &Value<'h>| {
                    let mut values = values.clone();
                    values[star] = Some(count.clone());
                    format::render_placeholder(template, *field, spec, &values)
                };
                candidate == read || with(candidate).is_some_and(|text| Some(text) == with(read))
            })
        };
        values[star] = Some(candidates.into_iter().find(renders_as_read)?);
    }
    values.into_iter().collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::compile;

    fn matcher(messages: &[&str]) -> Matcher {
        let templates: Vec<Template> = messages.iter().map(|m| compile(m, Dialect::Go).unwrap()).collect();
        Matcher::new(&templates)
    }

    #[test]
    fn a_message_found_in_a_line_starts_and_ends_at_word_edges() {
        let matcher = matcher(&["consumer", "unknown stream %s", "%s lagging"]);
        let span = |line: &str| matcher.find(line).map(|found| (found.index, found.span));
        assert_eq!(span("[INF] removed 3 consumers"), None);
        assert_eq!(span("[INF] subconsumer"), None);
        assert_eq!(span("[INF] überconsumer"), None);
        assert_eq!(span("[INF] üconsumer").map(|(index, _)| index), Some(0), "ü is no ASCII word character");
        assert_eq!(span("[INF] consumer_1"), None);
        assert_eq!(span("[INF] consumer"), Some((0, 6..14)));
        assert_eq!(span("[INF] lost consumer, retrying"), Some((0, 11..19)));
        // The first occurrence inside a word does not hide a later one.
        assert_eq!(span("consumers or consumer?"), Some((0, 13..21)));
        // A placeholder at an edge may be glued to anything.
        assert_eq!(span("myunknown stream s1"), None);
        assert_eq!(span("an unknown stream s1"), Some((1, 3..20)));
        assert_eq!(span("replica3 lagging"), Some((2, 0..16)));
        assert_eq!(span("replica3 laggingly"), None);
    }

    #[test]
    fn opaque_templates_too_many_for_one_regex_set_still_match() {
        // Anchored patterns with no literal the prefilter can take (an
        // alternation), each with Unicode classes: together beyond the regex
        // crate's size limit for one set.
        const N: usize = 100;
        let patterns: Vec<String> =
            (0..N).map(|i| format!(r"^(?:alpha{i}|beta{i}) (\w+) (\w+) (\w+) (\w+)$")).collect();
        let templates: Vec<Template> = patterns.iter().map(|p| compile(p, Dialect::Pattern).unwrap()).collect();
        let m = Matcher::new(&templates);
        assert_eq!(m.index.opaque.len(), patterns.len(), "every template is opaque");
        let sets = m.opaque_sets().len();
        assert!(sets > 1, "{sets} set(s): the test needs patterns beyond one set's limit");
        for i in [0, N / 2, N - 1] {
            let line = format!("beta{i} übel one two three");
            assert_eq!(m.find(&line).expect("found").index, i, "{line}");
        }
        assert!(m.find("gamma7 a b c d").is_none());
    }

    #[test]
    fn the_most_specific_template_wins_and_ties_go_to_the_first() {
        let m = matcher(&["stream %s failed: %v", "stream %s failed: disk full", "stream %s failed: %v"]);
        let found = m.parse("stream A failed: disk full").unwrap();
        assert_eq!(found.index, 1);
        assert_eq!(m.parse("stream A failed: other").unwrap().index, 0);
        let mut all = Vec::new();
        m.parse_map("stream A failed: disk full", |found| {
            all.push(found.index);
            None::<()>
        });
        assert_eq!(all, [1, 0, 2]);
        assert_eq!(m.find_all("x stream A failed: disk full").len(), 3);
    }

    #[test]
    fn a_span_in_a_lossy_line_is_mapped_back_to_its_bytes() {
        let m = matcher(&["stream %s failed: %v"]);
        // Invalid bytes before, inside and at the end of the message: each
        // a U+FFFD of three bytes, but for a cut sequence (`\xf0\x9f`),
        // one for both.
        let line: &[u8] = b"\xff[ERR] \xc3 stream A\xfe\xfd failed: x\x80 \xf0\x9f";
        let text = String::from_utf8_lossy(line);
        let found = m.find(&text).unwrap();
        assert_eq!(&text[found.span.clone()], "stream A\u{fffd}\u{fffd} failed: x\u{fffd} \u{fffd}");
        assert_eq!(found.span_in_bytes(line), 9..line.len());
        assert_eq!(&line[found.span_in_bytes(line)], &b"stream A\xfe\xfd failed: x\x80 \xf0\x9f"[..]);
        // A UTF-8 line keeps its span.
        let found = m.find("[ERR] stream A failed: x").unwrap();
        assert_eq!(found.span_in_bytes(b"[ERR] stream A failed: x"), found.span);
    }

    #[test]
    fn find_skips_the_log_prefix_and_reports_the_span() {
        let m = matcher(&["%v: connection closed", "read error on %q: %v\n"]);
        let line = "[12] 2026/11/29 17:20:00.123456 [WRN] client 7: connection closed\r\n";
        let found = m.find(line).unwrap();
        assert_eq!(found.index, 0);
        assert_eq!(found.values, [Value::Str("client 7".into())]);
        assert_eq!(&line[found.span], "client 7: connection closed");
        let line = "2026-11-29T17:20:00Z ERROR: read error on \"a b\": EOF\n";
        let found = m.find(line).unwrap();
        assert_eq!((found.index, found.values), (1, vec![Value::Str("a b".into()), Value::Str("EOF".into())]));
        assert!(m.find("nothing to see").is_none());
    }

    #[test]
    fn context_may_follow_a_message_that_ends_by_itself() {
        let m = matcher(&["not allowed", "wildcards not allowed in publish's topic: %q", "retry %d", "closed: %v"]);
        let line = r#"[1] 2026/11/29 17:20:00.123456 [TRC] 10.0.0.1:4222 - cid:7 - <<- [PUBLISH wildcards not allowed in publish's topic: "sensors/+/temp"]"#;
        let found = m.find(line).unwrap();
        assert_eq!((found.index, found.values), (1, vec![Value::Str("sensors/+/temp".into())]));
        assert!(line[found.span].ends_with("\"sensors/+/temp\""));
        let found = m.find("x retry 3; retrying in 5s").unwrap();
        assert_eq!((found.index, found.values), (2, vec![Value::Int(3)]));
        // A trailing text placeholder takes the rest of the line, but for a
        // logger's dotted name in parentheses at its end.
        let found = m.find("conn closed: EOF (kafka.server.ReplicaManager)").unwrap();
        assert_eq!(found.values, [Value::Str("EOF".into())]);
        let found = m.find("conn closed: EOF (at src/x.rs:10)").unwrap();
        assert_eq!(found.values, [Value::Str("EOF (at src/x.rs:10)".into())]);
    }

    #[test]
    fn a_value_before_a_loggers_name_is_read_from_the_whole_line_when_it_must_be() {
        let m = matcher(&["closed: %v", "%v (%v)"]);
        let line = "[2026-12-01 10:00:00,000] WARN closed: (a.b)";
        // `closed: ` with its space does not end before ` (a.b)`.
        let found = m.find(line).unwrap();
        assert_eq!((found.index, found.values), (0, vec![Value::Str("(a.b)".into())]));
        // A message that ends with literal text is looked for in the whole line.
        let found = m.find("[2026-12-01 10:00:00,000] WARN x (y.z)").unwrap();
        assert_eq!(found.index, 1);
        assert_eq!(found.values, [Value::Str("x".into()), Value::Str("y.z".into())]);
        // A prefix that runs past the context's start leaves the whole line.
        let found = matcher(&["%v"]).find("ERROR (a.b)").unwrap();
        assert_eq!(found.values, [Value::Str("(a.b)".into())]);
    }

    #[test]
    fn a_leading_number_is_read_after_an_exceptions_head() {
        let m = matcher(&["%d is not a valid timestamp", "%v contains unescaped characters"]);
        let found = m.find("RangeError [ERR_PERFORMANCE_INVALID_TIMESTAMP]: 5 is not a valid timestamp").unwrap();
        assert_eq!((found.index, found.values), (0, vec![Value::Int(5)]));
        let found = m.find("Uncaught TypeError: Request path contains unescaped characters").unwrap();
        assert_eq!((found.index, found.values), (1, vec![Value::Str("Request path".into())]));
    }

    #[test]
    fn a_repeated_argument_must_capture_the_same_value() {
        let m = matcher(&["%[1]d of %[1]d"]);
        assert_eq!(m.parse("3 of 3").unwrap().values, [Value::Int(3)]);
        assert!(m.parse("3 of 4").is_none());
    }

    #[test]
    fn an_accept_step_can_reject_a_match_for_the_next_candidate() {
        let m = matcher(&["limit %v reached", "limit %d reached"]);
        let second = m.parse_map("limit 5 reached", |found| (found.index == 1).then_some(found.values));
        assert_eq!(second, Some(vec![Value::Int(5)]));
    }

    #[test]
    fn a_message_beginning_with_a_levels_word_is_found_with_or_without_a_prefix() {
        let m = matcher(&["%s Failed to send record to topic '%s'", "ERROR: disk %s full"]);
        let values = |line: &'static str| m.find(line).map(|found| (found.index, found.values));
        let first = Some((0, vec![Value::Str("TRC".into()), Value::Str("t".into())]));
        // The message alone (as an envelope gives it), behind a prefix, and
        // behind a prefix with a level of its own.
        assert_eq!(values("TRC Failed to send record to topic 't'"), first);
        assert_eq!(values("2026-11-29 17:20:00,5 TRC Failed to send record to topic 't'"), first);
        assert_eq!(values("[1] 2026/11/29 17:20:00.123456 [ERR] TRC Failed to send record to topic 't'"), first);
        assert_eq!(values("ERROR: disk sda full"), Some((1, vec![Value::Str("sda".into())])));
        assert_eq!(values("[1] 2026/11/29 17:20:00.123456 [ERR] ERROR: disk sda full").map(|(i, _)| i), Some(1));
        // A level that is the prefix's is still skipped.
        assert_eq!(
            values("[WRN] x Failed to send record to topic 't'").map(|(_, v)| v[0].clone()),
            Some(Value::Str("x".into()))
        );
    }

    #[test]
    fn a_last_value_holding_the_last_literal_is_read_whole_by_either_searcher() {
        // Without a regex, and (`%x` has no literal matcher's syntax) with one.
        let m = matcher(&["start of %s.", "id %x in '%s'"]);
        let found = m.find("2026-12-03 ERROR start of templates/base.html. (at src/x.rs:10)").unwrap();
        assert_eq!((found.index, &found.values[..]), (0, &[Value::Str("templates/base.html".into())][..]));
        assert_eq!(found.span, 17..46);
        let found = m.find("id 1f in '['a', 'b']'").unwrap();
        assert_eq!((found.index, &found.values[1]), (1, &Value::Str("['a', 'b']".into())));
        // No occurrence ends the text or comes before white space: the first.
        assert_eq!(m.find("start of a.b.c").map(|found| found.values), Some(vec![Value::Str("a".into())]));
    }

    #[test]
    fn a_leading_value_that_looks_like_a_log_prefix_is_the_value() {
        let templates =
            [compile("%(datetime)s couldn’t be interpreted in time zone %(tz)s.", Dialect::Python).unwrap()];
        let m = Matcher::new(&templates);
        let value = |line: &str| m.find(line).map(|found| found.values[0].clone().into_owned());
        let datetime = Some(Value::Str("2026-03-29 02:30:00".into()));
        assert_eq!(value("2026-03-29 02:30:00 couldn’t be interpreted in time zone Europe/Paris."), datetime);
        // Behind a log prefix of its own, the value is still what follows it.
        assert_eq!(
            value("2026-12-03 10:00:00 ERROR 2026-03-29 02:30:00 couldn’t be interpreted in time zone UTC."),
            datetime
        );
        assert_eq!(value("[WRN] x couldn’t be interpreted in time zone UTC."), Some(Value::Str("x".into())));
    }

    #[test]
    fn log_prefixes() {
        assert_eq!(log_prefix_len("[1] 2026/11/29 17:20:00.123456 [ERR] x"), 37);
        assert_eq!(log_prefix_len("2026-11-29 17:20:00,5 WARN x"), 27);
        assert_eq!(log_prefix_len("plain message"), 0);
    }

    #[test]
    fn the_index_holds_each_literal_once_with_the_templates_that_require_it() {
        let messages = ["stream %s nöt found", "disk full: %v", "%v: stream %s nöt found", "%v: %v"];
        let templates: Vec<Template> = messages.iter().map(|m| compile(m, Dialect::Go).unwrap()).collect();
        let index = Index::of(&templates);
        assert_eq!(index.literals(), [" nöt found", "disk full: "]);
        assert_eq!(index.owners_of(0), [0, 2]);
        assert_eq!(index.owners_of(1), [1]);
        assert_eq!(index.unfiltered, [3]);
    }

    #[test]
    fn an_index_with_a_number_or_group_out_of_range_is_not_sound() {
        let messages = ["stream %s nöt found", "disk full: %v", "%v: stream %s nöt found", "%v: %v"];
        let templates: Vec<Template> = messages.iter().map(|m| compile(m, Dialect::Go).unwrap()).collect();
        let sound = || Index::of(&templates);
        assert!(sound().is_sound_for(4));
        assert!(!sound().is_sound_for(3));
        let damages: [fn(&mut Index); 8] = [
            |index| index.owners[0] = 4,
            |index| index.unfiltered[0] = 9,
            |index| index.rank[1] = 4,
            |index| index.literal_ends[1] += 1,
            |index| index.literal_ends[0] = 2,
            |index| index.owner_ends[1] += 1,
            |index| index.by_prefix[0] |= 7,
            |index| index.by_prefix.reverse(),
        ];
        for (number, damage) in damages.iter().enumerate() {
            let mut index = sound();
            damage(&mut index);
            assert!(!index.is_sound_for(4), "damage {number}");
            // A matcher given it computes its own.
            let matcher = Matcher::with_index(templates.clone(), index);
            assert_eq!(matcher.find("x: stream a nöt found").map(|found| found.index), Some(2), "damage {number}");
        }
    }

    /// The literals `matcher` finds in `text` through the index's table
    /// ([`Index::for_each_literal_in`]) and through the prefilter, each
    /// sorted.
    fn literals_both_ways(matcher: &Matcher, text: &str) -> (Vec<usize>, Vec<usize>) {
        let (mut table, mut prefilter) = (Vec::new(), Vec::new());
        matcher.index.for_each_literal_in(text, |literal| table.push(literal));
        matcher.prefilter().for_each(text, |_, literal| {
            if !matcher.is_head(literal) {
                prefilter.push(literal)
            }
        });
        table.sort_unstable();
        prefilter.sort_unstable();
        (table, prefilter)
    }

    #[test]
    fn a_plain_scan_gives_back_a_chunk_holding_a_multi_line_templates_first_line() {
        let templates: Vec<Template> = [
            ("failed to load manifest for workspace member `{}`\nreferenced by workspace at `{}`", Dialect::Rust),
            ("disk {} full", Dialect::Rust),
        ]
        .iter()
        .map(|(message, dialect)| Template::compile(message, *dialect).unwrap())
        .collect();
        let with_a_catch_all = [templates.clone(), vec![Template::compile("{}: {}", Dialect::Rust).unwrap()]].concat();
        for templates in [templates, with_a_catch_all] {
            let matcher = Matcher::new(&templates);
            let plain = b"ok\ndisk /var full\n";
            let mut found = 0;
            assert_eq!(matcher.find_numbered_lines_unless_multi_line(plain, |_, _, _| found += 1), Some(2));
            assert_eq!(found, 1);
            let head = b"disk /var full\nerror: failed to load manifest for workspace member `a`\nreferenced by x\n";
            assert_eq!(matcher.find_numbered_lines_unless_multi_line(head, |_, _, _| {}), None);
            // The public scan ignores the heads, and the literals found are
            // the index's alone.
            assert_eq!(matcher.find_numbered_lines_in(head, |_, _, _| {}), Some(3));
            let (table, prefilter) = literals_both_ways(&matcher, std::str::from_utf8(head).unwrap());
            assert_eq!(table, prefilter);
            let mut heads = 0;
            matcher.prefilter().for_each(std::str::from_utf8(head).unwrap(), |_, literal| {
                heads += usize::from(matcher.is_head(literal));
            });
            assert_eq!(heads, 1);
        }
    }

    #[test]
    fn short_texts_find_the_literals_the_prefilter_finds() {
        // Short literals (Aho-Corasick's) and long ones (the grams'), some
        // sharing their first four bytes, one inside another.
        let m = matcher(&[
            "stream %s not found",
            "stream %s not found in account %q",
            "streams %d",
            "%v: connection closed by peer",
            "closed %d",
            "disk full: %v",
            "disk %s full",
            "max payload exceeded for %q",
        ]);
        assert!(m.index.literal_ends.len() >= 6, "{:?}", m.index);
        let texts = [
            "stream X not found in account \"A\"",
            "[1] 2026/11/29 17:20:00.123456 [ERR] client 7: connection closed by peer",
            "streams 5, streams 6; disk full: yes; disk /var full",
            "closed 3closed 4max payload exceeded for \"x\" not found in account",
            "nothing",
            "str",
            "",
        ];
        for text in texts {
            let (table, prefilter) = literals_both_ways(&m, text);
            assert_eq!(table, prefilter, "{text}");
        }
        assert!(!literals_both_ways(&m, texts[2]).0.is_empty());
        // The candidates, and so the matches, are the same before and after
        // the prefilter is built.
        let fresh = matcher(&["stream %s not found", "stream %s not found in account %q", "disk %s full"]);
        let line = "x stream X not found in account \"A\"";
        let before = fresh.find_all(line);
        assert!(fresh.prefilter.get().is_none(), "a short text needs no prefilter");
        fresh.prefilter();
        assert_eq!(fresh.find_all(line), before);
        assert_eq!(before.len(), 2);
    }

    #[test]
    fn long_hostile_lines_are_handled_in_linear_time() {
        // Backtracking engines take exponential time here; the regex crate
        // and Aho-Corasick do not (this test would hang, not fail, if they did).
        let m = matcher(&["%v%v%v%v%v!", "a%va%va%v: %q"]);
        let line = "a".repeat(200_000);
        assert!(m.find(&line).is_none());
        assert!(m.parse(&line).is_none());
    }
}
