//! `naive DATA FILE`: the baseline a user would write by hand, for the
//! benchmark: a `RegexSet` of every record's pattern run on each line, then,
//! of the records that match, the one with the most literal characters
//! (errcat's ranking; ties to the first) for the captures. Prints the
//! matching line count.

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::time::Instant;

use catalog_runtime::Catalog;
use regex::{Regex, RegexSet};
use regex_syntax::ast::{parse::Parser, Ast, RepetitionKind, RepetitionRange};

/// The naive classifier over a catalog's patterns.
pub struct Naive {
    set: RegexSet,
    regexes: Vec<Regex>,
    literal_len: Vec<u32>,
}

impl Naive {
    pub fn new(catalog: &Catalog) -> Result<Naive, String> {
        let patterns: Vec<&str> = catalog.entries().iter().map(|e| e.template.regex.as_ref()).collect();
        let set = RegexSet::new(&patterns).map_err(|e| e.to_string())?;
        let regexes = patterns.iter().map(|p| Regex::new(p)).collect::<Result<_, _>>().map_err(|e| e.to_string())?;
        let literal_len = catalog.entries().iter().map(|e| e.template.literal_len).collect();
        Ok(Naive { set, regexes, literal_len })
    }

    /// The best record matching `line` (most literal characters, then the
    /// lowest index), and how many records match it.
    pub fn classify(&self, line: &str) -> (Option<usize>, usize) {
        let matches = self.set.matches(line);
        let best = matches.iter().min_by_key(|&i| (std::cmp::Reverse(self.literal_len[i]), i));
        (best, matches.len())
    }
}

pub fn run(data: &Path, file: &Path) -> Result<(), String> {
    let started = Instant::now();
    let catalog = Catalog::load(data).map_err(|e| e.to_string())?;
    let naive = Naive::new(&catalog)?;
    let input = std::fs::File::open(file).map_err(|e| format!("{}: {e}", file.display()))?;
    let mut matched = 0u64;
    let mut captured = 0usize;
    for line in BufReader::new(input).lines() {
        let line = line.map_err(|e| e.to_string())?;
        if let (Some(best), _) = naive.classify(&line) {
            matched += 1;
            captured += naive.regexes[best].captures(&line).map_or(0, |c| c.len());
        }
    }
    println!("{matched} matching lines ({captured} groups) in {:.2?}", started.elapsed());
    Ok(())
}

/// Writes every record's compiled pattern, one per line, leaving out patterns
/// that contain a line break (for `rg -f` and Hyperscan). With `hyperscan`,
/// each in the form given to Hyperscan (see [`for_hyperscan`]).
pub fn patterns(data: &Path, out: &Path, hyperscan: bool) -> Result<(), String> {
    let catalog = Catalog::load(data).map_err(|e| e.to_string())?;
    let patterns: Vec<String> = catalog
        .entries()
        .iter()
        .map(|e| e.template.regex.as_ref())
        .filter(|p| !p.contains(['\n', '\r']))
        .map(|p| if hyperscan { for_hyperscan(p) } else { p.to_owned() })
        .collect();
    std::fs::write(out, patterns.join("\n") + "\n").map_err(|e| format!("{}: {e}", out.display()))
}

/// A pattern in the form given to Hyperscan, matching the same lines.
///
/// Hyperscan ignores capture groups and lazy modifiers (it reports every
/// match's end; see its "Pattern Support" and "Semantics" docs), so at the
/// top level of the pattern a capture group becomes its contents
/// (non-capturing `(?:...)` unless a single repetition such as `.*?`), a lazy
/// repetition greedy, and the repetitions at either end of an unanchored
/// pattern shrink to what decides whether a line matches: `.*` goes, `.+`
/// and `\d+` keep one character. The lines matched are the same; only the
/// number of match ends Hyperscan reports per line drops (a trailing `.*`
/// reports one at every byte to the line's end). Patterns that do not parse,
/// or that are not a sequence at the top level, are written unchanged.
pub fn for_hyperscan(pattern: &str) -> String {
    let Ok(ast) = Parser::new().parse(pattern) else {
        return pattern.to_owned();
    };
    let top: Vec<&Ast> = match &ast {
        Ast::Concat(concat) => concat.asts.iter().collect(),
        Ast::Alternation(_) => return pattern.to_owned(),
        other => vec![other],
    };
    let text = |ast: &Ast| &pattern[ast.span().start.offset..ast.span().end.offset];
    // Each piece: its text and, for a repetition, (what it repeats, at least one).
    let mut pieces: Vec<(String, Option<(String, bool)>)> = top
        .iter()
        .map(|ast| {
            let (inner, group): (&Ast, bool) = match ast {
                Ast::Group(group) if group.is_capturing() => (&group.ast, true),
                other => (other, false),
            };
            match inner {
                Ast::Repetition(rep) => {
                    let what = text(&rep.ast).to_owned();
                    let at_least_one = match &rep.op.kind {
                        RepetitionKind::OneOrMore => Some(true),
                        RepetitionKind::ZeroOrMore => Some(false),
                        RepetitionKind::Range(RepetitionRange::AtLeast(n)) => Some(*n >= 1),
                        _ => None,
                    };
                    let form = match &rep.op.kind {
                        RepetitionKind::OneOrMore => "+",
                        RepetitionKind::ZeroOrMore => "*",
                        _ => "",
                    };
                    match at_least_one {
                        Some(one) if !form.is_empty() => (format!("{what}{form}"), Some((what, one))),
                        _ => (format!("(?:{})", text(inner)), None),
                    }
                }
                _ if group => (format!("(?:{})", text(inner)), None),
                _ => (text(inner).to_owned(), None),
            }
        })
        .collect();
    let anchored = |piece: &(String, Option<(String, bool)>)| piece.0.starts_with('^') || piece.0.ends_with('$');
    if pieces.iter().any(anchored) {
        return pieces.into_iter().map(|(text, _)| text).collect();
    }
    for end in [true, false] {
        while pieces.len() > 1 {
            let piece = if end { pieces.last_mut() } else { pieces.first_mut() }.expect("a piece");
            match piece.1.take() {
                Some((_, false)) => {
                    if end {
                        pieces.pop();
                    } else {
                        pieces.remove(0);
                    }
                }
                Some((what, true)) => {
                    piece.0 = what;
                    break;
                }
                None => break,
            }
        }
    }
    pieces.into_iter().map(|(text, _)| text).collect()
}

#[cfg(test)]
mod tests {
    use super::for_hyperscan;

    #[test]
    fn hyperscan_forms() {
        assert_eq!(
            for_hyperscan(r"Received block (.*?) of size (\d+) from (.*?)"),
            r"Received block .* of size \d+ from "
        );
        assert_eq!(for_hyperscan(r"(.*?) (.*?): (.*?)"), r" .*: ");
        assert_eq!(for_hyperscan(r"(.+?) open (\d+)"), r". open \d");
        assert_eq!(for_hyperscan(r"no placeholder\."), r"no placeholder\.");
        assert_eq!(for_hyperscan(r"a (x|y) b"), r"a (?:x|y) b");
        assert_eq!(for_hyperscan(r"a|b"), r"a|b");
    }
}
