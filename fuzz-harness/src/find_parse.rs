//! `find` and `parse` of the run-time loaded corpus catalog on arbitrary lines.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use catalog_runtime::Catalog;
use catalog_runtime::{LogLevel, Piece};

/// The nats-server corpus (2,008 records) loaded at run time, once; the
/// three seed records of `data/` when the corpus is absent (said on stderr).
pub(crate) fn corpus_catalog() -> &'static Catalog {
    static CATALOG: OnceLock<Catalog> = OnceLock::new();
    CATALOG.get_or_init(|| {
        let corpus = PathBuf::from(corpus_crate::CORPUS_DIR);
        let dir = if corpus.is_dir() {
            corpus
        } else {
            let seeds = Path::new(env!("CARGO_MANIFEST_DIR")).join("../data/nats-io/nats-server");
            eprintln!(
                "note: the corpus is absent ({}): fuzzing against the {} seed records instead",
                corpus.display(),
                seeds.display()
            );
            seeds
        };
        Catalog::load(&dir).unwrap_or_else(|err| panic!("{} does not load: {err:?}", dir.display()))
    })
}

/// The line is the bytes (invalid UTF-8 replaced). Checked:
///
/// - `find` gives the first of `find_all`, whose matches are in ranking
///   order (most literal characters, then record order), each with a span
///   inside the line (without its line break) on character boundaries and
///   one value per field; the found values, rendered, parse as the record
///   they were found for;
/// - `parse` gives the first of the records that `parse_map` offers, in
///   ranking order, spanning the whole line;
/// - on a line without a log prefix or line break, a message that parses is
///   found too, by a record at least as specific, and a found message that
///   spans the whole line is what `parse` gives, or with the record's
///   trailing line break, which `find` ignores, its own parse (lines with a line break
///   inside are left out: `find` reads one line, `.` there stops at `\n`).
pub fn find_parse(data: &[u8]) {
    let line = String::from_utf8_lossy(data);
    let catalog = corpus_catalog();
    let matcher = catalog.matcher();
    let rank = |index: usize| (std::cmp::Reverse(catalog.entries()[index].template.literal_len), index);
    let trimmed = line.strip_suffix('\n').unwrap_or(&line);
    let trimmed = trimmed.strip_suffix('\r').unwrap_or(trimmed);

    let all = catalog.find_all(&line);
    let found = catalog.find(&line);
    assert_eq!(found.as_ref(), all.first(), "find and find_all disagree on {line:?}");
    for pair in all.windows(2) {
        assert!(rank(pair[0].index) < rank(pair[1].index), "find_all out of order on {line:?}");
    }
    for m in &all {
        let span = m.span.clone();
        assert!(span.start <= span.end && span.end <= trimmed.len(), "span {span:?} of {line:?}");
        assert!(trimmed.is_char_boundary(span.start) && trimmed.is_char_boundary(span.end), "span {span:?}");
        assert_eq!(m.values.len(), catalog.entries()[m.index].template.fields.len());
        let rendered = catalog.render(m.index, &m.values).expect("a match has a value per field");
        assert!(
            matcher.parse_map(&rendered, |p| (p.index == m.index).then_some(())).is_some(),
            "values found in {line:?} by {} render {rendered:?}, which it does not parse",
            catalog.entries()[m.index].name
        );
    }

    let parsed = catalog.parse(&line);
    let mut every_parse = Vec::new();
    matcher.parse_map(&line, |p| {
        every_parse.push(p);
        None::<()>
    });
    assert_eq!(parsed.as_ref(), every_parse.first(), "parse and parse_map disagree on {line:?}");
    for pair in every_parse.windows(2) {
        assert!(rank(pair[0].index) < rank(pair[1].index), "parse_map out of ranking order on {line:?}");
    }
    if let Some(p) = &parsed {
        assert_eq!(p.span, 0..line.len());
        assert_eq!(p.values.len(), catalog.entries()[p.index].template.fields.len());
    }

    // `find` looks for a message within one line: `.` in its regexes stops
    // at a line break, as `parse`'s does not (a whole message may span lines).
    if trimmed.len() == line.len() && !line.contains('\n') && !may_have_log_prefix(&line) {
        if let Some(p) = &parsed {
            let f = found.as_ref();
            assert!(f.is_some(), "{line:?} parses as {} but is not found", catalog.entries()[p.index].name);
            let f = f.unwrap();
            assert!(rank(f.index) <= rank(p.index), "found {} beats parsed {}", f.index, p.index);
        }
        if let Some(f) = found.as_ref().filter(|f| f.span == (0..line.len())) {
            // `find` ignores a message's trailing line break; `parse` needs it.
            let pieces = &catalog.entries()[f.index].template.pieces;
            let last = match pieces.last() {
                Some(Piece::Literal(text)) => text.as_ref(),
                _ => "",
            };
            let break_run = &last[last.trim_end_matches(['\n', '\r']).len()..];
            if !break_run.is_empty() {
                let message = format!("{line}{break_run}");
                let p = matcher.parse_map(&message, |p| (p.index == f.index).then_some(p));
                assert!(p.is_some(), "{message:?} is found whole by {} but does not parse", f.index);
                assert_eq!(p.unwrap().values, f.values, "on {line:?}");
                return;
            }
            let p = parsed.as_ref();
            assert!(p.is_some(), "{line:?} is found whole by {} but does not parse", catalog.entries()[f.index].name);
            let p = p.unwrap();
            assert_eq!((p.index, &p.values), (f.index, &f.values), "on {line:?}");
        }
    }
}

/// Whether `line` may start with a log prefix (a `[pid]`, a date, a level),
/// which `find` skips: a line that starts with neither `[` nor a digit and
/// names no level has none.
fn may_have_log_prefix(line: &str) -> bool {
    line.starts_with(|c: char| c == '[' || c.is_ascii_digit()) || LogLevel::find_in(line).is_some()
}

#[cfg(test)]
mod tests {
    use super::corpus_catalog;

    /// The saved inputs reach the matcher's verification, not only its prefilter.
    #[test]
    fn a_seed_error_is_found_and_parsed() {
        let line = r#"[1] 2026/11/29 17:20:00.123456 [ERR] unable to persist session "sess-1" (seq=7): nats: timeout"#;
        let found = corpus_catalog().find(line).expect("a seed record's message is found");
        let message = &line[found.span.clone()];
        assert_eq!(corpus_catalog().parse(message).map(|m| m.index), Some(found.index));
    }
}
