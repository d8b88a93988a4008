//! The messages Node writes most that are not a literal argument: `E(code,
//! fn)` definitions whose message a function builds, the system errors
//! (`ENOENT: no such file or directory, open '…'`) that Node's error classes
//! build from libuv's error names and descriptions, and warnings
//! (`process.emitWarning(…)`, `deprecate(fn, msg, 'DEP0005')`,
//! `genericNodeError(msg, { name: 'MaxListenersExceededWarning' })`).

use super::evaluate::{Env, Evaluator, Piece, Shape};
use super::structure::Structure;
use super::tokens::Kind;
use super::{argument_end, braceless_if, Call, CallKind, Described, Literals};

/// libuv's error names and descriptions, from the `UV_ERRNO_MAP` of its
/// `uv.h` (`XX(ENOENT, "no such file or directory")`).
pub fn uv_errno_map(header: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for line in header.lines() {
        let Some(rest) = line.trim().strip_prefix("XX(") else { continue };
        let Some((name, desc)) = rest.split_once(',') else { continue };
        let desc = desc.trim().trim_end_matches('\\').trim().trim_end_matches(')').trim();
        let Some(desc) = desc.strip_prefix('"').and_then(|d| d.strip_suffix('"')) else { continue };
        if name.chars().all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_') {
            out.push((name.to_string(), desc.to_string()));
        }
    }
    out
}

/// Where the function argument starting at token `at` has its body: the
/// body's range and whether it is a block (`{…}`) rather than an expression.
fn function_body(s: &Structure, at: usize) -> Option<(usize, usize, bool)> {
    let mut k = at;
    if s.text(k) == "function" {
        k += 1;
        if s.tokens[k].kind == Kind::Ident {
            k += 1;
        }
        if s.text(k) != "(" {
            return None;
        }
        let open = s.matching(k) + 1;
        return (s.text(open) == "{").then(|| (open + 1, s.matching(open), true));
    }
    let arrow = if s.text(k) == "(" {
        s.matching(k) + 1
    } else if s.tokens[k].kind == Kind::Ident {
        k + 1
    } else {
        return None;
    };
    if s.text(arrow) != "=>" {
        return None;
    }
    k = arrow + 1;
    if s.text(k) == "{" {
        return Some((k + 1, s.matching(k), true));
    }
    Some((k, argument_end(s, k), false))
}

/// `E('ERR_X', fn, Base…)`: the messages `fn` returns.
pub(super) fn built_definitions(s: &Structure) -> Vec<Call> {
    let mut out = Vec::new();
    let evaluator = Evaluator::new(s.src, s.tokens, &[]);
    for i in 0..s.tokens.len().saturating_sub(3) {
        if !(s.tokens[i].kind == Kind::Ident && s.text(i) == "E" && s.text(i + 1) == "(") {
            continue;
        }
        if (i > 0 && (s.text(i - 1) == "." || s.text(i - 1) == "function")) || s.tokens[i + 2].kind != Kind::Str {
            continue;
        }
        let quoted = s.text(i + 2);
        let code = super::cook(&quoted[1..quoted.len() - 1]);
        if !code.starts_with("ERR_") || s.text(i + 3) != "," {
            continue;
        }
        let Some((start, end, block)) = function_body(s, i + 4) else { continue };
        let shapes =
            if block { evaluator.body(start, end, Env::new()) } else { evaluator.expression(start, end, &Env::new()) };
        let close = s.matching(i + 1);
        let mut bases = Vec::new();
        let mut k = argument_end(s, i + 4) + 1;
        while k < close {
            let arg_end = argument_end(s, k);
            bases.push(s.source_text(k, arg_end - 1));
            k = arg_end + 1;
        }
        if bases.first().is_some_and(|b| b == "SystemError") {
            continue;
        }
        let class = bases.first().cloned();
        let shown = class.as_deref().unwrap_or("Error");
        let article = if shown.starts_with(['A', 'E', 'I', 'O', 'U']) { "an" } else { "a" };
        let last_token = close + usize::from(s.text(close + 1) == ";");
        for shape in shapes {
            let documentation = format!(
                "Defined by E('{code}') in {}, its message built by a function; Node throws it as {article} {shown} with code {code} where the code does `new {code}(...)`.",
                super::ERRORS_FILE
            );
            out.push(Call {
                literals: Literals::of_shape(&shape, s.tokens[i + 2].line),
                first_token: i,
                last_token,
                kind: CallKind::Built(Described {
                    error_type: "exception",
                    error_class: class.clone(),
                    error_code: Some(code.clone()),
                    severity: "error",
                    documentation,
                }),
            });
        }
    }
    out
}

