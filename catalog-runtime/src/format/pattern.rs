//! A record's own `messagePattern` regex as a [`Template`].

use std::borrow::Cow;

use regex_syntax::ast::{parse::Parser, Ast, ClassPerlKind, GroupKind, RepetitionKind};

use super::{Count, Dialect, Field, Flags, FormatError, Piece, Spec, Syntax, Template, ValueKind};

/// The spec of every placeholder of a pattern template.
const SPEC: Spec = Spec { verb: 'v', flags: Flags::NONE, width: Count::None, precision: Count::None };

/// Compiles a record's `messagePattern` (a `regex` crate pattern) into a
/// [`Dialect::Pattern`] template whose regex is the pattern itself.
///
/// Each capture group is a [`ValueKind::Text`] field named after the group,
/// or `argN` (`N` counting groups from zero). When the pattern is a plain
/// sequence of literal characters and capture groups, the pieces are those
/// literals and placeholders, and rendering the template writes a message the
/// pattern matches. Otherwise (alternations, classes, repetitions... at the
/// top level) the pieces are the pattern text itself followed by `" "` and a
/// placeholder for each group: such a template does not round-trip, it only
/// renders something readable. Nested capture groups are an error.
/// `literal_len` counts the literal characters at the top level.
pub fn compile_pattern(pattern: &str) -> Result<Template, FormatError> {
    let error = |offset: usize, message: String| FormatError::new(offset, message);
    let ast = Parser::new().parse(pattern).map_err(|e| error(e.span().start.offset, e.kind().to_string()))?;
    regex_syntax::hir::translate::Translator::new()
        .translate(pattern, &ast)
        .map_err(|e| error(e.span().start.offset, e.kind().to_string()))?;
    let mut names = Vec::new();
    capture_names(&ast, false, &mut names)?;
    let fields: Vec<Field> = names
        .into_iter()
        .enumerate()
        .map(|(index, name)| {
            let arg = u16::try_from(index).unwrap_or(u16::MAX);
            let name = name.unwrap_or_else(|| format!("arg{index}"));
            Field { name: Cow::Owned(name), kind: ValueKind::Text, arg }
        })
        .collect();

    let top: &[Ast] = match &ast {
        Ast::Concat(concat) => &concat.asts,
        Ast::Empty(_) => &[],
        other => std::slice::from_ref(other),
    };
    let literal_len = top.iter().filter(|ast| matches!(ast, Ast::Literal(_))).count();
    let simple = top.iter().all(|ast| match ast {
        Ast::Literal(_) => true,
        Ast::Group(group) => group.is_capturing(),
        _ => false,
    });
    let value = |field: usize| Piece::Value { field: u16::try_from(field).unwrap_or(u16::MAX), spec: SPEC };
    let mut pieces = Vec::new();
    if simple {
        let mut literal = String::new();
        for ast in top {
            match ast {
                Ast::Literal(lit) => literal.push(lit.c),
                _ => {
                    if !literal.is_empty() {
                        pieces.push(Piece::Literal(Cow::Owned(std::mem::take(&mut literal))));
                    }
                    pieces.push(value(pieces.iter().filter(|p| matches!(p, Piece::Value { .. })).count()));
                }
            }
        }
        if !literal.is_empty() {
            pieces.push(Piece::Literal(Cow::Owned(literal)));
        }
    } else {
        pieces.push(Piece::Literal(Cow::Owned(pattern.to_owned())));
        for field in 0..fields.len() {
            pieces.push(Piece::Literal(Cow::Borrowed(" ")));
            pieces.push(value(field));
        }
    }
    Ok(Template {
        dialect: Dialect::Pattern,
        pieces: Cow::Owned(pieces),
        fields: Cow::Owned(fields),
        regex: Cow::Owned(pattern.to_owned()),
        literal_len: u32::try_from(literal_len).unwrap_or(u32::MAX),
    })
}

/// Whether a [`Dialect::Pattern`] template's pieces describe its regex: the
/// pattern is a plain sequence of literal characters and capture groups, so
/// every match holds its literal pieces, in order. A pattern of another
/// shape has its own text as first piece (see [`compile_pattern`]), which
/// holds a character that is special in a regex; a plain literal whose
/// text is the whole regex holds none. (A plain pattern that holds such a
/// character unescaped, like `]`, is taken for the other shape: it is only
/// matched without the matcher's literal shortcuts, never wrongly.)
pub(crate) fn pieces_describe_regex(template: &Template) -> bool {
    match template.pieces.first() {
        Some(Piece::Literal(text)) if *text == template.regex => {
            !text.contains(['\\', '.', '+', '*', '?', '(', ')', '|', '[', ']', '{', '}', '^', '$'])
        }
        _ => true,
    }
}

/// The syntax of each capture group of a plain pattern (literal characters
/// and capture groups; `None` for another shape): `(.*?)` is
/// [`Syntax::Lazy`], `(.+?)` [`Syntax::LazyNonEmpty`], `(\d+)`
/// [`Syntax::Digits`], any other group [`Syntax::Other`]. For matchers that do without the regex.
pub(crate) fn group_syntaxes(pattern: &str) -> Option<Vec<Syntax>> {
    let ast = Parser::new().parse(pattern).ok()?;
    let top: &[Ast] = match &ast {
        Ast::Concat(concat) => &concat.asts,
        Ast::Empty(_) => &[],
        other => std::slice::from_ref(other),
    };
    let mut syntaxes = Vec::new();
    for ast in top {
        match ast {
            Ast::Literal(_) => {}
            Ast::Group(group) if group.is_capturing() => syntaxes.push(match group.ast.as_ref() {
                // `.` without flags: any character but a line break.
                Ast::Repetition(rep) if !rep.greedy && matches!(rep.ast.as_ref(), Ast::Dot(_)) => match rep.op.kind {
                    RepetitionKind::ZeroOrMore => Syntax::Lazy,
                    RepetitionKind::OneOrMore => Syntax::LazyNonEmpty,
                    _ => Syntax::Other,
                },
                Ast::Repetition(rep)
                    if rep.greedy
                        && rep.op.kind == RepetitionKind::OneOrMore
                        && matches!(rep.ast.as_ref(), Ast::ClassPerl(class)
                            if class.kind == ClassPerlKind::Digit && !class.negated) =>
                {
                    Syntax::Digits
                }
                _ => Syntax::Other,
            }),
            _ => return None,
        }
    }
    Some(syntaxes)
}

