//! The two regex checks of every record, cheap for the common shapes: a
//! record's own `messagePattern` is parsed (and weighed against
//! [`MAX_PATTERN_STATES`](limits::MAX_PATTERN_STATES)), and the regex its
//! message compiles to must parse.
//!
//! The `#[catalog]` macro runs them for thousands of records on every build
//! of a crate that uses it, unoptimised in a user's debug build, where
//! `regex_syntax`'s two parses cost about 480,000 instructions a record (a
//! quarter of the macro). Here:
//! - an own pattern of literal characters, escaped metacharacters, `.` and
//!   the groups `(.+?)`, `(.*?)`, `(.+)`, `(.*)` and `(\d+)` (the shape of
//!   nearly every dataset's patterns) is valid by its shape, and its weight
//!   is counted as `limits::pattern_states` counts it;
//! - a compiled regex is the concatenation of its literal pieces, escaped,
//!   and of its placeholders' regexes: it is valid when each placeholder's
//!   regex is, on its own, and cannot change how what follows it is read
//!   (no flags, no names, no leading repetition), and those are few, each
//!   parsed once per build.
//!
//! Anything else is parsed in full, as before, with the same messages.

use std::collections::HashMap;

use crate::dataset::limits;
use crate::format::{self, Piece, Template};

/// Why `pattern`, a record's own `messagePattern`, is refused, if it is.
pub(super) fn check_own_pattern(pattern: &str) -> Result<(), String> {
    if let Some(states) = simple_pattern_states(pattern) {
        if states <= limits::MAX_PATTERN_STATES {
            return Ok(());
        }
    }
    let ast = regex_syntax::ast::parse::Parser::new()
        .parse(pattern)
        .map_err(|err| format!("invalid regex: {}", super::regex_problem(&err.to_string())))?;
    limits::check_pattern(&ast)
}

/// The groups a simple pattern may hold.
const SIMPLE_GROUPS: [&str; 5] = ["(.+?)", "(.*?)", "(.+)", "(.*)", r"(\d+)"];

/// `limits::pattern_states` of `pattern` if it is simple: literal
/// characters, metacharacters escaped, `.` and [`SIMPLE_GROUPS`]. Such a
/// pattern is always valid: a concatenation of literals, dots and groups
/// (the empty pattern is not one: it weighs one state of its own).
fn simple_pattern_states(pattern: &str) -> Option<u64> {
    if pattern.is_empty() {
        return None;
    }
    // A literal is one state, a dot (a class) is `CLASS_STATES`, and so is a
    // group of a repeated dot or digit class.
    const CLASS: u64 = 100;
    let bytes = pattern.as_bytes();
    let mut states: u64 = 0;
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'\\' => {
                // An escaped metacharacter (all ASCII) is a literal.
                let next = *bytes.get(i + 1)?;
                if !next.is_ascii() || !regex_syntax::is_meta_character(char::from(next)) {
                    return None;
                }
                states += 1;
                i += 2;
            }
            b'.' => {
                states += CLASS;
                i += 1;
            }
            b'(' => {
                let group = SIMPLE_GROUPS.iter().find(|group| bytes[i..].starts_with(group.as_bytes()))?;
                states += CLASS;
                i += group.len();
            }
            b'+' | b'*' | b'?' | b')' | b'|' | b'[' | b']' | b'{' | b'}' | b'^' | b'$' => return None,
            // Any other character, ASCII or not, is a literal (the `#`, `&`,
            // `-` and `~` that are special in classes and verbose mode too).
            byte => {
                // One state per character: count the lead bytes only.
                states += u64::from(byte & 0xC0 != 0x80);
                i += 1;
            }
        }
    }
    Some(states)
}

/// The placeholder regexes checked in one build, and whether each may be
/// taken as valid inside a compiled regex.
#[derive(Default)]
pub(super) struct ValueRegexes {
    checked: HashMap<String, bool>,
}