/// The messages of `class X extends Error { constructor(…) { … super(msg) } }`
/// classes that build a system error from a libuv error, for each libuv error.
pub(super) fn system_errors(s: &Structure, uv_errors: &[(String, String)]) -> Vec<Call> {
    let mut out = Vec::new();
    let pinned = ["code", "uvmsg"];
    let evaluator = Evaluator::new(s.src, s.tokens, &pinned);
    for i in 0..s.tokens.len().saturating_sub(4) {
        if !(s.text(i) == "class" && s.text(i + 2) == "extends" && s.text(i + 3) == "Error" && s.text(i + 4) == "{") {
            continue;
        }
        let class = s.text(i + 1);
        let class_end = s.matching(i + 4);
        let Some(constructor) = (i + 5..class_end).find(|&k| s.text(k) == "constructor" && s.text(k + 1) == "(") else {
            continue;
        };
        let open = s.matching(constructor + 1) + 1;
        if s.text(open) != "{" {
            continue;
        }
        let close = s.matching(open);
        let uses_uv = (open..close).any(|k| matches!(s.text(k), "uvErrmapGet" | "getSystemErrorName"));
        let Some(super_call) = (open..close).find(|&k| s.text(k) == "super" && s.text(k + 1) == "(") else { continue };
        if !uses_uv {
            continue;
        }
        let last_token = s.matching(super_call + 1);
        for (code, description) in uv_errors {
            let mut env = Env::new();
            env.insert("code".to_string(), vec![vec![Piece::Text(code.clone())]]);
            env.insert("uvmsg".to_string(), vec![vec![Piece::Text(description.clone())]]);
            for shape in evaluator.body(open + 1, close, env) {
                let documentation = format!(
                    "Built by the {class} constructor in {} for the libuv error {code} ({description}); Node throws it as an Error with code {code}.",
                    super::ERRORS_FILE
                );
                out.push(Call {
                    literals: Literals::of_shape(&shape, s.tokens[super_call].line),
                    first_token: constructor,
                    last_token,
                    kind: CallKind::Built(Described {
                        error_type: "exception",
                        error_class: Some("Error".to_string()),
                        error_code: Some(code.clone()),
                        severity: "error",
                        documentation,
                    }),
                });
            }
        }
    }
    out
}

/// The variables a file assigns only string literals to (`const
/// bufferWarning = '…';`).
pub(super) fn literal_constants(s: &Structure, evaluator: &Evaluator) -> Env {
    let mut env = Env::new();
    for k in 0..s.tokens.len().saturating_sub(3) {
        if !(s.text(k) == "const" && s.tokens[k + 1].kind == Kind::Ident && s.text(k + 2) == "=") {
            continue;
        }
        let end = argument_end(s, k + 3).min((k + 3..s.tokens.len()).find(|&e| s.text(e) == ";").unwrap_or(usize::MAX));
        let shapes = evaluator.expression(k + 3, end, &Env::new());
        if shapes.iter().all(|shape| shape.iter().all(|p| matches!(p, Piece::Text(_)))) {
            env.insert(s.text(k + 1).to_string(), shapes);
        }
    }
    env
}

