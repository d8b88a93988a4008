//! Rust (as cargo writes its errors): `bail!` / `anyhow!` / `format_err!`
//! with a literal format string, `.context(...)` / `.with_context(|| ...)`
//! with a literal or `format!(literal, ...)`, thiserror's `#[error("...")]`,
//! and `shell.warn(...)` / `.shell().error(...)`. Items under
//! `#[cfg(test)]` are left out.
//!
//! The tokenizer drops comments (nested block comments too) and keeps
//! string, raw string, byte and character literals whole.

mod built;

use std::sync::LazyLock;

use regex::Regex;

use crate::found::{Extractor, Found};
use crate::lang::tokens::{matching_close, wrapping, Kind, Tok};
use crate::lang::{pattern_of, Call as Message, Keep, Language, Part};

/// The Rust extractor.
pub struct Rust;

/// Crates that only exist to test cargo.
const SKIP_CRATES: [&str; 4] = ["cargo-test-support", "cargo-test-macro", "resolver-tests", "build-rs-test-lib"];
const SKIP_DIRS: [&str; 4] = ["tests", "benches", "examples", "fixtures"];
const MACROS: [&str; 3] = ["bail", "anyhow", "format_err"];

static RAW_START: LazyLock<Regex> = LazyLock::new(|| Regex::new(r#"^(?:b|c)?r(#*)""#).expect("a valid pattern"));
static IDENT: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^(?:r#)?[A-Za-z_][A-Za-z0-9_]*").expect("a valid pattern"));

fn tokenize(src: &str) -> Vec<Tok<'_>> {
    let bytes = src.as_bytes();
    let n = src.len();
    let mut toks = Vec::new();
    let (mut i, mut line) = (0, 1u32);
    let count_lines = |a: usize, b: usize| bytes[a..b].iter().filter(|&&b| b == b'\n').count() as u32;
    let at = |j: usize| bytes.get(j).copied().unwrap_or(0);
    // The end of a literal whose body starts at `j` and that `quote` closes.
    let quoted_end = |mut j: usize, quote: u8| {
        while j < n && bytes[j] != quote {
            j += if bytes[j] == b'\\' { 2 } else { 1 };
        }
        (j + 1).min(n)
    };
    while i < n {
        let c = src[i..].chars().next().expect("within the text");
        let boundary = |e: usize| (e..=n).find(|&e| src.is_char_boundary(e)).unwrap_or(n);
        let mut push = |kind, end: usize, lines: u32| {
            let end = boundary(end);
            toks.push(Tok { kind, text: &src[i..end], start: i, end, line, end_line: line + lines, bol: false });
            end
        };
        if c == '\n' {
            line += 1;
            i += 1;
            continue;
        }
        if matches!(c, ' ' | '\t' | '\r' | '\x0c' | '\x0b' | '\u{feff}') {
            i += c.len_utf8();
            continue;
        }
        if src[i..].starts_with("//") {
            i = src[i..].find('\n').map_or(n, |j| i + j);
            continue;
        }
        if src[i..].starts_with("/*") {
            let (mut depth, mut j) = (1, i + 2);
            while j < n && depth > 0 {
                if src[j..].starts_with("/*") {
                    depth += 1;
                    j += 2;
                } else if src[j..].starts_with("*/") {
                    depth -= 1;
                    j += 2;
                } else {
                    j += 1;
                }
            }
            let j = boundary(j.min(n));
            line += count_lines(i, j);
            i = j;
            continue;
        }
        if let Some(raw) = matches!(c, 'b' | 'c' | 'r').then(|| RAW_START.captures(&src[i..])).flatten() {
            let hashes = raw[1].len();
            let open_end = i + raw[0].len();
            let close = format!("\"{}", "#".repeat(hashes));
            let j = src[open_end..].find(&close).map_or(n, |j| open_end + j + close.len());
            let lines = count_lines(i, j);
            i = push(Kind::Raw, j, lines);
            line += lines;
            continue;
        }
        if c == '"' || (matches!(c, 'b' | 'c') && at(i + 1) == b'"') {
            let j = boundary(quoted_end(i + if c == '"' { 1 } else { 2 }, b'"'));
            let lines = count_lines(i, j);
            i = push(Kind::Str, j, lines);
            line += lines;
            continue;
        }
        if c == '\'' || (c == 'b' && at(i + 1) == b'\'') {
            let k = i + if c == 'b' { 2 } else { 1 };
            if at(k) == b'\\' {
                let j = quoted_end(k + 2, b'\'');
                i = push(Kind::Char, j, 0);
                continue;
            }
            if let Some(ch) = src.get(k..).and_then(|rest| rest.chars().next()) {
                let after = k + ch.len_utf8();
                if at(after) == b'\'' {
                    i = push(Kind::Char, after + 1, 0);
                    continue;
                }
            }
            let j = src.get(k..).and_then(|rest| IDENT.find(rest)).map_or(k, |m| k + m.end());
            let end = push(Kind::Lifetime, j, 0);
            i = end.max(i + 1);
            continue;
        }
        if c == '_' || c.is_alphabetic() {
            let mut j = IDENT.find(&src[i..]).map_or(i + c.len_utf8(), |m| i + m.end());
            while let Some(next) = src[j..].chars().next().filter(|&c| c == '_' || c.is_alphanumeric()) {
                j += next.len_utf8();
            }
            i = push(Kind::Ident, j, 0);
            continue;
        }
        if c.is_ascii_digit() {
            let mut j = i + 1;
            while j < n
                && (bytes[j].is_ascii_alphanumeric()
                    || bytes[j] == b'_'
                    || (bytes[j] == b'.' && at(j + 1).is_ascii_digit()))
            {
                j += 1;
            }
            i = push(Kind::Num, j, 0);
            continue;
        }
        i = push(Kind::Op, i + c.len_utf8(), 0);
    }
    toks
}

/// The value of a string or raw string literal.
fn decode_string(tok: &Tok) -> String {
    let text = tok.text;
    if tok.kind == Kind::Raw {
        let open = RAW_START.captures(text).expect("a raw string starts so");
        let end = text.len().saturating_sub(1 + open[1].len()).max(open[0].len());
        return text.get(open[0].len()..end).unwrap_or("").replace("\r\n", "\n");
    }
    let text = text.strip_prefix(['b', 'c']).unwrap_or(text);
    let body = text.get(1..text.len().saturating_sub(1).max(1)).unwrap_or("");
    let mut out = String::with_capacity(body.len());
    let mut chars = body.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        if c == '\r' && body[i..].starts_with("\r\n") {
            chars.next();
            out.push('\n');
            continue;
        }
        if c != '\\' {
            out.push(c);
            continue;
        }
        let Some((_, e)) = chars.next() else {
            break;
        };
        match e {
            'n' => out.push('\n'),
            'r' => out.push('\r'),
            't' => out.push('\t'),
            '\\' | '\'' | '"' => out.push(e),
            '0' => out.push('\0'),
            'x' => {
                let hex: String = (0..2).filter_map(|_| chars.next().map(|(_, c)| c)).collect();
                out.push(
                    u32::from_str_radix(&hex, 16).ok().and_then(char::from_u32).unwrap_or(char::REPLACEMENT_CHARACTER),
                );
            }
            'u' => {
                let mut hex = String::new();
                for (_, c) in chars.by_ref() {
                    if c == '}' {
                        break;
                    }
                    if c != '{' && c != '_' {
                        hex.push(c);
                    }
                }
                out.push(
                    u32::from_str_radix(&hex, 16).ok().and_then(char::from_u32).unwrap_or(char::REPLACEMENT_CHARACTER),
                );
            }
            '\n' | '\r' => {
                // A line continuation: the newline and the next line's indentation go.
                while chars.peek().is_some_and(|&(_, c)| matches!(c, ' ' | '\t' | '\n' | '\r')) {
                    chars.next();
                }
            }
            _ => {
                out.push('\\');
                out.push(e);
            }
        }
    }
    out
}

/// `fill align sign # 0 width .precision type` after a placeholder's `:`,
/// as two patterns: with the `0` flag and without (the `regex` crate has no
/// look-ahead, and a `0` followed by `N$` is a width argument, not the flag).
static SPEC_ZERO: LazyLock<Regex> = LazyLock::new(|| spec_pattern("(?P<zero>0)"));
static SPEC_PLAIN: LazyLock<Regex> = LazyLock::new(|| spec_pattern(""));
static ARGUMENT: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^(?:[0-9]+|(?:r#)?[A-Za-z_][A-Za-z0-9_]*)$").expect("a valid pattern"));
static WIDTH_ARGUMENT: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"^[0-9]*\$").expect("a valid pattern"));

fn spec_pattern(zero: &str) -> Regex {
    let count = r"[0-9]+\$|[A-Za-z_][A-Za-z0-9_]*\$|[0-9]+";
    Regex::new(&format!(
        r"(?s)^(?:(?P<fill>.)?(?P<align>[<^>]))?(?P<sign>[+-])?(?P<alt>#)?{zero}(?P<width>{count})?(?:\.(?P<prec>{count}|\*))?(?P<type>\?|x\?|X\?|[A-Za-z_][A-Za-z0-9_]*)?$"
    ))
    .expect("a valid pattern")
}

/// Whether the spec is valid, and if so whether its rendering can be empty.
fn spec_may_be_empty(spec: &str) -> Option<bool> {
    let with_zero =
        SPEC_ZERO.captures(spec).filter(|c| c.name("zero").is_some_and(|z| !WIDTH_ARGUMENT.is_match(&spec[z.end()..])));
    let found = with_zero.or_else(|| SPEC_PLAIN.captures(spec))?;
    let has = |name| found.name(name).is_some_and(|m| !m.as_str().is_empty());
    let wide = found.name("width").is_some_and(|w| w.as_str().parse::<u64>().is_ok_and(|w| w > 0));
    Some(!(has("type") || wide || has("sign") || has("zero")))
}

/// Splits a format string into literal text and placeholders (`{{` and
/// `}}` are braces); `None` when it is not a valid format string.
fn split_format(format: &str) -> Option<Vec<Part>> {
    let mut parts = Vec::new();
    let mut literal = String::new();
    let mut i = 0;
    while let Some(c) = format[i..].chars().next() {
        match c {
            '{' if format[i..].starts_with("{{") => {
                literal.push('{');
                i += 2;
            }
            '{' => {
                let j = i + format[i..].find('}')?;
                let inner = &format[i + 1..j];
                let (argument, spec) = inner.split_once(':').unwrap_or((inner, ""));
                let argument = argument.trim();
                if !argument.is_empty() && !ARGUMENT.is_match(argument) {
                    return None;
                }
                let may_be_empty = spec_may_be_empty(spec)?;
                if !literal.is_empty() {
                    parts.push(Part::Literal(std::mem::take(&mut literal)));
                }
                parts.push(Part::Placeholder { may_be_empty });
                i = j + 1;
            }
            '}' if format[i..].starts_with("}}") => {
                literal.push('}');
                i += 2;
            }
            '}' => return None,
            _ => {
                literal.push(c);
                i += c.len_utf8();
            }
        }
    }
    if !literal.is_empty() {
        parts.push(Part::Literal(literal));
    }
    Some(parts)
}

/// The innermost `fn`, `impl` type, enum or struct and `if` header around
/// every token, and which tokens are in `#[cfg(test)]` items.
struct Structure {
    scopes: Vec<Scope>,
    excluded: Vec<bool>,
}

#[derive(Clone, Default)]
struct Scope {
    func: Option<String>,
    implementation: Option<String>,
    /// The enum or struct (its name) a token is declared in.
    item: Option<String>,
    /// The condition of the innermost block, when that block is an `if`'s.
    header: Option<String>,
}

/// An open `{`: what it is the body of.
struct Open {
    kind: &'static str,
    name: Option<String>,
    header: Option<String>,
}

impl Structure {
    fn new(src: &str, toks: &[Tok]) -> Structure {
        let n = toks.len();
        let mut st = Structure { scopes: Vec::with_capacity(n), excluded: vec![false; n] };
        let mut stack: Vec<Open> = Vec::new();
        let mut pending: Option<(&'static str, usize)> = None;
        let (mut pending_depth, mut paren) = (0i32, 0i32);
        let mut cfg_test_until: isize = -1;
        for (k, t) in toks.iter().enumerate() {
            if t.is("#") && k + 2 < n && toks[k + 1].is("[") && toks[k + 2].is("cfg") {
                let close = matching_close(toks, k + 1);
                let inner = &toks[(k + 3).min(close)..close];
                if inner.iter().any(|x| x.is("test")) && !inner.iter().any(|x| x.is("not")) {
                    cfg_test_until = cfg_test_until.max(item_end(toks, close + 1) as isize);
                }
            }
            st.excluded[k] = k as isize <= cfg_test_until;
            let after = |texts: &[&str]| k > 0 && texts.contains(&toks[k - 1].text);
            if t.kind == Kind::Op && (t.is("(") || t.is("[")) {
                paren += 1;
            } else if t.kind == Kind::Op && (t.is(")") || t.is("]")) {
                paren -= 1;
            } else if let Some(&kind) = ["fn", "impl", "enum", "struct", "trait", "mod"]
                .iter()
                .find(|&&kw| t.kind == Kind::Ident && t.is(kw))
                .filter(|_| !after(&["."]))
            {
                let impl_trait = kind == "impl" && after(&["(", ",", ":", "<", "&", "=", ">"]);
                let fn_pointer = kind == "fn" && toks.get(k + 1).is_some_and(|next| next.kind != Kind::Ident);
                if !impl_trait && !fn_pointer {
                    pending = Some((kind, k));
                    pending_depth = paren;
                }
            } else if t.kind == Kind::Op && t.is(";") && pending.is_some() && paren == pending_depth {
                pending = None;
            } else if t.kind == Kind::Op && t.is("{") {
                let open = match pending.take().filter(|_| paren == pending_depth) {
                    Some(("impl", pk)) => Open { kind: "impl", name: Some(impl_name(toks, pk, k)), header: None },
                    Some(("trait", pk)) => {
                        Open { kind: "impl", name: toks.get(pk + 1).map(|t| t.text.to_string()), header: None }
                    }
                    Some((kind, pk)) => Open { kind, name: toks.get(pk + 1).map(|t| t.text.to_string()), header: None },
                    None => Open { kind: "block", name: None, header: if_header(src, toks, k) },
                };
                stack.push(open);
            } else if t.kind == Kind::Op && t.is("}") {
                stack.pop();
            }
            let innermost = |kinds: &[&str]| {
                stack.iter().rev().find(|open| kinds.contains(&open.kind)).and_then(|open| open.name.clone())
            };
            st.scopes.push(Scope {
                func: innermost(&["fn"]),
                implementation: innermost(&["impl"]),
                item: innermost(&["enum", "struct"]),
                header: stack.last().filter(|open| open.kind == "block").and_then(|open| open.header.clone()),
            });
        }
        st
    }

    /// `Type::function`, or the function alone outside an `impl`.
    fn place(&self, k: usize) -> Option<String> {
        let scope = &self.scopes[k];
        let func = scope.func.as_ref()?;
        Some(match &scope.implementation {
            Some(ty) => format!("{ty}::{func}"),
            None => func.clone(),
        })
    }

    /// " when `condition`", for a short one-line `if` condition.
    fn condition(&self, k: usize) -> String {
        match &self.scopes[k].header {
            Some(h) if !h.is_empty() && h.chars().count() <= 80 && !h.contains(['`', '\n', '{']) => {
                format!(" when `{h}`")
            }
            _ => String::new(),
        }
    }
}

/// The index of the last token of the item starting at `toks[k]`.
fn item_end(toks: &[Tok], k: usize) -> usize {
    let n = toks.len();
    let mut j = k;
    while j < n {
        let t = &toks[j];
        if t.is("#") && j + 1 < n && toks[j + 1].is("[") {
            j = matching_close(toks, j + 1) + 1;
        } else if t.kind == Kind::Op && (t.is("(") || t.is("[")) {
            j = matching_close(toks, j) + 1;
        } else if t.kind == Kind::Op && t.is("{") {
            return matching_close(toks, j);
        } else if t.kind == Kind::Op && t.is(";") {
            return j;
        } else {
            j += 1;
        }
    }
    n - 1
}

/// The condition of an `if ... {` whose `{` is `toks[k]`.
fn if_header(src: &str, toks: &[Tok], k: usize) -> Option<String> {
    let line = toks[k].line;
    let mut a = k;
    while a > 0 && toks[a - 1].end_line == line {
        a -= 1;
    }
    while a < k && (toks[a].is("}") || toks[a].is("else")) {
        a += 1;
    }
    if a >= k || !toks[a].is("if") {
        return None;
    }
    let text = src.get(toks[a + 1].start..toks[k - 1].end).unwrap_or("");
    Some(text.split_whitespace().collect::<Vec<_>>().join(" "))
}

/// The self type of `impl<...> [Trait for] Type<...> [where ...] {`.
fn impl_name(toks: &[Tok], k: usize, brace: usize) -> String {
    let mut seg = &toks[(k + 1).min(brace)..brace];
    if seg.first().is_some_and(|t| t.is("<")) {
        let mut depth = 0;
        for (idx, t) in seg.iter().enumerate() {
            if t.is("<") {
                depth += 1;
            } else if t.is(">") && !(idx > 0 && (seg[idx - 1].is("-") || seg[idx - 1].is("="))) {
                depth -= 1;
                if depth == 0 {
                    seg = &seg[idx + 1..];
                    break;
                }
            }
        }
    }
    if let Some(idx) = seg.iter().position(|t| t.kind == Kind::Ident && t.is("for")) {
        seg = &seg[idx + 1..];
    }
    if let Some(idx) = seg.iter().position(|t| t.kind == Kind::Ident && t.is("where")) {
        seg = &seg[..idx];
    }
    seg.iter()
        .take_while(|t| !t.is("<"))
        .filter(|t| t.kind == Kind::Ident && !["dyn", "mut", "const"].contains(&t.text))
        .last()
        .map_or_else(|| "?".to_string(), |t| t.text.to_string())
}

/// A string literal argument at `toks[j]` followed by `,` `)` `]` or `}`:
/// its value and token index.
fn literal_arg(toks: &[Tok], j: usize) -> Option<(String, usize)> {
    let t = toks.get(j)?;
    let closes = toks.get(j + 1).is_some_and(|next| [",", ")", "]", "}"].contains(&next.text));
    (t.is_literal() && !t.text.starts_with(['b', 'c']) && closes).then(|| (decode_string(t), j))
}

/// What a `format!(...)` (maybe behind `&`) at `toks[j]` is.
enum FormatArg {
    None,
    NotLiteral,
    /// Its literal (value and token) and the index of its closing bracket.
    Literal(String, usize, usize),
}

fn format_macro_arg(toks: &[Tok], mut j: usize) -> FormatArg {
    if toks.get(j).is_some_and(|t| t.is("&")) {
        j += 1;
    }
    if j + 2 < toks.len()
        && toks[j].kind == Kind::Ident
        && toks[j].is("format")
        && toks[j + 1].is("!")
        && toks[j + 2].is_op("([{")
    {
        return match literal_arg(toks, j + 3) {
            None => FormatArg::NotLiteral,
            Some((value, tok)) => FormatArg::Literal(value, tok, matching_close(toks, j + 2)),
        };
    }
    FormatArg::None
}

/// The first token of the postfix chain (`a.b()?.c`) that ends before `toks[dot]`.
fn receiver_start(toks: &[Tok], dot: usize) -> usize {
    let n = toks.len();
    let mut a = dot as isize - 1;
    while a >= 0 {
        let t = &toks[a as usize];
        if t.kind == Kind::Op && (t.is(")") || t.is("]")) {
            let (mut depth, mut b) = (0, a);
            while b >= 0 {
                let tb = &toks[b as usize];
                if tb.kind == Kind::Op && (tb.is(")") || tb.is("]")) {
                    depth += 1;
                } else if tb.kind == Kind::Op && (tb.is("(") || tb.is("[")) {
                    depth -= 1;
                    if depth == 0 {
                        break;
                    }
                }
                b -= 1;
            }
            a = b - 1;
            if a >= 0 && toks[a as usize].is("!") {
                a -= 1;
            }
            if a >= 0 && toks[a as usize].kind == Kind::Ident {
                continue;
            }
            return wrapping(0, a + 1, n);
        }
        if t.kind == Kind::Op && t.is("?") {
            a -= 1;
            continue;
        }
        if t.kind == Kind::Ident {
            let u = a as usize;
            if u >= 1 && toks[u - 1].is(".") {
                a -= 2;
                continue;
            }
            if u >= 2 && toks[u - 1].is(":") && toks[u - 2].is(":") {
                a -= 3;
                continue;
            }
            return u;
        }
        return wrapping(0, a + 1, n);
    }
    0
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum CallKind {
    /// `bail!`, `anyhow!` or `format_err!` (the macro's name).
    Macro(&'static str),
    Thiserror,
    Context,
    WithContext,
    /// `shell.warn` (true) or `shell.error`.
    Shell(bool),
    /// Built into a binding first (see [`built`]).
    Built(built::Sink),
}

struct Call {
    kind: CallKind,
    message: String,
    is_format: bool,
    literal: usize,
    tok: usize,
    start: u32,
    end: u32,
    class: Option<String>,
    /// The binding a built message is built into.
    binding: Option<String>,
}

fn find_calls(toks: &[Tok], st: &Structure) -> Vec<Call> {
    let n = toks.len();
    let mut calls = Vec::new();
    for (i, t) in toks.iter().enumerate() {
        if st.excluded[i] || !matches!(t.kind, Kind::Ident | Kind::Op) {
            continue;
        }
        let text = |j: usize| toks.get(j).map_or("", |t| t.text);
        if let Some(&name) = MACROS.iter().find(|&&m| t.kind == Kind::Ident && t.is(m)) {
            if i + 2 < n && text(i + 1) == "!" && toks[i + 2].is_op("([{") {
                if i > 0 && text(i - 1) == "." {
                    continue;
                }
                let a = if i >= 3 && text(i - 1) == ":" && text(i - 2) == ":" && text(i - 3) == "anyhow" {
                    i - 3
                } else {
                    i
                };
                let close = matching_close(toks, i + 2);
                if let Some((message, literal)) = literal_arg(toks, i + 3) {
                    let (start, end) = (toks[a].line, toks[close].end_line);
                    calls.push(Call {
                        kind: CallKind::Macro(name),
                        message,
                        is_format: true,
                        literal,
                        tok: i,
                        start,
                        end,
                        class: None,
                        binding: None,
                    });
                }
                continue;
            }
        }
        if t.is("#") && i + 3 < n && text(i + 1) == "[" && text(i + 2) == "error" && text(i + 3) == "(" {
            let close = matching_close(toks, i + 1);
            let Some((message, literal)) = literal_arg(toks, i + 4) else { continue };
            // The item the attribute belongs to.
            let mut j = close + 1;
            while j < n && toks[j].is("#") {
                j = matching_close(toks, j + 1) + 1;
            }
            while j < n && toks[j].kind == Kind::Ident && (toks[j].is("pub") || toks[j].is("crate")) {
                j += 1;
            }
            if j < n && toks[j].is("(") {
                j = matching_close(toks, j) + 1;
            }
            let class = if j < n && (toks[j].is("struct") || toks[j].is("enum")) {
                text(j + 1).to_string()
            } else {
                match &st.scopes[i].item {
                    Some(item) => format!("{item}::{}", text(j)),
                    None => text(j).to_string(),
                }
            };
            let (start, end) = (t.line, toks[close].end_line);
            calls.push(Call {
                kind: CallKind::Thiserror,
                message,
                is_format: true,
                literal,
                tok: i,
                start,
                end,
                class: Some(class),
                binding: None,
            });
            continue;
        }
        if t.kind != Kind::Ident || i == 0 || text(i - 1) != "." || text(i + 1) != "(" {
            continue;
        }
        let kind = match t.text {
            "warn" | "error" => {
                let shell = i >= 2
                    && (toks[i - 2].kind == Kind::Ident && toks[i - 2].is("shell")
                        || (toks[i - 2].is(")") && i >= 4 && text(i - 3) == "(" && text(i - 4) == "shell"));
                if !shell {
                    continue;
                }
                CallKind::Shell(t.is("warn"))
            }
            "context" => CallKind::Context,
            "with_context" => CallKind::WithContext,
            _ => continue,
        };
        let close = matching_close(toks, i + 1);
        let mut j = i + 2;
        let mut body_end = close;
        if kind == CallKind::WithContext {
            // The closure: `|..| body` or `move |..| body`.
            if text(j) == "move" && text(j + 1) == "|" {
                j += 1;
            }
            if text(j) != "|" {
                continue;
            }
            j += 1;
            while j < close && text(j) != "|" {
                j += 1;
            }
            j += 1;
            if text(j) == "{" {
                let inner_close = matching_close(toks, j);
                if inner_close + 1 != close && !(inner_close + 2 == close && text(close - 1) == ",") {
                    continue;
                }
                body_end = inner_close;
                // The block's value: after its last statement (cargo's
                // `could not compile {name}{errors}{warnings}` is built
                // from the `let`s before it).
                j = block_tail(toks, j);
            }
        }
        let after_format: &[&str] = if kind == CallKind::WithContext { &[")", "}", ","] } else { &[")", ","] };
        let (message, literal, is_format) = match format_macro_arg(toks, j) {
            FormatArg::NotLiteral => continue,
            FormatArg::Literal(value, tok, end) if after_format.contains(&text(end + 1)) => (value, tok, true),
            _ => {
                let Some((value, tok)) = literal_arg(toks, j) else { continue };
                if kind == CallKind::WithContext
                    && !(text(tok + 1) == ")" || text(tok + 1) == "}")
                    && tok + 1 != body_end
                {
                    continue;
                }
                (value, tok, false)
            }
        };
        let a = receiver_start(toks, i - 1);
        let mut start = toks[a].line;
        if toks[literal].line.saturating_sub(start) > 10 {
            start = toks[i - 1].line;
        }
        calls.push(Call {
            kind,
            message,
            is_format,
            literal,
            tok: i,
            start,
            end: toks[close].end_line,
            class: None,
            binding: None,
        });
    }
    // After the shapes above, which keep a line's message if both find it.
    for found in built::built_messages(toks, st) {
        let (start, end) = (toks[found.first].line, toks[found.last].end_line);
        let (kind, tok, binding) = (found.kind(), found.first, Some(found.binding));
        calls.push(Call {
            kind,
            message: found.message,
            is_format: true,
            literal: found.literal,
            tok,
            start,
            end,
            class: None,
            binding,
        });
    }
    calls
}

/// The first token of the tail expression of the block opened at
/// `toks[open]`: after its last `;` at the block's own depth.
fn block_tail(toks: &[Tok], open: usize) -> usize {
    let close = matching_close(toks, open);
    let mut tail = open + 1;
    let mut j = open + 1;
    while j < close {
        if toks[j].is(";") {
            tail = j + 1;
        }
        j = if toks[j].is_op("([{") { matching_close(toks, j) + 1 } else { j + 1 };
    }
    tail
}

/// The documentation sentence of a call.
fn documentation(call: &Call, st: &Structure, file: &str) -> String {
    let k = call.tok;
    let place = st.place(k).unwrap_or_else(|| "module-level code".to_string());
    let cond = st.condition(k);
    match call.kind {
        CallKind::Thiserror => {
            format!("Display message of the error {} declared in {file}.", call.class.as_deref().unwrap_or("?"))
        }
        CallKind::Macro("bail") => format!("Returned early (bail!) by {place} in {file}{cond}."),
        CallKind::Macro(name) => format!("Created by {place} in {file} with {name}!{cond}."),
        CallKind::Context => format!("Added as error context (.context) by {place} in {file}{cond}."),
        CallKind::WithContext => format!("Added as error context (.with_context) by {place} in {file}{cond}."),
        CallKind::Shell(warn) => {
            let level = if warn { "a warning" } else { "an error" };
            format!("Printed as {level} on the shell by {place} in {file}{cond}.")
        }
        CallKind::Built(sink) => {
            let what = if sink == built::Sink::Warning { "a warning" } else { "an error" };
            let binding = call.binding.as_deref().unwrap_or("a message");
            format!("Built into `{binding}` by {place} in {file}, which becomes {what}{cond}.")
        }
    }
}

fn parts_of(message: &str, is_format: bool) -> Option<Vec<Part>> {
    if is_format {
        split_format(message)
    } else {
        Some(vec![Part::Literal(message.to_string())])
    }
}

impl Extractor for Rust {
    fn extract_file(&self, file: &str, text: &str) -> Vec<Found> {
        let toks = tokenize(text);
        let st = Structure::new(text, &toks);
        let lines: Vec<&str> = text.split('\n').collect();
        let mut keep = Keep::default();
        let mut found = Vec::new();
        for call in find_calls(&toks, &st) {
            let line = toks[call.literal].line;
            if !parts_of(&call.message, call.is_format).is_some_and(|parts| keep.keep(line, &call.message, &parts)) {
                continue;
            }
            let (error_type, severity) = match call.kind {
                CallKind::Shell(true) => ("log", "warning"),
                CallKind::Shell(false) => ("log", "error"),
                CallKind::Built(built::Sink::Warning) => ("log", "warning"),
                _ => ("exception", "error"),
            };
            let (function, sentence) = (st.place(call.tok), documentation(&call, &st, file));
            let (call_lines, error_class) = ((call.start, call.end), call.class);
            found.push(
                Message {
                    file,
                    lines: &lines,
                    line,
                    call_lines,
                    message: call.message,
                    error_type,
                    severity,
                    error_class,
                    function,
                    sentence,
                }
                .found(),
            );
        }
        found
    }
}

/// Is the message of `found` a format string (a macro's, `#[error]`'s or
/// `write!(&mut msg, ..)`'s literal), not plain text (`.context("...")`)? Read again from its source.
fn is_format(found: &Found) -> bool {
    let toks = tokenize(&found.source);
    let line = found.line + 1 - found.call_lines.0;
    let text = |j: usize| toks.get(j).map_or("", |t| t.text);
    let literal = toks.iter().position(|t| t.is_literal() && t.line == line && decode_string(t) == found.message);
    // `name!(`, `name! {` or `#[error(` before the literal.
    let opens = |j: usize| ["(", "[", "{"].contains(&text(j));
    let written =
        |p: usize| p >= 7 && text(p - 1) == "," && text(p - 3) == "mut" && text(p - 4) == "&" && text(p - 6) == "!";
    literal.is_some_and(|p| {
        written(p)
            || (p >= 2
                && opens(p - 1)
                && (text(p - 2) == "!"
                    || (text(p - 1) == "(" && text(p - 2) == "error" && p >= 3 && text(p - 3) == "[")))
    })
}

impl Language for Rust {
    fn name(&self) -> &'static str {
        "rust"
    }

    fn scans(&self, file: &str) -> bool {
        let parts: Vec<&str> = file.split('/').collect();
        let (dirs, name) = parts.split_at(parts.len() - 1);
        let top = dirs.first().copied().unwrap_or("");
        (top == "src" || top == "crates")
            && name[0].ends_with(".rs")
            && !(top == "crates" && dirs.get(1).is_some_and(|c| SKIP_CRATES.contains(c)))
            && !dirs.iter().any(|d| SKIP_DIRS.contains(d))
            && !["tests.rs", "test.rs"].contains(&name[0])
    }

    fn describe(&self) -> &'static str {
        "Each record is, in a non-test file under `src/` or `crates/` (not the crates that only\n\
         test cargo, not `tests`, `benches`, `examples` or `fixtures` folders, not `#[cfg(test)]`\n\
         items): `bail!` / `anyhow!` / `format_err!` with a literal format string, `.context(...)`\n\
         or `.with_context(|| ...)` with a literal or `format!(literal, ...)`, thiserror's\n\
         `#[error(\"...\")]` (`errorClass` the type or `Enum::Variant`), all `errorType`\n\
         \"exception\"; and `shell.warn(...)` / `.shell().error(...)` (`errorType` \"log\").\n\
         A placeholder becomes `(.*?)` in `messagePattern` when its rendering can be empty (plain\n\
         `{}`), else `(.+?)`; a `.context(\"...\")` message is literal text. Messages built first are\n\
         records too: `let msg = format!(\"...\", ..)` and `write!(&mut msg, \"...\", ..)` when `msg`\n\
         then reaches `bail!` / `anyhow!` / `format_err!` / `.context` / `Err` (an error) or\n\
         `warnings.push` / `.warn` (`errorType` \"log\", a warning), and the literal starts with a letter\n\
         and does not end with a line break.\n\n"
    }

    fn message_pattern(&self, found: &Found) -> String {
        let parts = parts_of(&found.message, is_format(found));
        pattern_of(&parts.unwrap_or_else(|| vec![Part::Literal(found.message.clone())]))
    }
}