impl ValueRegexes {
    /// Why `template`'s compiled regex is not a valid regex, if it is not.
    pub(super) fn check(&mut self, template: &Template) -> Result<(), String> {
        if self.valid_by_parts(template) {
            return Ok(());
        }
        match regex_syntax::ast::parse::Parser::new().parse(&template.regex) {
            Ok(_) => Ok(()),
            Err(err) => Err(super::regex_problem(&err.to_string())),
        }
    }

    /// Whether `template.regex` is its pieces' regexes in order (each
    /// literal escaped, each placeholder's `value_regex`), every
    /// placeholder's regex being [`composable`].
    fn valid_by_parts(&mut self, template: &Template) -> bool {
        let mut rest: &str = &template.regex;
        for piece in template.pieces.iter() {
            let part = match piece {
                Piece::Literal(text) => regex_syntax::escape(text),
                Piece::Value { spec, .. } => {
                    let regex = format::value_regex(spec, template.dialect);
                    let valid = match self.checked.get(&regex) {
                        Some(&valid) => valid,
                        None => {
                            let valid = composable(&regex);
                            self.checked.insert(regex.clone(), valid);
                            valid
                        }
                    };
                    if !valid {
                        return false;
                    }
                    regex
                }
            };
            match rest.strip_prefix(part.as_str()) {
                Some(after) => rest = after,
                None => return false,
            }
        }
        rest.is_empty()
    }
}

