//! Go: `fmt.Errorf`, `errors.New` and the logging calls
//! `X.Errorf|Warnf|Noticef|Debugf|Tracef|Fatalf` whose first argument is a
//! string literal (or literals joined with `+`).
//!
//! The tokenizer knows just enough Go to find calls: comments are dropped;
//! interpreted, raw and rune literals are whole tokens; everything else is an
//! identifier, a number or one punctuation character.

use crate::found::{Extractor, Found};
use crate::lang::{escape_pattern, literal_alnum_count, source_lines, Language};

/// The Go extractor.
pub struct Go;

const LOG_METHODS: [(&str, &str, &str); 6] = [
    // method, severity, the level's word in the documentation
    ("Errorf", "error", "error"),
    ("Warnf", "warning", "warning"),
    ("Noticef", "info", "notice"),
    ("Debugf", "debug", "debug"),
    ("Tracef", "debug", "trace"),
    ("Fatalf", "fatal", "fatal"),
];

const KEYWORDS: [&str; 25] = [
    "break",
    "case",
    "chan",
    "const",
    "continue",
    "default",
    "defer",
    "else",
    "fallthrough",
    "for",
    "func",
    "go",
    "goto",
    "if",
    "import",
    "interface",
    "map",
    "package",
    "range",
    "return",
    "select",
    "struct",
    "switch",
    "type",
    "var",
];

/// A message needs this many letters and digits outside its verbs to be a
/// record (`"%s: %v"` is not one).
const MIN_ALNUM: usize = 8;
/// `sourceCode` is cut to this many lines.
const MAX_SOURCE_LINES: u32 = 4;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Ident,
    Num,
    Str,
    Raw,
    Char,
    Op,
}

#[derive(Clone, Debug)]
struct Tok<'a> {
    kind: Kind,
    text: &'a str,
    start: usize,
    end: usize,
    line: u32,
    end_line: u32,
    /// The first thing on its line, at column 0.
    bol: bool,
}

impl Tok<'_> {
    fn is(&self, text: &str) -> bool {
        self.text == text
    }

    fn is_op(&self, ops: &str) -> bool {
        self.kind == Kind::Op && ops.contains(self.text)
    }

    fn is_literal(&self) -> bool {
        matches!(self.kind, Kind::Str | Kind::Raw)
    }
}

fn is_keyword(text: &str) -> bool {
    KEYWORDS.contains(&text)
}

fn tokenize(src: &str) -> Vec<Tok<'_>> {
    let bytes = src.as_bytes();
    let n = src.len();
    let mut toks = Vec::new();
    let (mut i, mut line) = (0, 1u32);
    let count_lines = |a: usize, b: usize| bytes[a..b].iter().filter(|&&b| b == b'\n').count() as u32;
    // The end of a quoted literal opened at `i` (`quote` closes it; a line break ends it unclosed).
    let quoted_end = |i: usize, quote: u8| {
        let mut j = i + 1;
        while j < n && bytes[j] != quote && bytes[j] != b'\n' {
            j += if bytes[j] == b'\\' { 2 } else { 1 };
        }
        // An escape just before the end may step past it.
        (j + 1).min(n)
    };
    while i < n {
        let c = src[i..].chars().next().expect("within the text");
        let bol = i == 0 || bytes[i - 1] == b'\n';
        let mut push = |kind, end: usize, end_line| {
            // An escape at the very end can leave `end` inside a character.
            let end = (end..=n).find(|&e| src.is_char_boundary(e)).unwrap_or(n);
            toks.push(Tok { kind, text: &src[i..end], start: i, end, line, end_line, bol });
            end
        };
        match c {
            '\n' => {
                line += 1;
                i += 1;
            }
            ' ' | '\t' | '\r' | '\x0c' | '\x0b' | '\u{feff}' => i += c.len_utf8(),
            _ if src[i..].starts_with("//") => i = src[i..].find('\n').map_or(n, |j| i + j),
            _ if src[i..].starts_with("/*") => {
                let j = src[i + 2..].find("*/").map_or(n, |j| i + 2 + j + 2);
                line += count_lines(i, j);
                i = j;
            }
            '"' => i = push(Kind::Str, quoted_end(i, b'"'), line),
            '\'' => i = push(Kind::Char, quoted_end(i, b'\''), line),
            '`' => {
                let j = src[i + 1..].find('`').map_or(n, |j| i + 1 + j + 1);
                let lines = count_lines(i, j);
                i = push(Kind::Raw, j, line + lines);
                line += lines;
            }
            _ if c == '_' || c.is_alphabetic() => {
                let j = src[i..].find(|c: char| c != '_' && !c.is_alphanumeric()).map_or(n, |j| i + j);
                i = push(Kind::Ident, j, line);
            }
            _ if c.is_ascii_digit() || (c == '.' && bytes.get(i + 1).is_some_and(u8::is_ascii_digit)) => {
                let mut j = i + 1;
                while j < n && (bytes[j].is_ascii_alphanumeric() || bytes[j] == b'_' || bytes[j] == b'.') {
                    if src[j..].starts_with("..") {
                        break;
                    }
                    j += 1;
                }
                i = push(Kind::Num, j, line);
            }
            _ => i = push(Kind::Op, i + c.len_utf8(), line),
        }
    }
    toks
}

