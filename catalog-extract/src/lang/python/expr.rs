//! Python expressions parsed from tokens: enough of the grammar for the
//! arguments of a `raise` or logger call and for `if` conditions (no
//! `await` or `yield`; those fail to parse, and a `lambda`'s parameters are
//! skipped).

use super::tokens::{Kind, Token};

/// An expression, shaped as Python's `ast` module shapes it.
#[derive(Clone, Debug, PartialEq)]
pub enum Expr {
    Name(String),
    /// A number as written.
    Number(String),
    /// String literals joined implicitly: the indices of their tokens.
    Str(Vec<usize>),
    Ellipsis,
    /// `and`/`or` with every operand of a chain (`a or b or c`).
    BoolOp(&'static str, Vec<Expr>),
    Compare(Box<Expr>, Vec<(&'static str, Expr)>),
    BinOp(Box<Expr>, &'static str, Box<Expr>),
    Unary(&'static str, Box<Expr>),
    IfExp(Box<Expr>, Box<Expr>, Box<Expr>),
    Named(Box<Expr>, Box<Expr>),
    Call(Box<Expr>, Vec<Arg>),
    Attribute(Box<Expr>, String),
    Subscript(Box<Expr>, Box<Expr>),
    Slice(Option<Box<Expr>>, Option<Box<Expr>>, Option<Box<Expr>>),
    Tuple(Vec<Expr>),
    List(Vec<Expr>),
    Set(Vec<Expr>),
    /// `None` key: `**mapping`.
    Dict(Vec<(Option<Expr>, Expr)>),
    /// `(`, `[`, `{` or `{:` (a dict), the element(s) and the `for` clauses.
    Comprehension(char, Box<Expr>, Option<Box<Expr>>, Vec<For>),
    Starred(Box<Expr>),
    /// `lambda …: body` (its parameters are skipped).
    Lambda(Box<Expr>),
}

/// One argument of a call.
#[derive(Clone, Debug, PartialEq)]
pub enum Arg {
    Positional(Expr),
    /// `name=value`, or `**value` with no name.
    Keyword(Option<String>, Expr),
}

/// One `for … in … if …` clause of a comprehension.
#[derive(Clone, Debug, PartialEq)]
pub struct For {
    pub is_async: bool,
    pub target: Expr,
    pub iter: Expr,
    pub ifs: Vec<Expr>,
}

/// A failure to parse: the expression is not one this parser knows.
#[derive(Debug)]
pub struct Unsupported;

type Parsed<T> = Result<T, Unsupported>;

/// A recursive-descent parser over the tokens of one source.
pub struct Parser<'a> {
    src: &'a str,
    tokens: &'a [Token],
    pub pos: usize,
}

const COMPARISONS: [&str; 6] = ["==", "!=", "<=", ">=", "<", ">"];

impl<'a> Parser<'a> {
    pub fn new(src: &'a str, tokens: &'a [Token], pos: usize) -> Parser<'a> {
        Parser { src, tokens, pos }
    }

    fn text_at(&self, i: usize) -> &'a str {
        self.tokens.get(i).map_or("", |t| &self.src[t.start..t.end])
    }

    pub fn peek(&self) -> &'a str {
        self.text_at(self.pos)
    }

    fn kind(&self) -> Option<Kind> {
        self.tokens.get(self.pos).map(|t| t.kind)
    }

    /// Whether the next token is the operator or keyword `text`.
    fn at(&self, text: &str) -> bool {
        matches!(self.kind(), Some(Kind::Op | Kind::Name)) && self.peek() == text
    }

    fn eat(&mut self, text: &str) -> bool {
        let found = self.at(text);
        if found {
            self.pos += 1;
        }
        found
    }

    fn expect(&mut self, text: &str) -> Parsed<()> {
        if self.eat(text) {
            Ok(())
        } else {
            Err(Unsupported)
        }
    }

    /// `named_expression`: a test or `name := test`.
    pub fn named(&mut self) -> Parsed<Expr> {
        if self.kind() == Some(Kind::Name) && self.text_at(self.pos + 1) == ":=" {
            let target = Expr::Name(self.peek().to_string());
            self.pos += 2;
            let value = self.test()?;
            return Ok(Expr::Named(Box::new(target), Box::new(value)));
        }
        self.test()
    }

    /// `test`: a conditional expression or below.
    pub fn test(&mut self) -> Parsed<Expr> {
        if self.eat("lambda") {
            while !self.eat(":") {
                if self.kind().is_none_or(|k| k == Kind::Newline) {
                    return Err(Unsupported);
                }
                self.pos += 1;
            }
            return Ok(Expr::Lambda(Box::new(self.test()?)));
        }
        if self.at("yield") || self.at("await") {
            return Err(Unsupported);
        }
        let body = self.or_test()?;
        if self.eat("if") {
            let condition = self.or_test()?;
            self.expect("else")?;
            let orelse = self.test()?;
            return Ok(Expr::IfExp(Box::new(body), Box::new(condition), Box::new(orelse)));
        }
        Ok(body)
    }

    fn bool_chain(&mut self, op: &'static str, operand: fn(&mut Self) -> Parsed<Expr>) -> Parsed<Expr> {
        let first = operand(self)?;
        if !self.at(op) {
            return Ok(first);
        }
        let mut values = vec![first];
        while self.eat(op) {
            values.push(operand(self)?);
        }
        Ok(Expr::BoolOp(op, values))
    }

    fn or_test(&mut self) -> Parsed<Expr> {
        self.bool_chain("or", Self::and_test)
    }

    fn and_test(&mut self) -> Parsed<Expr> {
        self.bool_chain("and", Self::not_test)
    }

    fn not_test(&mut self) -> Parsed<Expr> {
        if self.eat("not") {
            return Ok(Expr::Unary("not", Box::new(self.not_test()?)));
        }
        self.comparison()
    }

    fn comparison(&mut self) -> Parsed<Expr> {
        let left = self.bitor()?;
        let mut ops = Vec::new();
        loop {
            let op = if let Some(op) = COMPARISONS.iter().find(|op| self.at(op)) {
                self.pos += 1;
                *op
            } else if self.eat("in") {
                "in"
            } else if self.at("not") && self.text_at(self.pos + 1) == "in" {
                self.pos += 2;
                "not in"
            } else if self.eat("is") {
                if self.eat("not") {
                    "is not"
                } else {
                    "is"
                }
            } else {
                break;
            };
            ops.push((op, self.bitor()?));
        }
        if ops.is_empty() {
            Ok(left)
        } else {
            Ok(Expr::Compare(Box::new(left), ops))
        }
    }

    /// Left-associative binary operators of one level.
    fn binary(&mut self, ops: &[&'static str], operand: fn(&mut Self) -> Parsed<Expr>) -> Parsed<Expr> {
        let mut left = operand(self)?;
        while let Some(op) = ops.iter().find(|op| self.kind() == Some(Kind::Op) && self.peek() == **op) {
            self.pos += 1;
            let right = operand(self)?;
            left = Expr::BinOp(Box::new(left), op, Box::new(right));
        }
        Ok(left)
    }

    fn bitor(&mut self) -> Parsed<Expr> {
        self.binary(&["|"], Self::bitxor)
    }
    fn bitxor(&mut self) -> Parsed<Expr> {
        self.binary(&["^"], Self::bitand)
    }
    fn bitand(&mut self) -> Parsed<Expr> {
        self.binary(&["&"], Self::shift)
    }
    fn shift(&mut self) -> Parsed<Expr> {
        self.binary(&["<<", ">>"], Self::arith)
    }
    fn arith(&mut self) -> Parsed<Expr> {
        self.binary(&["+", "-"], Self::term)
    }
    fn term(&mut self) -> Parsed<Expr> {
        self.binary(&["*", "/", "//", "%", "@"], Self::factor)
    }

    fn factor(&mut self) -> Parsed<Expr> {
        for op in ["-", "+", "~"] {
            if self.kind() == Some(Kind::Op) && self.peek() == op {
                self.pos += 1;
                return Ok(Expr::Unary(op, Box::new(self.factor()?)));
            }
        }
        let base = self.primary()?;
        if self.eat("**") {
            return Ok(Expr::BinOp(Box::new(base), "**", Box::new(self.factor()?)));
        }
        Ok(base)
    }

    /// An atom with its attributes, calls and subscripts.
    pub fn primary(&mut self) -> Parsed<Expr> {
        let mut expr = self.atom()?;
        loop {
            if self.eat(".") {
                if self.kind() != Some(Kind::Name) {
                    return Err(Unsupported);
                }
                expr = Expr::Attribute(Box::new(expr), self.peek().to_string());
                self.pos += 1;
            } else if self.at("(") {
                self.pos += 1;
                expr = Expr::Call(Box::new(expr), self.arguments()?);
            } else if self.eat("[") {
                let slice = self.subscript()?;
                self.expect("]")?;
                expr = Expr::Subscript(Box::new(expr), Box::new(slice));
            } else {
                return Ok(expr);
            }
        }
    }

    /// The arguments of a call, after its `(`, through its `)`.
    pub fn arguments(&mut self) -> Parsed<Vec<Arg>> {
        let mut args = Vec::new();
        while !self.eat(")") {
            if self.eat("**") {
                args.push(Arg::Keyword(None, self.test()?));
            } else if self.eat("*") {
                args.push(Arg::Positional(Expr::Starred(Box::new(self.test()?))));
            } else if self.kind() == Some(Kind::Name) && self.text_at(self.pos + 1) == "=" {
                let name = self.peek().to_string();
                self.pos += 2;
                args.push(Arg::Keyword(Some(name), self.test()?));
            } else {
                let value = self.named()?;
                if self.at("for") || self.at("async") {
                    let clauses = self.for_clauses()?;
                    args.push(Arg::Positional(Expr::Comprehension('(', Box::new(value), None, clauses)));
                } else {
                    args.push(Arg::Positional(value));
                }
            }
            if !self.eat(",") && !self.at(")") {
                return Err(Unsupported);
            }
        }
        Ok(args)
    }

    fn subscript(&mut self) -> Parsed<Expr> {
        let mut items = Vec::new();
        let mut trailing_comma = false;
        while !self.at("]") {
            items.push(self.slice_item()?);
            trailing_comma = self.eat(",");
            if !trailing_comma {
                break;
            }
        }
        if items.len() == 1 && !trailing_comma {
            Ok(items.pop().unwrap())
        } else {
            Ok(Expr::Tuple(items))
        }
    }

    fn slice_item(&mut self) -> Parsed<Expr> {
        let bound = |p: &mut Self| -> Parsed<Option<Box<Expr>>> {
            if p.at(":") || p.at(",") || p.at("]") {
                Ok(None)
            } else {
                Ok(Some(Box::new(p.test()?)))
            }
        };
        let lower = bound(self)?;
        if !self.eat(":") {
            return lower.map(|e| *e).ok_or(Unsupported);
        }
        let upper = bound(self)?;
        let step = if self.eat(":") { bound(self)? } else { None };
        Ok(Expr::Slice(lower, upper, step))
    }

    /// `for target in iter if cond …` clauses.
    fn for_clauses(&mut self) -> Parsed<Vec<For>> {
        let mut clauses = Vec::new();
        loop {
            let is_async = self.eat("async");
            if !self.eat("for") {
                return if is_async { Err(Unsupported) } else { Ok(clauses) };
            }
            let mut targets = Vec::new();
            let trailing_comma = loop {
                let target = if self.eat("*") { Expr::Starred(Box::new(self.bitor()?)) } else { self.bitor()? };
                targets.push(target);
                let trailing_comma = self.eat(",");
                if !trailing_comma || self.at("in") {
                    break trailing_comma;
                }
            };
            let target =
                if targets.len() == 1 && !trailing_comma { targets.pop().unwrap() } else { Expr::Tuple(targets) };
            self.expect("in")?;
            let iter = self.or_test()?;
            let mut ifs = Vec::new();
            while self.eat("if") {
                ifs.push(self.or_test()?);
            }
            clauses.push(For { is_async, target, iter, ifs });
        }
    }

    /// Comma-separated items through `close`.
    fn items(&mut self, close: &str) -> Parsed<Vec<Expr>> {
        let mut items = Vec::new();
        while !self.eat(close) {
            items.push(self.item()?);
            if !self.eat(",") && !self.at(close) {
                return Err(Unsupported);
            }
        }
        Ok(items)
    }

    /// An element of a tuple, list or set: `*iterable` or a named expression.
    fn item(&mut self) -> Parsed<Expr> {
        if self.eat("*") {
            Ok(Expr::Starred(Box::new(self.bitor()?)))
        } else {
            self.named()
        }
    }

    fn atom(&mut self) -> Parsed<Expr> {
        let Some(kind) = self.kind() else {
            return Err(Unsupported);
        };
        let text = self.peek();
        match kind {
            Kind::Str => {
                let start = self.pos;
                while self.kind() == Some(Kind::Str) {
                    self.pos += 1;
                }
                Ok(Expr::Str((start..self.pos).collect()))
            }
            Kind::Number => {
                self.pos += 1;
                Ok(Expr::Number(text.to_string()))
            }
            Kind::Name if !is_keyword(text) => {
                self.pos += 1;
                Ok(Expr::Name(text.to_string()))
            }
            Kind::Op if text == "..." => {
                self.pos += 1;
                Ok(Expr::Ellipsis)
            }
            Kind::Op if text == "(" || text == "[" => {
                self.pos += 1;
                let (close, empty) =
                    if text == "(" { (")", Expr::Tuple(Vec::new())) } else { ("]", Expr::List(Vec::new())) };
                if self.eat(close) {
                    return Ok(empty);
                }
                let first = self.item()?;
                if self.at("for") || self.at("async") {
                    let clauses = self.for_clauses()?;
                    self.expect(close)?;
                    return Ok(Expr::Comprehension(text.chars().next().unwrap(), Box::new(first), None, clauses));
                }
                if text == "(" && self.eat(")") {
                    return Ok(first);
                }
                if !(self.eat(",") || text == "[" && self.at("]")) {
                    return Err(Unsupported);
                }
                let mut rest = self.items(close)?;
                rest.insert(0, first);
                Ok(if text == "(" { Expr::Tuple(rest) } else { Expr::List(rest) })
            }
            Kind::Op if text == "{" => {
                self.pos += 1;
                self.braces()
            }
            _ => Err(Unsupported),
        }
    }

    /// A dict, set or their comprehension, after its `{`.
    fn braces(&mut self) -> Parsed<Expr> {
        if self.eat("}") {
            return Ok(Expr::Dict(Vec::new()));
        }
        let mut pairs = Vec::new();
        let mut elements = Vec::new();
        loop {
            if self.eat("**") {
                pairs.push((None, self.bitor()?));
            } else if self.eat("*") {
                elements.push(Expr::Starred(Box::new(self.bitor()?)));
            } else {
                let key = self.named()?;
                if self.eat(":") {
                    let value = self.test()?;
                    if pairs.is_empty() && (self.at("for") || self.at("async")) {
                        let clauses = self.for_clauses()?;
                        self.expect("}")?;
                        return Ok(Expr::Comprehension(':', Box::new(key), Some(Box::new(value)), clauses));
                    }
                    pairs.push((Some(key), value));
                } else {
                    if elements.is_empty() && (self.at("for") || self.at("async")) {
                        let clauses = self.for_clauses()?;
                        self.expect("}")?;
                        return Ok(Expr::Comprehension('{', Box::new(key), None, clauses));
                    }
                    elements.push(key);
                }
            }
            if self.eat("}") {
                break;
            }
            self.expect(",")?;
            if self.eat("}") {
                break;
            }
        }
        match (pairs.is_empty(), elements.is_empty()) {
            (false, true) => Ok(Expr::Dict(pairs)),
            (true, false) => Ok(Expr::Set(elements)),
            _ => Err(Unsupported),
        }
    }
}

fn is_keyword(name: &str) -> bool {
    matches!(
        name,
        "and"
            | "as"
            | "assert"
            | "async"
            | "await"
            | "break"
            | "class"
            | "continue"
            | "def"
            | "del"
            | "elif"
            | "else"
            | "except"
            | "finally"
            | "for"
            | "from"
            | "global"
            | "if"
            | "import"
            | "in"
            | "is"
            | "lambda"
            | "nonlocal"
            | "not"
            | "or"
            | "pass"
            | "raise"
            | "return"
            | "try"
            | "while"
            | "with"
            | "yield"
    )
}
