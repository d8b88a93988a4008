//! Other splits of a message into its placeholders' texts.
//!
//! A template's regex picks one split of a message: its lazy text takes as
//! little as it can, its numbers' digits as many as they can. When the
//! values of that split disagree (a text argument rendered twice, `%s%s` of
//! `samplesample` split as `s`, `amplesample`) or do not parse (`%0o0%099F`:
//! the octal's greedy digits take the literal `0` and the next number's
//! zero padding), another split may be the message the program wrote. They
//! are tried in order (each placeholder's shortest text first) within a
//! bounded budget of steps, so that no line costs more than a fixed amount.

use regex::Regex;

use super::values_of;
use crate::format::{value_regex, Count, Dialect, Piece, Template};
use crate::model::Value;

/// Steps (a placeholder's text tried at one end) per message.
const BUDGET: usize = 4096;

/// The first split of `text` (from its start; to its end when
/// `anchored_end`) whose values agree: the end of the message and its values.
/// In a line (`in_line`), a message's final line break has been trimmed.
pub(crate) fn values<'h>(
    template: &Template,
    text: &'h str,
    anchored_end: bool,
    in_line: bool,
) -> Option<(usize, Vec<Value<'h>>)> {
    if template.dialect == Dialect::Pattern {
        return None;
    }
    let mut regexes = Vec::new();
    for piece in template.pieces.iter() {
        if let Piece::Value { spec, .. } = piece {
            regexes.push(Regex::new(&format!("^(?s:{})$", value_regex(spec, template.dialect))).ok()?);
        }
    }
    let mut search = Search { template, text, anchored_end, in_line, regexes, texts: Vec::new(), budget: BUDGET };
    search.from(0, 0, 0)
}

struct Search<'t, 'h> {
    template: &'t Template,
    text: &'h str,
    anchored_end: bool,
    in_line: bool,
    /// One per value piece, anchored at both ends.
    regexes: Vec<Regex>,
    /// The captured text of each value piece so far.
    texts: Vec<&'h str>,
    budget: usize,
}

impl<'h> Search<'_, 'h> {
    /// Matches pieces `piece..` from byte `at`; `value` counts value pieces before.
    fn from(&mut self, piece: usize, value: usize, at: usize) -> Option<(usize, Vec<Value<'h>>)> {
        let text = self.text;
        let Some(current) = self.template.pieces.get(piece) else {
            if self.anchored_end && at != text.len() {
                return None;
            }
            return values_of(self.template, self.texts.clone()).map(|values| (at, values));
        };
        match current {
            Piece::Literal(literal) => {
                let last = piece + 1 == self.template.pieces.len();
                let literal = if last && self.in_line { literal.trim_end_matches(['\n', '\r']) } else { literal };
                if !text[at..].starts_with(literal) {
                    return None;
                }
                self.from(piece + 1, value, at + literal.len())
            }
            Piece::Value { field, spec } => {
                // A field written again with the same spec and no padding
                // outside its capture writes the same text again: only that
                // end can agree (this keeps a message that repeats its fields
                // among touching placeholders within the budget). A `*` count
                // named by its argument (`%[4]*[1]d`) is the same both times,
                // and its padding is inside the capture; a `*` taken from the
                // argument before may not be.
                let again = (self.template.pieces[..piece].iter())
                    .filter_map(|p| match p {
                        Piece::Value { field, spec } => Some((field, spec)),
                        Piece::Literal(_) => None,
                    })
                    .zip(&self.texts)
                    .find(|((f, s), _)| {
                        *f == field
                            && *s == spec
                            && matches!(spec.width, Count::None | Count::Arg(_))
                            && spec.precision != Count::Star
                    })
                    .map(|(_, text)| *text);
                // Only ends that what follows can start at are worth a step
                // of the budget: the next literal's occurrences, or the end
                // of an anchored message after the last piece.
                let (pieces, anchored_end) = (&self.template.pieces, self.anchored_end);
                let next_literal = match pieces.get(piece + 1) {
                    Some(Piece::Literal(literal)) if piece + 2 == pieces.len() && self.in_line => {
                        Some(literal.trim_end_matches(['\n', '\r']))
                    }
                    Some(Piece::Literal(literal)) => Some(literal.as_ref()),
                    _ => None,
                };
                let last = piece + 1 == pieces.len();
                let viable = move |end: usize| {
                    text.is_char_boundary(end)
                        && next_literal.is_none_or(|literal| text[end..].starts_with(literal))
                        && !(last && anchored_end && end != text.len())
                };
                let ends: Box<dyn Iterator<Item = usize>> = match again {
                    Some(previous) if text[at..].starts_with(previous) => {
                        Box::new(std::iter::once(at + previous.len()))
                    }
                    Some(_) => return None,
                    None => Box::new((at..=text.len()).filter(move |&end| viable(end))),
                };
                for end in ends {
                    if self.budget == 0 {
                        return None;
                    }
                    self.budget -= 1;
                    let Some(captures) = self.regexes[value].captures(&text[at..end]) else { continue };
                    let Some(group) = captures.get(1) else { continue };
                    self.texts.push(&text[at + group.start()..at + group.end()]);
                    if let Some(found) = self.from(piece + 1, value + 1, end) {
                        return Some(found);
                    }
                    self.texts.pop();
                }
                None
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::format::compile;
    use crate::matcher::Matcher;
    use crate::model::Value;
    use crate::Dialect;

    #[test]
    fn a_text_argument_rendered_twice_is_split_where_both_agree() {
        let template = compile("%(k)s%(k)s", Dialect::Python).unwrap();
        let found = Matcher::new([&template]).parse("samplesample").unwrap();
        assert_eq!(found.values, [Value::Str("sample".into())]);
        let template = compile("[%[1]s|%[1]s]", Dialect::Go).unwrap();
        assert_eq!(Matcher::new([&template]).find("x [a|b|a|b] y").unwrap().values, [Value::Str("a|b".into())]);
    }

    #[test]
    fn fields_repeated_among_touching_placeholders_stay_within_the_budget() {
        // Found by fuzzing: Python mapping keys written again between and
        // among touching placeholders, with long literals, ran out of steps.
        let format =
            "%(a)sled %(b)s ????????????py?i\n%(c)sled %(b)s%(d)s%(e)s ??????????????????????????name.r(nam%(b)s fa(";
        let template = compile(format, Dialect::Python).unwrap();
        let message = template.render(&template.sample_values()).unwrap();
        let found = Matcher::new([&template]).parse(&message);
        assert!(found.is_some_and(|found| template.render(&found.values).unwrap() == message), "{message:?}");
    }

    #[test]
    fn a_number_followed_by_literal_digits_is_split_where_both_parse() {
        let template = compile("%d0%d", Dialect::Go).unwrap();
        let message = template.render(&[Value::Int(7), Value::Int(5)]).unwrap();
        assert_eq!(message, "705");
        let found = Matcher::new([&template]).parse(&message).unwrap();
        // `70` and `5` would not do: the literal `0` must follow the first number.
        assert_eq!(found.values.len(), 2);
        assert_eq!(template.render(&found.values).unwrap(), message);
    }
}