/// The value of an interpreted or raw string literal.
fn decode_string(tok: &Tok) -> String {
    let body = tok.text.get(1..tok.text.len().saturating_sub(1).max(1)).unwrap_or("");
    if tok.kind == Kind::Raw {
        return body.replace('\r', "");
    }
    let mut out = Vec::with_capacity(body.len());
    let b = body.as_bytes();
    let (mut i, n) = (0, b.len());
    let number = |from: usize, len: usize, radix| {
        body.get(from..(from + len).min(n)).and_then(|d| u32::from_str_radix(d, radix).ok())
    };
    while i < n {
        if b[i] != b'\\' {
            out.push(b[i]);
            i += 1;
            continue;
        }
        let e = b.get(i + 1).copied().unwrap_or(0);
        let simple = match e {
            b'a' => Some(7),
            b'b' => Some(8),
            b'f' => Some(12),
            b'n' => Some(b'\n'),
            b'r' => Some(b'\r'),
            b't' => Some(b'\t'),
            b'v' => Some(11),
            b'\\' | b'"' | b'\'' => Some(e),
            _ => None,
        };
        let mut push_char = |code: Option<u32>| {
            let c = code.and_then(char::from_u32).unwrap_or(char::REPLACEMENT_CHARACTER);
            out.extend_from_slice(c.encode_utf8(&mut [0; 4]).as_bytes());
        };
        match (simple, e) {
            (Some(byte), _) => {
                out.push(byte);
                i += 2;
            }
            (None, b'x') => {
                out.push(number(i + 2, 2, 16).unwrap_or(0xfd) as u8);
                i += 4;
            }
            (None, b'0'..=b'7') => {
                out.push((number(i + 1, 3, 8).unwrap_or(0) & 0xff) as u8);
                i += 4;
            }
            (None, b'u') => {
                push_char(number(i + 2, 4, 16));
                i += 6;
            }
            (None, b'U') => {
                push_char(number(i + 2, 8, 16));
                i += 10;
            }
            _ => {
                // Not valid Go: kept as written.
                out.push(b'\\');
                if i + 1 < n {
                    let len = body[i + 1..].chars().next().map_or(1, char::len_utf8);
                    out.extend_from_slice(&b[i + 1..i + 1 + len]);
                    i += 1 + len;
                } else {
                    i += 2;
                }
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// A part of a Go format string.
enum Part {
    Literal(String),
    /// A verb (`%v`, `%+v`, `%5.2f`, `%[1]s`, ...).
    Verb,
}

const VERBS: &str = "vTtbcdoOqxXUeEfFgGspw";

/// Splits a format string into literal text and verbs: `%%` is a literal
/// percent, and a `%` that starts no valid verb is kept as it is.
fn split_format(format: &str) -> Vec<Part> {
    static VERB: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
        regex::Regex::new(r"(?s)^%[+\-# 0]*(?:\[\d+\])?(?:\d+|\*)?(?:\.(?:\d+|\*)?)?(?:\[\d+\])?(.)?")
            .expect("a valid pattern")
    });
    let mut parts = Vec::new();
    let mut literal = String::new();
    let mut i = 0;
    while let Some(c) = format[i..].chars().next() {
        if c != '%' {
            literal.push(c);
            i += c.len_utf8();
            continue;
        }
        let found = VERB.captures(&format[i..]).expect("`%` alone matches");
        let end = i + found.get(0).map_or(1, |m| m.end());
        let verb = found.get(1).and_then(|m| m.as_str().chars().next());
        match verb {
            Some('%') if end == i + 2 => {
                literal.push('%');
                i += 2;
            }
            Some(letter) if VERBS.contains(letter) => {
                if !literal.is_empty() {
                    parts.push(Part::Literal(std::mem::take(&mut literal)));
                }
                parts.push(Part::Verb);
                i = end;
            }
            _ => {
                literal.push('%');
                i += 1;
            }
        }
    }
    if !literal.is_empty() {
        parts.push(Part::Literal(literal));
    }
    parts
}

fn literal_parts(parts: &[Part]) -> impl Iterator<Item = &str> {
    parts.iter().filter_map(|part| match part {
        Part::Literal(text) => Some(text.as_str()),
        Part::Verb => None,
    })
}

/// The source text from token `a` to token `b`, whitespace collapsed.
fn text_between(src: &str, toks: &[Tok], a: usize, b: usize) -> String {
    if a > b {
        return String::new();
    }
    src[toks[a].start..toks[b].end].split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The index of the token closing the bracket at `toks[i]`.
fn matching_close(toks: &[Tok], i: usize) -> usize {
    let (open, close) = match toks[i].text {
        "(" => ("(", ")"),
        "[" => ("[", "]"),
        _ => ("{", "}"),
    };
    let mut depth = 0i32;
    for (j, t) in toks.iter().enumerate().skip(i) {
        if t.kind != Kind::Op {
            continue;
        }
        if t.is(open) {
            depth += 1;
        } else if t.is(close) {
            depth -= 1;
            if depth == 0 {
                return j;
            }
        }
    }
    toks.len() - 1
}

/// The name of the function a column-0 `func` at `toks[k]` declares:
/// `name`, `Type.name` or `(*Type).name`.
fn func_name(toks: &[Tok], k: usize) -> Option<String> {
    let j = k + 1;
    let next = toks.get(j)?;
    if next.is("(") {
        let close = matching_close(toks, j);
        // Without the type parameters of a generic receiver: (t *Tree[T]).
        let mut depth = 0i32;
        let mut receiver = Vec::new();
        for t in &toks[j + 1..close] {
            match t.text {
                "[" => depth += 1,
                "]" => depth -= 1,
                _ if depth == 0 => receiver.push(t),
                _ => {}
            }
        }
        let ty = receiver.iter().rev().find(|t| t.kind == Kind::Ident).map_or("?", |t| t.text);
        let name = toks.get(close + 1).map_or("?", |t| t.text);
        let pointer = receiver.iter().any(|t| t.is("*"));
        return Some(if pointer { format!("(*{ty}).{name}") } else { format!("{ty}.{name}") });
    }
    (next.kind == Kind::Ident).then(|| next.text.to_string())
}

/// What the innermost `{` block around a token is.
#[derive(Clone, Debug, Default)]
struct Block {
    kind: &'static str,
    cond: Option<String>,
    init: Option<String>,
    text: Option<String>,
}

/// A top-level declaration.
#[derive(Clone, Debug)]
enum Decl {
    /// Before the first one.
    None,
    /// A `func`, with its name if it has one.
    Func(Option<String>),
    /// A `var` or `const`.
    Value,
    /// A `type` or `import`.
    Other,
}

/// The declaration and innermost block around every token, in one pass.
struct Structure {
    /// The top-level declaration each token is in.
    decl: Vec<Decl>,
    /// The innermost block (an index into `blocks`) and its `case` then.
    block: Vec<Option<(usize, Option<usize>)>>,
    blocks: Vec<Block>,
    cases: Vec<Option<String>>,
}

impl Structure {
    fn new(src: &str, toks: &[Tok]) -> Structure {
        let mut st = Structure {
            decl: Vec::with_capacity(toks.len()),
            block: Vec::with_capacity(toks.len()),
            blocks: Vec::new(),
            cases: Vec::new(),
        };
        // Open blocks: (block, its current case).
        let mut stack: Vec<(usize, Option<usize>)> = Vec::new();
        let mut decl = Decl::None;
        for (k, t) in toks.iter().enumerate() {
            if t.bol && t.kind == Kind::Ident && ["func", "var", "const", "type", "import"].contains(&t.text) {
                decl = match t.text {
                    "func" => Decl::Func(func_name(toks, k)),
                    "var" | "const" => Decl::Value,
                    _ => Decl::Other,
                };
                stack.clear();
            }
            if t.kind == Kind::Op && t.is("{") {
                st.blocks.push(header(src, toks, k));
                stack.push((st.blocks.len() - 1, None));
            } else if t.kind == Kind::Op && t.is("}") {
                stack.pop();
            } else if t.kind == Kind::Ident && (t.is("case") || t.is("default")) {
                if let Some(top) = stack.last_mut().filter(|(b, _)| ["switch", "select"].contains(&st.blocks[*b].kind))
                {
                    st.cases.push(case_label(src, toks, k));
                    top.1 = Some(st.cases.len() - 1);
                }
            }
            st.decl.push(decl.clone());
            st.block.push(stack.last().copied());
        }
        st
    }

    fn block_at(&self, k: usize) -> Option<(&Block, Option<&str>)> {
        let (block, case) = self.block[k]?;
        Some((&self.blocks[block], case.and_then(|c| self.cases[c].as_deref())))
    }
}

/// The header of the block opened at `toks[k]`: an `if` (its init and
/// condition), a `for`/`switch`/`select` (its text) or something else.
fn header(src: &str, toks: &[Tok], k: usize) -> Block {
    let line = toks[k].line;
    let mut a = k;
    while a > 0 && toks[a - 1].end_line == line {
        a -= 1;
    }
    while a < k && (toks[a].is("}") || toks[a].is("else")) {
        a += 1;
    }
    let kind = match toks[a..k].first().map(|t| t.text) {
        Some("if") => "if",
        Some("for") => "for",
        Some("switch") => "switch",
        Some("select") => "select",
        _ => "other",
    };
    let mut block = Block { kind, ..Block::default() };
    if kind == "if" {
        // `if init; cond`: split at the last top-level `;`.
        let mut depth = 0i32;
        let mut semi = None;
        for (j, t) in toks.iter().enumerate().take(k).skip(a + 1) {
            if t.is_op("([{") {
                depth += 1;
            } else if t.is_op(")]}") {
                depth -= 1;
            } else if t.is(";") && depth == 0 {
                semi = Some(j);
            }
        }
        match semi {
            None => block.cond = Some(text_between(src, toks, a + 1, k - 1)),
            Some(semi) => {
                block.init = Some(text_between(src, toks, a + 1, semi - 1));
                block.cond = Some(text_between(src, toks, semi + 1, k - 1));
            }
        }
    } else if kind != "other" {
        block.text = Some(text_between(src, toks, a, k - 1));
    }
    block
}

/// `case x, y` of a `case x, y:` line (nothing when the line does not end the label).
fn case_label(src: &str, toks: &[Tok], k: usize) -> Option<String> {
    let line = toks[k].line;
    let mut b = k;
    while b + 1 < toks.len() && toks[b + 1].line == line {
        b += 1;
    }
    toks[b].is(":").then(|| text_between(src, toks, k, b - 1))
}

/// The `a.b.c` selector chain ending at `toks[j]`, if there is one.
fn selector_before(toks: &[Tok], j: isize) -> Option<String> {
    let mut j = usize::try_from(j).ok()?;
    let t = &toks[j];
    if t.kind != Kind::Ident || is_keyword(t.text) {
        return None;
    }
    let mut names = vec![t.text];
    while j >= 2 && toks[j - 1].is(".") && toks[j - 2].kind == Kind::Ident {
        j -= 2;
        names.push(toks[j].text);
    }
    names.reverse();
    Some(names.join("."))
}

/// How the expression starting at a token is used.
#[derive(PartialEq, Eq)]
enum Use {
    Return,
    /// Assigned to a target (if it is a name).
    Assign(Option<String>),
    /// Sent on a channel (if it is a name).
    Send(Option<String>),
    Other,
}

/// How the expression starting at `toks[k]` is used, and the innermost call
/// it is an argument of ("a call" when that call has no name).
fn value_use(toks: &[Tok], k: usize) -> (Use, Option<String>) {
    let mut depth = 0i32;
    let mut wrapper: Option<String> = None;
    let mut j = k;
    while j > 0 {
        j -= 1;
        let t = &toks[j];
        if toks[j + 1].line != t.end_line && depth == 0 {
            // A line break: Go inserts a `;` after these tokens.
            let ends_statement =
                matches!(t.kind, Kind::Ident | Kind::Num | Kind::Str | Kind::Raw | Kind::Char) && !is_keyword(t.text);
            if ends_statement || t.is(")") || t.is("]") || t.is("}") {
                return (Use::Other, wrapper);
            }
        }
        if t.kind == Kind::Op {
            // A `}` after other tokens on its line closes a composite literal.
            if t.is(")") || t.is("]") || (t.is("}") && j > 0 && toks[j - 1].end_line == t.line) {
                depth += 1;
            } else if t.is("(") || t.is("[") || (t.is("{") && depth > 0) {
                depth -= 1;
                if depth < 0 {
                    if t.is("(") && wrapper.is_none() {
                        wrapper = Some(selector_before(toks, j as isize - 1).unwrap_or_else(|| "a call".to_string()));
                    }
                    depth = 0;
                }
            } else if t.is("{") || t.is("}") || t.is(";") {
                return (Use::Other, wrapper);
            } else if t.is("-") && depth == 0 && j > 0 && toks[j - 1].is("<") && toks[j - 1].end == t.start {
                return (Use::Send(selector_before(toks, j as isize - 2)), wrapper);
            } else if t.is("=")
                && depth == 0
                && !["=", "!", "<", ">"].contains(&toks[wrapping(j, -1, toks.len())].text)
                && !toks[j + 1].is("=")
            {
                let mut lhs = j as isize - 1;
                if toks[wrapping(j, -1, toks.len())].is(":") {
                    lhs -= 1;
                }
                return (Use::Assign(selector_before(toks, lhs)), wrapper);
            }
        } else if t.kind == Kind::Ident && t.is("return") {
            return (if depth == 0 { Use::Return } else { Use::Other }, wrapper);
        }
    }
    (Use::Other, wrapper)
}

/// `i + delta`, counted from the end when below 0 (as the original script's indexing does).
fn wrapping(i: usize, delta: isize, len: usize) -> usize {
    (i as isize + delta).rem_euclid(len as isize) as usize
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum CallKind {
    ErrorsNew,
    FmtErrorf,
    /// A logging call, by its index in `LOG_METHODS`.
    Log(usize),
}

/// A call with a literal first argument.
struct Call {
    kind: CallKind,
    message: String,
    literal_line: u32,
    call_tok: usize,
    expr_tok: usize,
    start_line: u32,
    end_line: u32,
}

/// The calls of interest whose first argument is a string literal.
fn find_calls(toks: &[Tok]) -> Vec<Call> {
    let n = toks.len();
    let mut calls = Vec::new();
    for i in 2..n.saturating_sub(1) {
        let t = &toks[i];
        if t.kind != Kind::Ident || !toks[i - 1].is(".") || !toks[i + 1].is("(") {
            continue;
        }
        let receiver = &toks[i - 2];
        let qualified = i >= 3 && toks[i - 3].is(".");
        let kind = if t.is("New") && receiver.kind == Kind::Ident && receiver.is("errors") && !qualified {
            CallKind::ErrorsNew
        } else if t.is("Errorf") && receiver.kind == Kind::Ident && receiver.is("fmt") && !qualified {
            CallKind::FmtErrorf
        } else if let Some(level) = LOG_METHODS
            .iter()
            .position(|(method, ..)| t.is(method))
            .filter(|_| receiver.kind == Kind::Ident || receiver.is(")") || receiver.is("]"))
        {
            CallKind::Log(level)
        } else {
            continue;
        };
        let close = matching_close(toks, i + 1);
        let mut j = i + 2;
        if j >= n || !toks[j].is_literal() {
            continue;
        }
        let mut literals = vec![&toks[j]];
        j += 1;
        while j + 1 < n && toks[j].is("+") && toks[j + 1].is_literal() {
            literals.push(&toks[j + 1]);
            j += 2;
        }
        if !(toks[j].is(",") || toks[j].is(")")) {
            continue;
        }
        let expr_tok = receiver_start(toks, i);
        calls.push(Call {
            kind,
            message: literals.iter().map(|lit| decode_string(lit)).collect(),
            literal_line: literals[0].line,
            call_tok: i,
            expr_tok,
            start_line: toks[expr_tok].line,
            end_line: toks[close].end_line,
        });
    }
    calls
}

/// The first token of the receiver of the method at `toks[i]`: over a call
/// or index receiver like `srv().Warnf` and a selector chain like `s.log.Warnf`.
fn receiver_start(toks: &[Tok], i: usize) -> usize {
    let n = toks.len();
    let mut a = i as isize - 2;
    if toks[i - 2].is(")") || toks[i - 2].is("]") {
        let mut depth = 0i32;
        while a >= 0 {
            let t = &toks[a as usize];
            if t.is(")") || t.is("]") {
                depth += 1;
            } else if t.is("(") || t.is("[") {
                depth -= 1;
            }
            if depth == 0 && t.kind == Kind::Ident && !(a > 0 && toks[a as usize - 1].is(".")) {
                break;
            }
            a -= 1;
        }
    }
    while a >= 2 && toks[a as usize - 1].is(".") && toks[a as usize - 2].kind == Kind::Ident {
        a -= 2;
    }
    wrapping(0, a, n)
}

/// " when `cond`" or " in the `case x` branch of `switch y`", where short.
fn condition_phrase(block: Option<(&Block, Option<&str>)>) -> String {
    let Some((block, case)) = block else { return String::new() };
    let mut tail = String::new();
    if block.kind == "if" {
        if let Some(cond) = block.cond.as_deref().filter(|c| !c.is_empty()) {
            match block.init.as_deref() {
                Some(init) if !init.is_empty() && cond == "err != nil" && init.chars().count() <= 90 => {
                    tail = format!(" when `{init}` fails")
                }
                _ if cond.chars().count() <= 90 => tail = format!(" when `{cond}`"),
                _ => {}
            }
        }
    } else if ["switch", "select"].contains(&block.kind) {
        if let Some(case) = case.filter(|c| !c.is_empty()) {
            let text = block.text.as_deref().unwrap_or("");
            if case.chars().count() <= 90 && text.chars().count() <= 60 {
                tail = format!(" in the `{case}` branch of `{text}`");
            }
        }
    }
    // A raw string in the condition would unbalance the quoting.
    if ![0, 2, 4].contains(&tail.matches('`').count()) {
        tail.clear();
    }
    tail
}

/// The documentation sentence: what the call does, in which function and
/// under which condition.
fn documentation(call: &Call, st: &Structure, toks: &[Tok], file: &str) -> (Option<String>, String) {
    let decl = &st.decl[call.call_tok];
    if !matches!(call.kind, CallKind::Log(_)) && matches!(decl, Decl::None | Decl::Value) {
        // Package level: var ErrX = errors.New("...")
        let (used, wrapper) = value_use(toks, call.expr_tok);
        let wrapper = wrapper.filter(|w| w != "a call");
        return match used {
            Use::Assign(Some(target)) => {
                let wrapped = wrapper.map(|w| format!(", wrapped by {w}()")).unwrap_or_default();
                (None, format!("Package-level error value {target} declared in {file}{wrapped}."))
            }
            _ => (None, format!("Package-level error value declared in {file}.")),
        };
    }
    let function = match decl {
        Decl::Func(name) => name.clone(),
        _ => None,
    };
    let place = function.clone().unwrap_or_else(|| "package-level code".to_string());
    let cond = condition_phrase(st.block_at(call.call_tok));
    if let CallKind::Log(level) = call.kind {
        return (function, format!("Logged at {} level by {place} in {file}{cond}.", LOG_METHODS[level].2));
    }
    let (used, wrapper) = value_use(toks, call.expr_tok);
    let wrapper = wrapper.filter(|w| w != "a call");
    let wrapped = wrapper.as_ref().map(|w| format!(", wrapped by {w}(),")).unwrap_or_default();
    let sentence = match used {
        Use::Return => format!("Returned by {place} in {file}{wrapped}{cond}."),
        Use::Assign(Some(target)) if wrapper.as_deref() == Some("append") => {
            format!("Created by {place} in {file} and appended to {target}{cond}.")
        }
        Use::Assign(Some(target)) => format!("Created by {place} in {file}{wrapped} and assigned to {target}{cond}."),
        Use::Send(Some(target)) => format!("Created by {place} in {file}{wrapped} and sent on channel {target}{cond}."),
        _ => match wrapper {
            Some(w) => format!("Created by {place} in {file} and passed to {w}(){cond}."),
            None => format!("Emitted by {place} in {file}{cond}."),
        },
    };
    (function, sentence)
}

impl Extractor for Go {
    fn extract_file(&self, file: &str, text: &str) -> Vec<Found> {
        let toks = tokenize(text);
        let st = Structure::new(text, &toks);
        let lines: Vec<&str> = text.split('\n').collect();
        let mut seen = std::collections::HashSet::new();
        let mut found = Vec::new();
        for call in find_calls(&toks) {
            let parts = if call.kind == CallKind::ErrorsNew {
                vec![Part::Literal(call.message.clone())]
            } else {
                split_format(&call.message)
            };
            if literal_alnum_count(literal_parts(&parts)) < MIN_ALNUM
                || !seen.insert((call.literal_line, call.message.clone()))
            {
                continue;
            }
            let (start, end) = (call.start_line, call.end_line.min(call.start_line + MAX_SOURCE_LINES - 1));
            let (error_type, severity) = match call.kind {
                CallKind::Log(level) => ("log", LOG_METHODS[level].1),
                _ => ("exception", "error"),
            };
            let (function, sentence) = documentation(&call, &st, &toks, file);
            found.push(Found {
                file: file.to_string(),
                line: call.literal_line,
                call_lines: (start, end),
                error_type: error_type.to_string(),
                error_class: None,
                error_code: None,
                severity: severity.to_string(),
                function,
                source: source_lines(&lines, start, end),
                context: Some(sentence),
                message: call.message,
            });
        }
        found
    }
}

/// Is the message of `found` the argument of an `errors.New` (plain text,
/// not a format)? Read again from its call's source.
fn is_errors_new(found: &Found) -> bool {
    let toks = tokenize(&found.source);
    let literal_line = found.line + 1 - found.call_lines.0;
    (3..toks.len()).any(|i| {
        toks[i].is_literal()
            && toks[i].line == literal_line
            && toks[i - 1].is("(")
            && toks[i - 2].is("New")
            && toks[i - 3].is(".")
            && i >= 4
            && toks[i - 4].is("errors")
            && found.message.starts_with(&decode_string(&toks[i]))
    })
}

impl Language for Go {
    fn name(&self) -> &'static str {
        "go"
    }

    fn scans(&self, file: &str) -> bool {
        file.starts_with("server/") && file.ends_with(".go") && !file.ends_with("_test.go")
    }

    /// Literal text with regex metacharacters escaped; each verb (`%v`,
    /// `%+v`, `%5.2f`, `%[1]s`, ...) a lazy group; `%%` a percent. An
    /// `errors.New` message is literal text throughout.
    fn describe(&self) -> &'static str {
        "Each record is a call in a non-test file under `server/` whose first argument is a string\n\
         literal (or literals joined with `+`): `fmt.Errorf(...)` and `errors.New(...)` (`errorType`\n\
         \"exception\", `severity` \"error\"), and `X.Errorf / Warnf / Noticef / Debugf / Tracef /\n\
         Fatalf(...)` on any receiver (`errorType` \"log\", `severity` error / warning / info / debug /\n\
         debug / fatal). Left out: messages with fewer than 8 letters and digits outside format\n\
         verbs (`\"%s: %v\"`), and calls whose first argument is not a literal. A Go verb becomes\n\
         `(.+?)` in `messagePattern`, `%%` a percent; an `errors.New` message is literal text.\n\n"
    }

    fn message_pattern(&self, found: &Found) -> String {
        if is_errors_new(found) {
            return escape_pattern(&found.message);
        }
        split_format(&found.message)
            .iter()
            .map(|part| match part {
                Part::Literal(text) => escape_pattern(text),
                Part::Verb => "(.+?)".to_string(),
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strings_decode_as_go_does() {
        let toks = tokenize(r#"x("a\tb\x41\101\u00e9\U0001F600\q" + `raw\n`)"#);
        assert_eq!(decode_string(&toks[2]), "a\tbAAé😀\\q");
        assert_eq!(decode_string(&toks[4]), "raw\\n");
    }

    #[test]
    fn verbs_and_percents_split() {
        let parts = split_format("100%% of %[1]s: %5.2f %z");
        let shown: Vec<String> = parts
            .iter()
            .map(|p| match p {
                Part::Literal(t) => format!("L{t}"),
                Part::Verb => "V".to_string(),
            })
            .collect();
        assert_eq!(shown, ["L100% of ", "V", "L: ", "V", "L %z"]);
    }
}
