//! The messages a JavaScript function can build, read from its code: string
//! and template literals, `+`, `? :`, `||`, variables assigned and appended
//! to (`let msg = …; if (…) msg += …;`) through `if`/`else` and loops, up to
//! the `return` (or `super(…)` in a constructor). What is computed at run
//! time is a hole, written `${expr}` as in a template literal.

use std::collections::HashMap;

use super::tokens::{cook, tokenize, Kind, TemplatePart, Token};

/// A piece of a built message.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Piece {
    Text(String),
    /// A value computed at run time, by the source of its expression.
    Hole(String),
}

/// One message a function can build.
pub type Shape = Vec<Piece>;

/// Alternatives kept for one value before the rest is left as a hole.
const MAX_SHAPES: usize = 8;

/// How a hole reads where several different values were folded into it.
const FOLDED: &str = "...";

fn push(shape: &mut Shape, piece: Piece) {
    match (shape.last_mut(), piece) {
        (_, Piece::Text(text)) if text.is_empty() => {}
        (Some(Piece::Text(last)), Piece::Text(text)) => last.push_str(&text),
        // Two folded holes read as one.
        (Some(Piece::Hole(last)), Piece::Hole(hole)) if last == FOLDED && hole == FOLDED => {}
        (_, piece) => shape.push(piece),
    }
}

fn concat(a: &Shape, b: &Shape) -> Shape {
    let mut out = a.clone();
    for piece in b {
        push(&mut out, piece.clone());
    }
    out
}

fn union(mut a: Vec<Shape>, b: Vec<Shape>) -> Vec<Shape> {
    for shape in b {
        if !a.contains(&shape) {
            a.push(shape);
        }
    }
    a
}

/// The message text of a shape: holes as `${expr}`.
pub fn render(shape: &Shape) -> String {
    shape
        .iter()
        .map(|p| match p {
            Piece::Text(t) => t.clone(),
            Piece::Hole(expr) => format!("${{{expr}}}"),
        })
        .collect()
}

/// Values of the variables in scope, each its alternatives.
pub type Env = HashMap<String, Vec<Shape>>;

/// Evaluates the code of one source.
pub struct Evaluator<'a> {
    src: &'a str,
    tokens: &'a [Token],
    /// Variables whose value is given (not reassigned by the code).
    pinned: &'a [&'a str],
}