/// Whether `regex` is valid, and stays valid, read as it is, wherever it is
/// put between escaped literals and other such regexes: it parses, sets no
/// flags (which last to the end of the enclosing group, and `x` would read
/// what follows differently) and names no group (two could clash), does not
/// start with a repetition (which would repeat what precedes it), and is
/// too shallow to reach the parser's nesting limit however it is nested.
fn composable(regex: &str) -> bool {
    let mut after_open = regex.split("(?").skip(1);
    let only_plain_groups = after_open.all(|rest| rest.starts_with(':'));
    let nesting = regex.bytes().filter(|b| b"([{*+?|".contains(b)).count();
    only_plain_groups
        && !regex.starts_with(['*', '+', '?', '{'])
        && nesting < 100
        && regex_syntax::ast::parse::Parser::new().parse(regex).is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::Dialect;
    use proptest::prelude::*;

    fn parsed_states(pattern: &str) -> Option<u64> {
        regex_syntax::ast::parse::Parser::new().parse(pattern).ok().map(|ast| limits::pattern_states(&ast))
    }

    #[test]
    fn simple_patterns_weigh_as_parsed() {
        for pattern in [
            r"invalid dest port: (.+?)",
            r"unable to persist session \(seq=(.+?)\): (.*?)",
            r"a.b-c#d&e~f é \[x\] \{y\} \$ \^ \| \* \+ \? \. \\ (\d+)(.+)(.*)",
        ] {
            assert_eq!(simple_pattern_states(pattern), parsed_states(pattern), "{pattern}");
        }
        for pattern in ["", r"a(b)", r"\d", "a+", "(?:x)", "[ab]", r"\<", "x{2}", "a|b", "(.+?", r"\"] {
            assert_eq!(simple_pattern_states(pattern), None, "{pattern}");
        }
        let heavy = ".".repeat(1001);
        assert!(check_own_pattern(&heavy).unwrap_err().contains("huge automaton"));
        assert_eq!(check_own_pattern("(a").unwrap_err(), "invalid regex: unclosed group");
    }

    proptest! {
        #[test]
        fn a_simple_pattern_is_valid_and_weighs_as_parsed(
            parts in prop::collection::vec(prop_oneof![
                "[a-z0-9 :=,'\"/#&~%<>é\u{1F600}-]{1,4}",
                prop::sample::select(vec![r"\.", r"\(", r"\)", r"\[", r"\]", r"\{", r"\}", r"\\", r"\-", r"\#",
                    r"\&", r"\~", r"\*", r"\+", r"\?", r"\|", r"\^", r"\$", ".", "(.+?)", "(.*?)", "(.+)", "(.*)",
                    r"(\d+)", "(", ")", "?", "*", r"\d", r"\w", "[a]", "{2}", "|", "^", "$", r"\<", r"\ ", r"\%"])
                    .prop_map(str::to_owned),
            ], 0..12)
        ) {
            let pattern = parts.concat();
            if let Some(states) = simple_pattern_states(&pattern) {
                prop_assert_eq!(Some(states), parsed_states(&pattern), "{}", pattern);
            }
        }
    }

    #[test]
    fn compiled_regexes_of_every_dialect_are_valid_by_their_parts() {
        let messages = [
            ("unable to persist session %q (seq=%d): %v", Dialect::Go),
            ("%-10s|%+5.2f|%#x|%*d|%[1]q|%c|%t|%U|%#U|%08b|%e|%x", Dialect::Go),
            ("%s: %d %5.1f%% %-*s %lu %p %c %o %X %g", Dialect::Printf),
            ("%(name)s: %(count)d %r %5.2f%%", Dialect::Python),
            ("{} and {:>8} {:?} {0:#x}", Dialect::Rust),
            ("{0} {1,-5} {2:N2}", Dialect::CSharp),
            ("%s %d %i %f %j %o %O %%", Dialect::JsFormat),
            ("x ${a} y ${b.c}", Dialect::JsTemplate),
            ("{} {}", Dialect::Slf4j),
            ("%s %d %5.2f %x %b %n", Dialect::JavaFormat),
            ("{name} {count:d} {ratio:.2f} {!r}", Dialect::PythonBrace),
            ("{0} {1,number} {2}", Dialect::MessageFormat),
            ("plain (text) [with] {braces} and \\ %s", Dialect::Plain),
        ];
        let mut regexes = ValueRegexes::default();
        for (message, dialect) in messages {
            let Ok(template) = format::compile(message, dialect) else { continue };
            assert!(regexes.valid_by_parts(&template), "{message}: {}", template.regex);
            assert!(regexes.check(&template).is_ok());
        }
        assert!(regexes.checked.values().all(|&valid| valid), "{:?}", regexes.checked);
    }

    #[test]
    fn on_the_corpora_both_checks_agree_with_a_full_parse_and_most_take_no_parse() {
        let corpora = ["nats-server", "cargo", "django", "kafka", "nodejs-node"];
        let mut regexes = ValueRegexes::default();
        let (mut records, mut simple, mut by_parts) = (0, 0, 0);
        for dir in corpora.iter().filter_map(|name| crate::test_support::corpus(name, "regex_check")) {
            for sourced in crate::load_dir(&dir).records {
                let record = &sourced.record;
                records += 1;
                if let Some(pattern) = record.message_pattern.as_deref().filter(|p| !p.is_empty()) {
                    let parsed = regex_syntax::ast::parse::Parser::new().parse(pattern);
                    let full = parsed.map_err(drop).and_then(|ast| limits::check_pattern(&ast).map_err(drop));
                    assert_eq!(check_own_pattern(pattern).is_ok(), full.is_ok(), "{pattern}");
                    simple += usize::from(simple_pattern_states(pattern).is_some());
                }
                let Ok(template) = format::compile(&record.error_message, super::super::dialect_of(record)) else {
                    continue;
                };
                let full = regex_syntax::ast::parse::Parser::new().parse(&template.regex).is_ok();
                assert_eq!(regexes.check(&template).is_ok(), full, "{}", template.regex);
                by_parts += usize::from(regexes.valid_by_parts(&template));
            }
        }
        if records > 0 {
            assert!(simple * 10 >= records * 9, "{simple} simple patterns of {records} records");
            assert!(by_parts * 10 >= records * 9, "{by_parts} regexes valid by parts of {records} records");
        }
    }

    #[test]
    fn a_regex_that_could_change_what_follows_is_not_composable() {
        for regex in ["(?i)a", "(?P<n>a)", "(?x)a", "*a", "{2}", "(a", r"a\", &"(".repeat(60)] {
            assert!(!composable(regex), "{regex}");
        }
        let template = format::compile("%v %q", Dialect::Go).unwrap();
        for piece in template.pieces.iter() {
            if let Piece::Value { spec, .. } = piece {
                assert!(composable(&format::value_regex(spec, Dialect::Go)));
            }
        }
    }
}
