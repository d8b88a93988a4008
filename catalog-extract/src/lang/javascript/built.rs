//! Errors whose message is built before they are made: a variable
//! assigned and appended to first (`let message = `Cannot find module
//! '${request}'`; … new Error(message)`, `let msg = 'Command failed: '; msg
//! += cmd; … genericNodeError(msg, ret)`), and error classes whose
//! constructor builds it for `super(…)` (`class UnhandledPromiseRejection
//! extends Error { code = 'ERR_UNHANDLED_REJECTION'; constructor(reason) {
//! super('This error originated …' + reason + '".') } }`), with the
//! messages of a table of literals the constructor reads
//! (`kReadableOperator[operator]`: `strictEqual: 'Expected values to be
//! strictly equal:'`).

use std::collections::HashMap;

use super::evaluate::{Evaluator, Piece, Shape};
use super::shapes::{calls_of, env_at, literal_constants};
use super::structure::Structure;
use super::tokens::Kind;
use super::{argument_end, braceless_if, is_message_class, join_literals, literal_arg, Call, CallKind, Described};

/// `new XError(expr, …)` and `genericNodeError(expr, …)` whose message is
/// not a literal (those are `new_calls`'), with what the variables before
/// it in its block make of `expr`.
pub(super) fn built_errors(s: &Structure, file: &str) -> Vec<Call> {
    let evaluator = Evaluator::new(s.src, s.tokens, &[]);
    let mut constants = None;
    let mut out = Vec::new();
    for i in 0..s.tokens.len().saturating_sub(3) {
        let Some((class, open)) = error_made_at(s, i) else { continue };
        let close = s.matching(open);
        let (a, b) = (open + 1, argument_end(s, open + 1));
        if b == a || literal_arg(s, a).is_some_and(|(_, after)| after == b) {
            continue;
        }
        let constants = constants.get_or_insert_with(|| literal_constants(s, &evaluator));
        let env = env_at(s, &evaluator, constants, i);
        // Built here: the argument reads a variable the block assigned.
        let assigned = (a..b).filter(|&k| s.tokens[k].kind == Kind::Ident).find(|&k| env.contains_key(s.text(k)));
        let Some(variable) = assigned else { continue };
        let thrown = i > 0 && s.text(i - 1) == "throw";
        let made = if thrown { i - 1 } else { i };
        let first_token = declaration_of(s, s.text(variable), made).unwrap_or(made);
        let last_token = close + usize::from(s.text(close + 1) == ";");
        let where_ = s.function(i).unwrap_or_else(|| "module-level code".to_string());
        let when = braceless_if(s, made)
            .or_else(|| s.condition(i))
            .filter(|c| c.chars().count() <= 90 && !c.contains('`'))
            .map_or(String::new(), |c| format!(" when `{c}`"));
        let verb = if thrown { "Thrown" } else { "Created" };
        let documentation = format!(
            "{verb} as {} {class} by {where_} in {file}{when}, its message built in `{}` first.",
            article(&class),
            s.text(variable)
        );
        let described = Described {
            error_type: "exception",
            error_class: Some(class.clone()),
            error_code: None,
            severity: "error",
            documentation,
        };
        let shapes = with_text(evaluator.expression(a, b, &env));
        out.extend(calls_of(shapes, s.tokens[first_token].line, (first_token, last_token), &described));
    }
    out
}