/// The variables at token `at`: the file's literal constants, then what the
/// statements before it in its block assign.
pub(super) fn env_at(s: &Structure, evaluator: &Evaluator, constants: &Env, at: usize) -> Env {
    let mut depth = 0;
    let block_start = (0..at)
        .rev()
        .find(|&k| {
            match s.text(k) {
                "}" if s.tokens[k].kind == Kind::Op => depth += 1,
                "{" if s.tokens[k].kind == Kind::Op => {
                    if depth == 0 {
                        return true;
                    }
                    depth -= 1;
                }
                _ => {}
            }
            false
        })
        .map_or(0, |k| k + 1);
    let statement_start =
        (block_start..at).rev().find(|&k| s.text(k) == ";" || s.text(k) == "}").map_or(block_start, |k| k + 1);
    evaluator.run(block_start, statement_start, constants.clone())
}

/// `process.emitWarning(msg, 'Type', 'CODE')`, `deprecate(fn, msg, 'DEP…')`,
/// `genericNodeError(msg, { name: 'XWarning', … })`.
pub(super) fn warnings(s: &Structure, file: &str) -> Vec<Call> {
    let evaluator = Evaluator::new(s.src, s.tokens, &[]);
    let mut constants = None;
    let mut out = Vec::new();
    for i in 0..s.tokens.len().saturating_sub(2) {
        let name = s.text(i);
        if !(matches!(name, "emitWarning" | "deprecate" | "genericNodeError") && s.text(i + 1) == "(") {
            continue;
        }
        if i > 0 && s.text(i - 1) == "function" {
            continue;
        }
        let close = s.matching(i + 1);
        let mut args = Vec::new();
        let mut k = i + 2;
        while k < close {
            let end = argument_end(s, k);
            args.push((k, end));
            k = end + 1;
        }
        let literal = |arg: Option<&(usize, usize)>| {
            arg.filter(|(a, b)| b - a == 1 && s.tokens[*a].kind == Kind::Str).map(|(a, _)| {
                let quoted = s.text(*a);
                super::cook(&quoted[1..quoted.len() - 1])
            })
        };
        let (message_arg, class, code) = match name {
            "emitWarning" => (args.first(), literal(args.get(1)).or(Some("Warning".to_string())), literal(args.get(2))),
            "deprecate" => (args.get(1), Some("DeprecationWarning".to_string()), literal(args.get(2))),
            _ => {
                let class = args.get(1).and_then(|&(a, b)| {
                    (a..b)
                        .find(|&k| s.text(k) == "name" && s.text(k + 1) == ":")
                        .and_then(|k| literal(Some(&(k + 2, k + 3))))
                });
                (args.first(), class.filter(|c| c.ends_with("Warning")), None)
            }
        };
        let (Some(&(a, b)), Some(class)) = (message_arg, class) else { continue };
        if !class.ends_with("Warning") {
            continue;
        }
        let constants = constants.get_or_insert_with(|| literal_constants(s, &evaluator));
        let env = env_at(s, &evaluator, constants, i);
        let first_token = if i >= 2 && s.text(i - 1) == "." { i - 2 } else { i };
        let last_token = close + usize::from(s.text(close + 1) == ";");
        let function = s.function(i);
        let condition = braceless_if(s, first_token).or_else(|| s.condition(i));
        let when = condition
            .filter(|c| c.chars().count() <= 90 && !c.contains('`'))
            .map_or(String::new(), |c| format!(" when `{c}`"));
        let where_ = function.as_deref().unwrap_or("module-level code");
        let coded = code.as_ref().map_or(String::new(), |c| format!(" ({c})"));
        let described = Described {
            error_type: "warning",
            error_class: Some(class.clone()),
            error_code: code.clone(),
            severity: "warning",
            documentation: format!("Emitted as a {class}{coded} by {where_} in {file}{when}."),
        };
        out.extend(calls_of(evaluator.expression(a, b, &env), s.tokens[a].line, (first_token, last_token), &described));
    }
    out
}

/// A call for each message a built one can be, all alike but for it:
/// `line` the message's, `tokens` the first and last of the call.
pub(super) fn calls_of(
    shapes: Vec<Shape>,
    line: u32,
    tokens: (usize, usize),
    described: &Described,
) -> impl Iterator<Item = Call> + '_ {
    shapes.into_iter().map(move |shape| Call {
        literals: Literals::of_shape(&shape, line),
        first_token: tokens.0,
        last_token: tokens.1,
        kind: CallKind::Built(described.clone()),
    })
}
