//! Size limits on what a dataset may ask of the loader, the macro and the
//! matcher. The macro runs inside every user's build and the loader reads
//! files nobody vetted: a record must not be able to hang either, or make
//! them allocate without bound. Each limit is far above what real records
//! need (the 2,008 nats-server messages are at most a few hundred bytes,
//! with at most a dozen placeholders).

use regex_syntax::ast::{Ast, RepetitionKind, RepetitionRange};

/// The largest record file read (`*.json`, or a whole `*.jsonl`), in bytes.
pub const MAX_FILE_BYTES: u64 = 64 << 20;
/// The longest `errorMessage` or `messagePattern`, in bytes.
pub const MAX_MESSAGE_BYTES: usize = 16 << 10;
/// The most placeholders in one message.
pub const MAX_PLACEHOLDERS: usize = 100;
/// The most automaton states a record's own `messagePattern` may expand
/// to, counting each repetition's copies (`(?:a{1000}){1000}` is a million).
pub const MAX_PATTERN_STATES: u64 = 100_000;

/// Why `text` (an `errorMessage` or `messagePattern`) is too long, if it is.
pub fn check_length(text: &str) -> Result<(), String> {
    if text.len() > MAX_MESSAGE_BYTES {
        return Err(format!("too long: {} bytes (the limit is {MAX_MESSAGE_BYTES})", text.len()));
    }
    Ok(())
}

/// An upper bound on the number of automaton states a parsed pattern
/// expands to: pieces add up, repetitions multiply. Cheap (no compilation),
/// so it can run on every record; it saturates instead of overflowing.
pub fn pattern_states(ast: &Ast) -> u64 {
    match ast {
        Ast::Repetition(repetition) => {
            let copies = match &repetition.op.kind {
                RepetitionKind::ZeroOrOne | RepetitionKind::ZeroOrMore | RepetitionKind::OneOrMore => 1,
                RepetitionKind::Range(RepetitionRange::Exactly(n) | RepetitionRange::AtLeast(n)) => {
                    u64::from(*n).max(1)
                }
                RepetitionKind::Range(RepetitionRange::Bounded(_, m)) => u64::from(*m).max(1),
            };
            pattern_states(&repetition.ast).saturating_mul(copies)
        }
        Ast::Group(group) => pattern_states(&group.ast),
        Ast::Alternation(alternation) => sum(&alternation.asts),
        Ast::Concat(concat) => sum(&concat.asts),
        // A class of Unicode characters is an automaton of its own (its
        // UTF-8 byte ranges): weighed as many states.
        Ast::Dot(_) | Ast::ClassUnicode(_) | Ast::ClassPerl(_) | Ast::ClassBracketed(_) => CLASS_STATES,
        _ => 1,
    }
}

const CLASS_STATES: u64 = 100;

fn sum(asts: &[Ast]) -> u64 {
    asts.iter().fold(0, |total, ast| total.saturating_add(pattern_states(ast)))
}

/// Why the parsed `pattern` is too large, if it is.
pub fn check_pattern(ast: &Ast) -> Result<(), String> {
    let states = pattern_states(ast);
    if states > MAX_PATTERN_STATES {
        return Err(format!(
            "the pattern would compile to a huge automaton: about {states} states (the limit is {MAX_PATTERN_STATES})"
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn states(pattern: &str) -> u64 {
        pattern_states(&regex_syntax::ast::parse::Parser::new().parse(pattern).unwrap())
    }

    #[test]
    fn repetitions_multiply_and_pieces_add_up() {
        assert_eq!(states("abc"), 3);
        assert_eq!(states("a(b|cd)*"), 4);
        assert_eq!(states(r"a\w{10}"), 1001);
        assert_eq!(states("(?:ab){3}"), 6);
        assert_eq!(states("(?:a{1000}){1000}"), 1_000_000);
        assert_eq!(states("(?:(?:(?:a{1000}){1000}){1000}){1000}"), 1_000_000_000_000);
        assert!(check_pattern(&regex_syntax::ast::parse::Parser::new().parse("x{1,100}").unwrap()).is_ok());
        let huge = regex_syntax::ast::parse::Parser::new().parse("(?:a{1000}){1000}").unwrap();
        assert!(check_pattern(&huge).unwrap_err().contains("about 1000000 states"));
    }

    #[test]
    fn lengths() {
        assert!(check_length(&"x".repeat(MAX_MESSAGE_BYTES)).is_ok());
        let error = check_length(&"x".repeat(MAX_MESSAGE_BYTES + 1)).unwrap_err();
        assert_eq!(error, "too long: 16385 bytes (the limit is 16384)");
    }
}
