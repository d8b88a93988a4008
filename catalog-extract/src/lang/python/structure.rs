//! The blocks of a Python file, from its indentation: for each token, the
//! enclosing function or class (`Class.method`) and the innermost `if` (or
//! `else`) it sits under, as a walk of the `ast` that resets the condition
//! at each `def` and `class` sees them.

use super::tokens::{Kind, Token};

/// The test of an `if`/`elif` (its token range), under its body or its `else`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Condition {
    If((usize, usize)),
    Else((usize, usize)),
}

#[derive(Clone, Debug)]
enum Block {
    Scope(String),
    Under(Condition),
    Other,
}

/// Each token's function and condition.
pub struct Structure {
    scope: Vec<Option<String>>,
    condition: Vec<Option<Condition>>,
}

impl Structure {
    pub fn new(src: &str, tokens: &[Token]) -> Structure {
        let text = |i: usize| &src[tokens[i].start..tokens[i].end];
        let mut scope = vec![None; tokens.len()];
        let mut condition = vec![None; tokens.len()];
        let mut stack: Vec<(usize, Block)> = Vec::new();
        // The last `if`/`elif` test at each indentation, for an `else:` that follows.
        let mut chain: Vec<(usize, (usize, usize))> = Vec::new();
        let mut start = 0;
        while start < tokens.len() {
            let end = (start..tokens.len()).find(|&i| tokens[i].kind == Kind::Newline).unwrap_or(tokens.len());
            let indent = tokens[start].col;
            while stack.last().is_some_and(|(level, _)| *level >= indent) {
                stack.pop();
            }
            let previous_if = chain.iter().rposition(|(level, _)| *level == indent).map(|k| chain[k].1);
            chain.retain(|(level, _)| *level < indent);
            let keyword = if text(start) == "async" && start + 1 < end { text(start + 1) } else { text(start) };
            let keyword_at = if keyword == text(start) { start } else { start + 1 };
            let block = match keyword {
                "def" | "class" if keyword_at + 1 < end => Some(Block::Scope(text(keyword_at + 1).to_string())),
                "if" | "elif" => header_colon(src, tokens, keyword_at + 1, end).map(|colon| {
                    let test = (keyword_at + 1, colon);
                    chain.push((indent, test));
                    Block::Under(Condition::If(test))
                }),
                "else" => Some(previous_if.map_or(Block::Other, |test| Block::Under(Condition::Else(test)))),
                "for" | "while" | "with" | "try" | "except" | "finally" | "match" | "case" => Some(Block::Other),
                _ => None,
            };
            let (outer_scope, outer_condition) = context_of(&stack);
            let colon = block.as_ref().and_then(|_| header_colon(src, tokens, keyword_at + 1, end));
            let body_start = colon.map_or(end, |c| c + 1);
            for i in start..body_start.min(end) {
                scope[i].clone_from(&outer_scope);
                condition[i] = outer_condition;
            }
            if let Some(block) = block {
                stack.push((indent, block));
                let (inner_scope, inner_condition) = context_of(&stack);
                for i in body_start..end {
                    scope[i].clone_from(&inner_scope);
                    condition[i] = inner_condition;
                }
            }
            start = end + 1;
        }
        Structure { scope, condition }
    }

    /// The qualified name of the function or class around token `i`, and the
    /// condition it sits under (inside that function).
    pub fn context(&self, i: usize) -> (Option<String>, Option<Condition>) {
        (self.scope[i].clone(), self.condition[i])
    }
}

fn context_of(stack: &[(usize, Block)]) -> (Option<String>, Option<Condition>) {
    let names: Vec<&str> = stack
        .iter()
        .filter_map(|(_, b)| match b {
            Block::Scope(name) => Some(name.as_str()),
            _ => None,
        })
        .collect();
    let scope = (!names.is_empty()).then(|| names.join("."));
    let last_scope = stack.iter().rposition(|(_, b)| matches!(b, Block::Scope(_)));
    let condition = stack[last_scope.map_or(0, |k| k + 1)..].iter().rev().find_map(|(_, b)| match b {
        Block::Under(c) => Some(*c),
        _ => None,
    });
    (scope, condition)
}

/// The `:` ending a compound statement's header, searched from `from`:
/// the first at bracket depth 0 that no `lambda` claims.
fn header_colon(src: &str, tokens: &[Token], from: usize, end: usize) -> Option<usize> {
    let (mut depth, mut lambdas) = (0i32, 0);
    for (i, token) in tokens.iter().enumerate().take(end).skip(from) {
        let text = &src[token.start..token.end];
        match (token.kind, text) {
            (Kind::Op, "(" | "[" | "{") => depth += 1,
            (Kind::Op, ")" | "]" | "}") => depth -= 1,
            (Kind::Name, "lambda") if depth == 0 => lambdas += 1,
            (Kind::Op, ":") if depth == 0 => {
                if lambdas == 0 {
                    return Some(i);
                }
                lambdas -= 1;
            }
            _ => {}
        }
    }
    None
}
