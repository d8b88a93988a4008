//! What each `{` of a JavaScript file opens (a function, a method, a class,
//! an `if` block), giving each token its enclosing function's name and the
//! condition of the `if` block it is directly in.

use super::tokens::{Kind, Token};

#[derive(Clone, Debug, PartialEq, Eq)]
enum Brace {
    Function(Option<String>),
    Method(String),
    Class(Option<String>),
    If(String),
    Other,
}

/// Statement keywords whose `(…)` is not a parameter list.
const BLOCK_KEYWORDS: [&str; 6] = ["if", "for", "while", "switch", "catch", "with"];

/// The tokens of a file with their source, and what lies around each.
pub struct Structure<'a> {
    pub src: &'a str,
    pub tokens: &'a [Token],
    function: Vec<Option<String>>,
    condition: Vec<Option<String>>,
}

impl<'a> Structure<'a> {
    pub fn new(src: &'a str, tokens: &'a [Token]) -> Structure<'a> {
        let mut structure = Structure { src, tokens, function: Vec::new(), condition: Vec::new() };
        let mut stack: Vec<Brace> = Vec::new();
        for k in 0..tokens.len() {
            if structure.is_op(k, "{") {
                stack.push(structure.describe_brace(k));
            } else if structure.is_op(k, "}") {
                stack.pop();
            }
            structure.function.push(function_name(&stack));
            structure.condition.push(match stack.last() {
                Some(Brace::If(condition)) => Some(condition.clone()),
                _ => None,
            });
        }
        structure
    }

    pub fn text(&self, i: usize) -> &'a str {
        self.tokens.get(i).map_or("", |t| &self.src[t.start..t.end])
    }

    pub fn is_op(&self, i: usize, op: &str) -> bool {
        self.tokens.get(i).is_some_and(|t| t.kind == Kind::Op) && self.text(i) == op
    }

    fn is_ident(&self, i: usize) -> bool {
        self.tokens.get(i).is_some_and(|t| t.kind == Kind::Ident)
    }

    /// The enclosing function's name at token `k` (`Class.method`, `the X
    /// constructor`), if any.
    pub fn function(&self, k: usize) -> Option<String> {
        self.function[k].clone()
    }

    /// The condition of the `if` block token `k` is directly in.
    pub fn condition(&self, k: usize) -> Option<String> {
        self.condition[k].clone()
    }

    /// The source from token `a` through token `b`, white space folded.
    pub fn source_text(&self, a: usize, b: usize) -> String {
        if a > b {
            return String::new();
        }
        self.src[self.tokens[a].start..self.tokens[b].end].split_whitespace().collect::<Vec<_>>().join(" ")
    }

    /// The token closing the bracket opened at `open` (the last token if none).
    pub fn matching(&self, open: usize) -> usize {
        let (o, c) = match self.text(open) {
            "(" => ("(", ")"),
            "[" => ("[", "]"),
            _ => ("{", "}"),
        };
        let mut depth = 0;
        for j in open..self.tokens.len() {
            if self.is_op(j, o) {
                depth += 1;
            } else if self.is_op(j, c) {
                depth -= 1;
                if depth == 0 {
                    return j;
                }
            }
        }
        self.tokens.len() - 1
    }

    /// The token opening the bracket closed at `close` (the first if none).
    pub fn matching_back(&self, close: usize) -> usize {
        let (c, o) = match self.text(close) {
            ")" => (")", "("),
            "]" => ("]", "["),
            _ => ("}", "{"),
        };
        let mut depth = 0;
        for i in (0..=close).rev() {
            if self.is_op(i, c) {
                depth += 1;
            } else if self.is_op(i, o) {
                depth -= 1;
                if depth == 0 {
                    return i;
                }
            }
        }
        0
    }

    /// The `{` of the innermost block around token `k` (0 outside any).
    pub fn enclosing_brace(&self, k: usize) -> usize {
        let mut depth = 0;
        for i in (0..k).rev() {
            if self.is_op(i, "}") {
                depth += 1;
            } else if self.is_op(i, "{") {
                if depth == 0 {
                    return i;
                }
                depth -= 1;
            }
        }
        0
    }

    /// The name a function expression starting at token `p` is assigned to
    /// (`x = function`, `obj.key = () =>`, `key: function`).
    fn assigned_name(&self, p: usize) -> Option<String> {
        if p < 2 || !(self.text(p - 1) == "=" || self.text(p - 1) == ":") || !self.is_ident(p - 2) {
            return None;
        }
        if self.text(p - 1) == "=" && p >= 3 && ["=", "!", "<", ">"].contains(&self.text(p - 3)) {
            return None;
        }
        let mut names = vec![self.text(p - 2)];
        let mut k = p - 2;
        while k >= 2 && self.text(k - 1) == "." && self.is_ident(k - 2) {
            k -= 2;
            names.push(self.text(k));
        }
        names.reverse();
        Some(names.join("."))
    }

    fn describe_brace(&self, k: usize) -> Brace {
        if k == 0 {
            return Brace::Other;
        }
        let previous = self.text(k - 1);
        if previous == "=>" {
            let Some(mut p) = k.checked_sub(2) else { return Brace::Function(None) };
            if self.text(p) == ")" {
                p = self.matching_back(p);
            }
            if p >= 1 && self.text(p - 1) == "async" {
                p -= 1;
            }
            return Brace::Function(self.assigned_name(p));
        }
        if previous == ")" {
            let p = self.matching_back(k - 1);
            if p == 0 {
                return Brace::Other;
            }
            let before = self.text(p - 1);
            if before == "if" {
                return Brace::If(self.source_text(p + 1, k - 2));
            }
            if self.is_ident(p - 1) && BLOCK_KEYWORDS.contains(&before) {
                return Brace::Other;
            }
            if before == "function" {
                return Brace::Function(self.assigned_name(p - 1));
            }
            if self.is_ident(p - 1) {
                let mut q = p - 1;
                if q >= 1 && self.text(q - 1) == "*" {
                    q -= 1;
                }
                if q >= 1 && self.text(q - 1) == "function" {
                    return Brace::Function(Some(before.to_string()));
                }
                return Brace::Method(before.to_string());
            }
            if before == "]" {
                let q = self.matching_back(p - 1);
                return Brace::Method(format!("[{}]", self.source_text(q + 1, p - 2)));
            }
            return Brace::Other;
        }
        // `class X {`, `class X extends Y {`
        let mut j = k - 1;
        loop {
            if k - j >= 12 || [";", "{", "}", "(", ")"].contains(&self.text(j)) {
                break;
            }
            if self.text(j) == "class" {
                let name =
                    (self.is_ident(j + 1) && self.text(j + 1) != "extends").then(|| self.text(j + 1).to_string());
                return Brace::Class(name);
            }
            let Some(next) = j.checked_sub(1) else { break };
            j = next;
        }
        Brace::Other
    }
}

fn function_name(stack: &[Brace]) -> Option<String> {
    for (idx, brace) in stack.iter().enumerate().rev() {
        let name = match brace {
            Brace::Method(name) => {
                if let Some(Brace::Class(class)) = idx.checked_sub(1).map(|i| &stack[i]) {
                    let class = class.as_deref().unwrap_or("a class");
                    return Some(if name == "constructor" {
                        format!("the {class} constructor")
                    } else {
                        format!("{class}.{name}")
                    });
                }
                Some(name)
            }
            Brace::Function(name) => name.as_ref(),
            _ => continue,
        };
        if let Some(name) = name {
            return Some(name.clone());
        }
    }
    None
}