impl<'a> Evaluator<'a> {
    pub fn new(src: &'a str, tokens: &'a [Token], pinned: &'a [&'a str]) -> Evaluator<'a> {
        Evaluator { src, tokens, pinned }
    }

    fn text(&self, i: usize) -> &'a str {
        self.tokens.get(i).map_or("", |t| &self.src[t.start..t.end])
    }

    fn is_op(&self, i: usize, op: &str) -> bool {
        self.tokens.get(i).is_some_and(|t| t.kind == Kind::Op) && self.text(i) == op
    }

    fn source(&self, a: usize, b: usize) -> String {
        if a >= b {
            return String::new();
        }
        self.src[self.tokens[a].start..self.tokens[b - 1].end].split_whitespace().collect::<Vec<_>>().join(" ")
    }

    /// The token closing the bracket at `open`, or `end`.
    fn matching(&self, open: usize, end: usize) -> usize {
        let mut depth = 0;
        for i in open..end {
            if self.tokens[i].kind != Kind::Op {
                continue;
            }
            match self.text(i) {
                "(" | "[" | "{" => depth += 1,
                ")" | "]" | "}" => {
                    depth -= 1;
                    if depth == 0 {
                        return i;
                    }
                }
                _ => {}
            }
        }
        end
    }

    /// The `;` ending the statement from `i`, or the `}` (or `end`) closing
    /// its block.
    fn statement_end(&self, mut i: usize, end: usize) -> usize {
        let mut depth = 0i32;
        while i < end {
            if self.tokens[i].kind == Kind::Op {
                match self.text(i) {
                    "(" | "[" | "{" => depth += 1,
                    ")" | "]" | "}" if depth == 0 => return i,
                    ")" | "]" | "}" => depth -= 1,
                    ";" if depth == 0 => return i,
                    _ => {}
                }
            }
            i += 1;
        }
        end
    }

    /// The messages a function body `[start, end)` returns (or passes to
    /// `super`), given the variables in `env`.
    pub fn body(&self, start: usize, end: usize, env: Env) -> Vec<Shape> {
        let mut out = Vec::new();
        self.statements(start, end, env, &mut out);
        out
    }

    /// The variables after the statements `[start, end)` run.
    pub fn run(&self, start: usize, end: usize, env: Env) -> Env {
        self.statements(start, end, env, &mut Vec::new())
    }

    /// Runs the statements `[start, end)` up to a `return` or `throw`: the
    /// variables after them; the messages returned go to `out`.
    fn statements(&self, start: usize, end: usize, mut env: Env, out: &mut Vec<Shape>) -> Env {
        let mut i = start;
        while i < end {
            let (next, terminated) = self.statement(i, end, &mut env, out);
            if terminated {
                break;
            }
            i = next.max(i + 1);
        }
        env
    }

    /// Runs the statement at `i`: the index after it and whether it ends the
    /// path (`return`, `throw`).
    fn statement(&self, i: usize, end: usize, env: &mut Env, out: &mut Vec<Shape>) -> (usize, bool) {
        let after_statement = |e: usize| if self.is_op(e, ";") { e + 1 } else { e };
        match self.text(i) {
            "{" => {
                let close = self.matching(i, end);
                let mut k = i + 1;
                while k < close {
                    let (next, terminated) = self.statement(k, close, env, out);
                    if terminated {
                        return (close + 1, true);
                    }
                    k = next.max(k + 1);
                }
                (close + 1, false)
            }
            ";" => (i + 1, false),
            "if" if self.is_op(i + 1, "(") => {
                let close = self.matching(i + 1, end);
                let mut then_env = env.clone();
                let (after_then, then_ends) = self.statement(close + 1, end, &mut then_env, out);
                let (next, else_env, else_ends) = if self.text(after_then) == "else" {
                    let mut else_env = env.clone();
                    let (next, ends) = self.statement(after_then + 1, end, &mut else_env, out);
                    (next, else_env, ends)
                } else {
                    (after_then, env.clone(), false)
                };
                *env = match (then_ends, else_ends) {
                    (true, true) => return (next, true),
                    (true, false) => else_env,
                    (false, true) => then_env,
                    (false, false) => merge(env, then_env, else_env),
                };
                (next, false)
            }
            "for" | "while" if self.is_op(i + 1, "(") => {
                let close = self.matching(i + 1, end);
                let mut body_env = env.clone();
                let (next, _) = self.statement(close + 1, end, &mut body_env, &mut Vec::new());
                *env = merge(env, body_env, env.clone());
                (next, false)
            }
            "function" | "switch" | "class" => {
                let open = (i..end).find(|&k| self.is_op(k, "{")).unwrap_or(end);
                (self.matching(open, end) + 1, false)
            }
            "return" => {
                let e = self.statement_end(i + 1, end);
                out.extend(self.expression(i + 1, e, env));
                (after_statement(e), true)
            }
            "throw" => (after_statement(self.statement_end(i, end)), true),
            "super" if self.is_op(i + 1, "(") => {
                let close = self.matching(i + 1, end);
                let arg_end =
                    (i + 2..close).find(|&k| self.is_op(k, ",") && self.depth(i + 2, k) == 0).unwrap_or(close);
                out.extend(self.expression(i + 2, arg_end, env));
                (after_statement(self.statement_end(close, end)), false)
            }
            "let" | "const" | "var" => {
                let e = self.statement_end(i, end);
                self.assign(i + 1, e, env, false);
                (after_statement(e), false)
            }
            _ => {
                let e = self.statement_end(i, end);
                if self.tokens.get(i).is_some_and(|t| t.kind == Kind::Ident) {
                    let appends = self.is_op(i + 1, "+") && self.is_op(i + 2, "=");
                    self.assign(i, e, env, appends);
                }
                (after_statement(e), false)
            }
        }
    }

    /// Bracket depth of token `k` relative to `from`.
    fn depth(&self, from: usize, k: usize) -> i32 {
        (from..k).fold(0, |d, j| match self.text(j) {
            "(" | "[" | "{" if self.tokens[j].kind == Kind::Op => d + 1,
            ")" | "]" | "}" if self.tokens[j].kind == Kind::Op => d - 1,
            _ => d,
        })
    }

    /// `name = expr` or `name += expr` in `[i, e)`.
    fn assign(&self, i: usize, e: usize, env: &mut Env, appends: bool) {
        let name = self.text(i);
        if self.tokens.get(i).is_none_or(|t| t.kind != Kind::Ident) || self.pinned.contains(&name) {
            return;
        }
        let value_at = if appends { i + 3 } else { i + 2 };
        let plain = self.is_op(i + 1, "=") && !self.is_op(i + 2, "=");
        if !(appends || plain) {
            return;
        }
        let value = self.expression(value_at, e, env);
        let value = if appends {
            let current = env.get(name).cloned().unwrap_or_else(|| vec![vec![Piece::Hole(name.to_string())]]);
            product(&current, &value, FOLDED)
        } else {
            value
        };
        env.insert(name.to_string(), value);
    }

    /// The values the expression `[a, b)` can have.
    pub fn expression(&self, a: usize, b: usize, env: &Env) -> Vec<Shape> {
        let hole = || vec![vec![Piece::Hole(self.source(a, b))]];
        if a >= b {
            return vec![Vec::new()];
        }
        // `c ? x : y`: the first `?` at depth 0 (not `?.` or `??`).
        let top = |k: usize| self.depth(a, k) == 0;
        if let Some(q) = (a..b).find(|&k| {
            self.is_op(k, "?")
                && top(k)
                && !self.is_op(k + 1, ".")
                && !self.is_op(k + 1, "?")
                && !self.is_op(k - 1, "?")
        }) {
            let mut pending = 0;
            let colon = (q + 1..b).find(|&k| {
                if !top(k) {
                    return false;
                }
                if self.is_op(k, "?") && !self.is_op(k + 1, ".") {
                    pending += 1;
                } else if self.is_op(k, ":") {
                    if pending == 0 {
                        return true;
                    }
                    pending -= 1;
                }
                false
            });
            return match colon {
                Some(c) => union(self.expression(q + 1, c, env), self.expression(c + 1, b, env)),
                None => hole(),
            };
        }
        // `x || y`, `x ?? y`: either.
        if let Some(k) = (a..b).find(|&k| {
            top(k) && ((self.is_op(k, "|") && self.is_op(k + 1, "|")) || (self.is_op(k, "?") && self.is_op(k + 1, "?")))
        }) {
            // A left side computed at run time is the exception (an option
            // given); the message written is the fallback.
            let (left, right) = (self.expression(a, k, env), self.expression(k + 2, b, env));
            if left.iter().all(|s| s.iter().all(|p| matches!(p, Piece::Hole(_)))) {
                return right;
            }
            return union(left, right);
        }
        // `x + y`: one after the other.
        let plus: Vec<usize> = (a + 1..b)
            .filter(|&k| {
                self.is_op(k, "+")
                    && top(k)
                    && !self.is_op(k + 1, "=")
                    && !self.is_op(k - 1, "+")
                    && !self.is_op(k + 1, "+")
            })
            .collect();
        if !plus.is_empty() {
            let mut bounds = vec![a];
            bounds.extend(plus.iter().map(|&k| k + 1));
            let mut ends: Vec<usize> = plus.clone();
            ends.push(b);
            let mut shapes = vec![Vec::new()];
            for (&s, &e) in bounds.iter().zip(&ends) {
                shapes = product(&shapes, &self.operand(s, e, env), &self.source(s, e));
            }
            return shapes;
        }
        self.operand(a, b, env)
    }

    fn operand(&self, a: usize, b: usize, env: &Env) -> Vec<Shape> {
        let hole = || vec![vec![Piece::Hole(self.source(a, b))]];
        if b == a + 1 {
            let token = &self.tokens[a];
            match token.kind {
                Kind::Str => {
                    let text = self.text(a);
                    return vec![vec![Piece::Text(cook(text.get(1..text.len().saturating_sub(1)).unwrap_or("")))]];
                }
                Kind::Template => return self.template(token, env),
                Kind::Ident => {
                    if let Some(value) = env.get(self.text(a)) {
                        return as_value(value, self.text(a));
                    }
                }
                _ => {}
            }
            return hole();
        }
        if self.is_op(a, "(") && self.matching(a, b) == b - 1 {
            return self.expression(a + 1, b - 1, env);
        }
        hole()
    }

    fn template(&self, token: &Token, env: &Env) -> Vec<Shape> {
        let mut shapes = vec![Vec::new()];
        for part in &token.parts {
            let value = match part {
                TemplatePart::Text(raw) => {
                    vec![vec![Piece::Text(cook(&raw.replace("\r\n", "\n").replace('\r', "\n")))]]
                }
                TemplatePart::Expr(expr) => {
                    let tokens = tokenize(expr);
                    let inner = Evaluator { src: expr, tokens: &tokens, pinned: self.pinned };
                    as_value(&inner.expression(0, tokens.len(), env), expr.trim())
                }
            };
            shapes = product(&shapes, &value, FOLDED);
        }
        shapes
    }
}