/// The capture groups of `ast` in order (`Some(name)` for named ones).
fn capture_names(ast: &Ast, in_capture: bool, names: &mut Vec<Option<String>>) -> Result<(), FormatError> {
    match ast {
        Ast::Group(group) => {
            let capturing = group.is_capturing();
            if capturing {
                if in_capture {
                    let message = "nested capture groups are not supported";
                    return Err(FormatError::new(group.span.start.offset, message));
                }
                names.push(match &group.kind {
                    GroupKind::CaptureName { name, .. } => Some(name.name.clone()),
                    _ => None,
                });
            }
            capture_names(&group.ast, in_capture || capturing, names)
        }
        Ast::Repetition(repetition) => capture_names(&repetition.ast, in_capture, names),
        Ast::Alternation(alternation) => {
            alternation.asts.iter().try_for_each(|ast| capture_names(ast, in_capture, names))
        }
        Ast::Concat(concat) => concat.asts.iter().try_for_each(|ast| capture_names(ast, in_capture, names)),
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn literal_and_groups() {
        let template = compile_pattern(r"unable to persist session %q \(seq=(.+?)\): (?P<err>.+?)").unwrap();
        let value = |field| Piece::Value { field, spec: SPEC };
        assert_eq!(
            template.pieces.as_ref(),
            [
                Piece::Literal("unable to persist session %q (seq=".into()),
                value(0),
                Piece::Literal("): ".into()),
                value(1),
            ]
        );
        let names: Vec<(&str, u16, ValueKind)> =
            template.fields.iter().map(|f| (f.name.as_ref(), f.arg, f.kind)).collect();
        assert_eq!(names, [("arg0", 0, ValueKind::Text), ("err", 1, ValueKind::Text)]);
        assert_eq!(template.literal_len, 37);
        assert_eq!(template.dialect, Dialect::Pattern);

        let mut rendered = String::new();
        let values = [crate::model::Value::Str("7".into()), crate::model::Value::Str("boom".into())];
        super::super::render_template(&mut rendered, &template, &values).unwrap();
        assert_eq!(rendered, "unable to persist session %q (seq=7): boom");
        let regex = regex::Regex::new(&format!("^(?s:{})$", template.regex)).unwrap();
        assert_eq!(&regex.captures(&rendered).unwrap()[2], "boom");
    }

    #[test]
    fn alternation_is_kept_as_text() {
        let pattern = r"(?:connection (reset)|timeout) after (\d+)ms";
        let template = compile_pattern(pattern).unwrap();
        let value = |field| Piece::Value { field, spec: SPEC };
        assert_eq!(
            template.pieces.as_ref(),
            [
                Piece::Literal(pattern.into()),
                Piece::Literal(" ".into()),
                value(0),
                Piece::Literal(" ".into()),
                value(1)
            ]
        );
        assert_eq!(template.regex, pattern);
        assert_eq!(template.fields.len(), 2);
        assert_eq!(template.literal_len, " after ms".len() as u32);
        let template = compile_pattern("a|b").unwrap();
        assert_eq!(template.pieces.as_ref(), [Piece::Literal("a|b".into())]);
        assert_eq!(template.literal_len, 0);
    }

    #[test]
    fn which_templates_describe_their_regex() {
        let describes = |pattern: &str| pieces_describe_regex(&compile_pattern(pattern).unwrap());
        assert!(describes("not trusted"));
        assert!(describes(r"a\.b (.*?) c"));
        assert!(describes(r"(.+?): x"));
        assert!(describes(""));
        assert!(!describes("a|b"));
        assert!(!describes(r"(?:x|y) after (\d+)ms"));
        assert!(!describes(r"\d+"));
        assert!(!describes("a.b"));
    }

    #[test]
    fn group_syntaxes_of_plain_patterns() {
        assert_eq!(
            group_syntaxes(r"a (.*?) b (.+?) c (\d+) d (.*) e (\d+?) f (\D+)").unwrap(),
            [Syntax::Lazy, Syntax::LazyNonEmpty, Syntax::Digits, Syntax::Other, Syntax::Other, Syntax::Other]
        );
        assert_eq!(group_syntaxes("plain").unwrap(), []);
        assert_eq!(group_syntaxes(r"(?s)(.*?)"), None);
        assert_eq!(group_syntaxes(r"a|(.*?)"), None);
        assert_eq!(group_syntaxes(r"(?:x)(.*?)"), None);
    }

    #[test]
    fn errors() {
        let error = compile_pattern("a ((b) c)").unwrap_err();
        assert_eq!(error.offset, 3);
        assert!(error.message.contains("nested"));
        assert_eq!(compile_pattern("a (b").unwrap_err().offset, 2);
        assert!(compile_pattern(r"\p{Nope}").is_err());
        assert_eq!(compile_pattern("").unwrap().pieces.len(), 0);
    }
}