/// `class X extends YError { … constructor(…) { … super(message) } }`: the
/// messages the constructor gives `super`, and those of the tables of
/// literals it reads, with the class's code (a `code = 'ERR_…'` field or
/// `this.code = 'ERR_…'`). Classes that build a system error from libuv's
/// names are `system_errors`'.
pub(super) fn error_classes(s: &Structure, file: &str) -> Vec<Call> {
    let evaluator = Evaluator::new(s.src, s.tokens, &[]);
    let tables = literal_tables(s);
    let mut out = Vec::new();
    for i in 0..s.tokens.len().saturating_sub(4) {
        let extends_error = s.text(i) == "class" && s.text(i + 2) == "extends" && is_message_class(s.text(i + 3));
        if !extends_error || s.text(i + 4) != "{" {
            continue;
        }
        let class = s.text(i + 1);
        let class_end = s.matching(i + 4);
        let at_class_depth = |k: usize| s.enclosing_brace(k) == i + 4;
        let Some(constructor) =
            (i + 5..class_end).find(|&k| s.text(k) == "constructor" && s.text(k + 1) == "(" && at_class_depth(k))
        else {
            continue;
        };
        let open = s.matching(constructor + 1) + 1;
        if s.text(open) != "{" {
            continue;
        }
        let close = s.matching(open);
        if (open..close).any(|k| matches!(s.text(k), "uvErrmapGet" | "getSystemErrorName")) {
            continue;
        }
        let Some(super_call) = (open..close).find(|&k| s.text(k) == "super" && s.text(k + 1) == "(") else { continue };
        let field = (i + 5..class_end).find(|&k| s.text(k) == "code" && s.text(k + 1) == "=" && at_class_depth(k));
        let assigned = (open..close).find(|&k| s.text(k) == "this" && s.text(k + 1) == "." && s.text(k + 2) == "code");
        let code = field
            .or(assigned.map(|k| k + 2))
            .filter(|&k| s.text(k + 1) == "=")
            .and_then(|k| s.tokens.get(k + 2).filter(|t| t.kind == Kind::Str).map(|_| s.text(k + 2)))
            .map(|quoted| super::cook(&quoted[1..quoted.len() - 1]));
        let base = s.text(i + 3);
        let coded = code.as_ref().map_or(String::new(), |c| format!(" with code {c}"));
        let documentation = format!(
            "Built by the {class} constructor in {file} (a class extending {base}); Node throws it as {} {class}{coded}.",
            article(class)
        );
        let described = |documentation: String| Described {
            error_type: "exception",
            error_class: Some(class.to_string()),
            error_code: code.clone(),
            severity: "error",
            documentation,
        };
        let read_tables = (open..close).filter(|&k| s.text(k + 1) == "[").filter_map(|k| tables.get(s.text(k)));
        let mut entries: Vec<usize> = read_tables.flatten().copied().collect();
        entries.sort_unstable();
        entries.dedup();
        for literal in entries {
            let table = s.text(s.enclosing_brace(literal).saturating_sub(2));
            out.push(Call {
                literals: join_literals(s, &[literal]),
                first_token: literal,
                last_token: literal,
                kind: CallKind::Built(described(format!(
                    "A message of the table {table} in {file}, which the {class} constructor reads; Node throws it as {} {class}{coded}.",
                    article(class)
                ))),
            });
        }
        let last_token = s.matching(super_call + 1);
        let shapes = with_text(evaluator.body(open + 1, close, Default::default()));
        out.extend(calls_of(shapes, s.tokens[super_call].line, (super_call, last_token), &described(documentation)));
    }
    out
}

/// The objects of string literals a file keeps in a constant (`const
/// kReadableOperator = { strictEqual: '…', … }`), by name: the tokens of
/// their values.
fn literal_tables<'a>(s: &Structure<'a>) -> HashMap<&'a str, Vec<usize>> {
    let mut tables = HashMap::new();
    for k in 0..s.tokens.len().saturating_sub(4) {
        if !(s.text(k) == "const"
            && s.tokens[k + 1].kind == Kind::Ident
            && s.text(k + 2) == "="
            && s.text(k + 3) == "{")
        {
            continue;
        }
        let close = s.matching(k + 3);
        let mut values = Vec::new();
        let mut j = k + 4;
        // `key: 'literal',` entries only.
        while j + 2 < close
            && matches!(s.tokens[j].kind, Kind::Ident | Kind::Str)
            && s.text(j + 1) == ":"
            && s.tokens[j + 2].kind == Kind::Str
            && matches!(s.text(j + 3), "," | "}")
        {
            values.push(j + 2);
            j += 4;
        }
        if !values.is_empty() && j >= close {
            tables.insert(s.text(k + 1), values);
        }
    }
    tables
}

/// The error class made at token `i` and the `(` of its arguments: `new
/// XError(` (an error class whose first argument is its message) or
/// Node's `genericNodeError(` (an Error; the warnings it makes are
/// `warnings`').
fn error_made_at(s: &Structure, i: usize) -> Option<(String, usize)> {
    if s.tokens[i].kind != Kind::Ident {
        return None;
    }
    if s.text(i) == "genericNodeError" && s.text(i + 1) == "(" && s.text(i.wrapping_sub(1)) != "function" {
        let close = s.matching(i + 1);
        let names_warning = (i + 2..close).any(|k| s.text(k) == "name" && s.text(k + 1) == ":");
        return (!names_warning).then(|| ("Error".to_string(), i + 1));
    }
    let class = s.text(i + 1);
    let made = s.text(i) == "new" && s.tokens[i + 1].kind == Kind::Ident && s.text(i + 2) == "(";
    (made && is_message_class(class)).then(|| (class.to_string(), i + 2))
}

/// The `let`/`const`/`var` declaring `name` before token `at`, in the
/// same block.
fn declaration_of(s: &Structure, name: &str, at: usize) -> Option<usize> {
    let block = s.enclosing_brace(at);
    (block + 1..at).find(|&k| matches!(s.text(k), "let" | "const" | "var") && s.text(k + 1) == name)
}

/// The shapes with text of their own (a hole alone says nothing).
fn with_text(shapes: Vec<Shape>) -> Vec<Shape> {
    shapes
        .into_iter()
        .filter(|shape| shape.iter().any(|p| matches!(p, Piece::Text(t) if !t.trim().is_empty())))
        .collect()
}

fn article(class: &str) -> &'static str {
    if class.starts_with(['A', 'E', 'I', 'O', 'U']) {
        "an"
    } else {
        "a"
    }
}