/// A value used inside a message: its alternatives, or one hole named
/// `name` where none of them has text of its own.
fn as_value(value: &[Shape], name: &str) -> Vec<Shape> {
    if value.iter().all(|s| s.iter().all(|p| matches!(p, Piece::Hole(_)))) {
        vec![vec![Piece::Hole(name.to_string())]]
    } else {
        value.to_vec()
    }
}

/// Each of `a` followed by each of `b`; where that makes too many, each of
/// `a` followed by a hole.
fn product(a: &[Shape], b: &[Shape], folded: &str) -> Vec<Shape> {
    if a.len() * b.len() > MAX_SHAPES {
        let hole = vec![Piece::Hole(folded.to_string())];
        return a.iter().map(|x| concat(x, &hole)).collect();
    }
    let mut out = Vec::new();
    for x in a {
        for y in b {
            let shape = concat(x, y);
            if !out.contains(&shape) {
                out.push(shape);
            }
        }
    }
    out
}

/// The variables after an `if`: each the values of either branch. Where
/// that makes too many, and the branches only appended, the value before it
/// followed by a hole.
fn merge(before: &Env, first: Env, second: Env) -> Env {
    let mut out = first.clone();
    for (name, value) in second {
        let merged = union(first.get(&name).cloned().unwrap_or_default(), value);
        let merged = if merged.len() > MAX_SHAPES {
            match before.get(&name) {
                Some(old) => product(old, &[vec![Piece::Hole(FOLDED.to_string())]], FOLDED),
                None => vec![vec![Piece::Hole(name.clone())]],
            }
        } else {
            merged
        };
        out.insert(name, merged);
    }
    out
}
