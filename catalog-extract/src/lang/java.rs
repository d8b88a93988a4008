//! Java (as Kafka writes its errors): SLF4J calls
//! `log|LOG|logger|LOGGER.error/warn/info/debug/trace("...", args)` (a
//! leading Marker allowed, or `String.format("...", args)`), and `throw new
//! XException("..." | String.format("...", ...))`, with literal messages
//! (literals joined with `+` are joined).

use std::sync::LazyLock;

use regex::Regex;

use crate::found::{Extractor, Found};
use crate::lang::tokens::{matching_close, matching_open, Kind, Tok};
use crate::lang::{pattern_of, Call as Message, Keep, Language, Part};

/// The Java extractor.
pub struct Java;

const MODULES: [&str; 9] =
    ["clients", "core", "connect", "streams", "group-coordinator", "metadata", "raft", "server", "storage"];
/// Main-source trees that are tests, examples or templates.
const SKIP_TREES: [&str; 4] =
    ["connect/test-plugins/", "streams/examples/", "streams/quickstart/", "streams/test-utils/"];
const LOGGERS: [&str; 4] = ["log", "LOG", "logger", "LOGGER"];
/// Level method, severity.
const LOG_LEVELS: [(&str, &str); 5] =
    [("error", "error"), ("warn", "warning"), ("info", "info"), ("debug", "debug"), ("trace", "debug")];
const CONTROL: [&str; 10] = ["if", "for", "while", "switch", "catch", "synchronized", "try", "do", "else", "finally"];

fn tokenize(src: &str) -> Vec<Tok<'_>> {
    let bytes = src.as_bytes();
    let n = src.len();
    let mut toks = Vec::new();
    let (mut i, mut line) = (0, 1u32);
    let count_lines = |a: usize, b: usize| bytes[a..b].iter().filter(|&&b| b == b'\n').count() as u32;
    while i < n {
        let c = src[i..].chars().next().expect("within the text");
        let boundary = |e: usize| (e..=n).find(|&e| src.is_char_boundary(e)).unwrap_or(n);
        let mut push = |kind, end: usize, lines: u32| {
            let end = boundary(end);
            toks.push(Tok { kind, text: &src[i..end], start: i, end, line, end_line: line + lines, bol: false });
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
            _ if src[i..].starts_with("\"\"\"") => {
                // A text block (left out: its indentation rules are not read here).
                let mut j = i + 3;
                while j < n && !src[j..].starts_with("\"\"\"") {
                    j += if bytes[j] == b'\\' { 2 } else { 1 };
                }
                let j = boundary((j + 3).min(n));
                let lines = count_lines(i, j);
                i = push(Kind::Raw, j, lines);
                line += lines;
            }
            '"' | '\'' => {
                let quote = c as u8;
                let mut j = i + 1;
                while j < n && bytes[j] != quote && bytes[j] != b'\n' {
                    j += if bytes[j] == b'\\' { 2 } else { 1 };
                }
                i = push(if c == '"' { Kind::Str } else { Kind::Char }, (j + 1).min(n), 0);
            }
            _ if c == '_' || c == '$' || c.is_alphabetic() => {
                let j = src[i..].find(|c: char| c != '_' && c != '$' && !c.is_alphanumeric()).map_or(n, |j| i + j);
                i = push(Kind::Ident, j, 0);
            }
            _ if c.is_ascii_digit() || (c == '.' && bytes.get(i + 1).is_some_and(u8::is_ascii_digit)) => {
                let mut j = i + 1;
                while j < n && (bytes[j].is_ascii_alphanumeric() || bytes[j] == b'_' || bytes[j] == b'.') {
                    j += 1;
                }
                i = push(Kind::Num, j, 0);
            }
            _ => i = push(Kind::Op, i + c.len_utf8(), 0),
        }
    }
    toks
}

/// `\uXXXX` escapes (any number of `u`) become their characters first, as
/// the compiler does, unless the backslash is itself escaped.
fn unicode_escapes(body: &str) -> String {
    static ESCAPE: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"^u+([0-9a-fA-F]{4})").expect("a valid pattern"));
    let mut out = String::with_capacity(body.len());
    let mut rest = body;
    while let Some(at) = rest.find('\\') {
        out.push_str(&rest[..at]);
        let run = rest[at..].bytes().take_while(|&b| b == b'\\').count();
        let after = &rest[at + run..];
        match ESCAPE.captures(after).filter(|_| run % 2 == 1) {
            Some(escape) => {
                out.push_str(&"\\".repeat(run - 1));
                let code = u32::from_str_radix(&escape[1], 16).expect("four hex digits");
                out.push(char::from_u32(code).unwrap_or(char::REPLACEMENT_CHARACTER));
                rest = &after[escape[0].len()..];
            }
            None => {
                out.push_str(&rest[at..at + run]);
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

/// The value of a string literal.
fn decode_string(text: &str) -> String {
    static OCTAL: LazyLock<Regex> =
        LazyLock::new(|| Regex::new(r"^(?:[0-3][0-7]{0,2}|[4-7][0-7]?)").expect("a valid pattern"));
    let body = unicode_escapes(text.get(1..text.len().saturating_sub(1).max(1)).unwrap_or(""));
    let mut out = String::with_capacity(body.len());
    let mut i = 0;
    while let Some(c) = body[i..].chars().next() {
        if c != '\\' {
            out.push(c);
            i += c.len_utf8();
            continue;
        }
        let Some(e) = body[i + 1..].chars().next() else {
            out.push('\\');
            break;
        };
        let simple = match e {
            'b' => Some('\x08'),
            't' => Some('\t'),
            'n' => Some('\n'),
            'f' => Some('\x0c'),
            'r' => Some('\r'),
            's' => Some(' '),
            '"' | '\'' | '\\' => Some(e),
            _ => None,
        };
        if let Some(value) = simple {
            out.push(value);
            i += 2;
        } else if let Some(octal) = OCTAL.find(&body[i + 1..]) {
            out.push(char::from_u32(u32::from_str_radix(octal.as_str(), 8).expect("octal digits")).expect("below 256"));
            i += 1 + octal.len();
        } else {
            out.push('\\');
            out.push(e);
            i += 1 + e.len_utf8();
        }
    }
    out
}

/// The parts of an SLF4J message, as `org.slf4j.helpers.MessageFormatter`
/// reads it: `{}` a placeholder, `\{}` a literal `{}`, `\\{}` a backslash
/// and a placeholder.
fn split_slf4j(message: &str) -> Vec<Part> {
    let mut parts = Vec::new();
    let mut literal = String::new();
    let mut i = 0;
    let b = message.as_bytes();
    let flush = |literal: &mut String, parts: &mut Vec<Part>| {
        if !literal.is_empty() {
            parts.push(Part::Literal(std::mem::take(literal)));
        }
        parts.push(Part::Placeholder { may_be_empty: true });
    };
    while i < message.len() {
        let Some(j) = message[i..].find("{}").map(|j| i + j) else {
            literal.push_str(&message[i..]);
            break;
        };
        if j >= 1 && b[j - 1] == b'\\' {
            if j >= 2 && b[j - 2] == b'\\' {
                // Keeps one backslash.
                literal.push_str(&message[i..j - 1]);
                flush(&mut literal, &mut parts);
                i = j + 2;
            } else {
                literal.push_str(&message[i..j - 1]);
                literal.push('{');
                i = j + 1;
            }
            continue;
        }
        literal.push_str(&message[i..j]);
        flush(&mut literal, &mut parts);
        i = j + 2;
    }
    if !literal.is_empty() {
        parts.push(Part::Literal(literal));
    }
    parts
}

/// The parts of a `java.util.Formatter` string (`%n` a newline, `%%` a
/// percent); `None` when a conversion is not valid.
fn split_printf(message: &str) -> Option<Vec<Part>> {
    static CONVERSION: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"^%(?:\d+\$|<)?[-#+ 0,(]*(?P<width>\d+)?(?:\.\d+)?(?P<conv>[tT][a-zA-Z]|[bBhHsScCdoxXeEfgGaA%n])")
            .expect("a valid pattern")
    });
    let mut parts = Vec::new();
    let mut literal = String::new();
    let mut i = 0;
    while let Some(c) = message[i..].chars().next() {
        if c != '%' {
            literal.push(c);
            i += c.len_utf8();
            continue;
        }
        let conversion = CONVERSION.captures(&message[i..])?;
        match &conversion["conv"] {
            "%" => literal.push('%'),
            "n" => literal.push('\n'),
            conv => {
                if !literal.is_empty() {
                    parts.push(Part::Literal(std::mem::take(&mut literal)));
                }
                let may_be_empty = matches!(conv, "s" | "S") && conversion.name("width").is_none();
                parts.push(Part::Placeholder { may_be_empty });
            }
        }
        i += conversion[0].len();
    }
    if !literal.is_empty() {
        parts.push(Part::Literal(literal));
    }
    Some(parts)
}

/// What a `{` opens.
#[derive(Clone)]
enum Open {
    Type(String),
    Method(String),
    /// A block, with the condition when it is an `if`'s.
    Block(Option<String>),
}

/// The enclosing type and method and the innermost block's `if` condition of every token.
struct Structure {
    scopes: Vec<(Option<String>, Option<String>, Option<String>)>,
}

impl Structure {
    fn new(src: &str, toks: &[Tok]) -> Structure {
        let mut scopes = Vec::with_capacity(toks.len());
        let mut stack: Vec<Open> = Vec::new();
        for (k, t) in toks.iter().enumerate() {
            if t.kind == Kind::Op && t.is("{") {
                stack.push(classify(src, toks, k));
            } else if t.kind == Kind::Op && t.is("}") {
                stack.pop();
            }
            let (mut ty, mut method) = (None, None);
            for open in stack.iter().rev() {
                match open {
                    Open::Method(name) if method.is_none() && ty.is_none() => method = Some(name.clone()),
                    Open::Type(name) if ty.is_none() => ty = Some(name.clone()),
                    _ => {}
                }
            }
            let header = match stack.last() {
                Some(Open::Block(header)) => header.clone(),
                _ => None,
            };
            scopes.push((ty, method, header));
        }
        Structure { scopes }
    }
}

/// What the `{` at `toks[k]` opens: a type's body (class, interface, enum,
/// record), a method's, or another block.
fn classify(src: &str, toks: &[Tok], k: usize) -> Open {
    // Back to the last `;`, `{` or `}`, over bracketed groups.
    let mut a = k as isize - 1;
    while a >= 0 && !toks[a as usize].is_op(";{}") {
        if toks[a as usize].is_op(")]") {
            a = matching_open(toks, a as usize) as isize - 1;
            continue;
        }
        a -= 1;
    }
    let first = (a + 1) as usize;
    for idx in first..k {
        let t = &toks[idx];
        let next_ident = |d: usize| idx + d < k && toks[idx + d].kind == Kind::Ident;
        if t.kind == Kind::Ident
            && ["class", "interface", "enum"].contains(&t.text)
            && !(idx > 0 && toks[idx - 1].is("."))
            && next_ident(1)
        {
            return Open::Type(toks[idx + 1].text.to_string());
        }
        if t.kind == Kind::Ident
            && t.is("record")
            && idx + 2 < k
            && toks[idx + 1].kind == Kind::Ident
            && (toks[idx + 2].is("(") || toks[idx + 2].is("<"))
            && (idx == first || toks[idx - 1].kind == Kind::Ident || toks[idx - 1].is(")"))
        {
            return Open::Type(toks[idx + 1].text.to_string());
        }
    }
    let mut j = k as isize - 1;
    // Over `throws A, b.C`.
    if j >= 0 && toks[j as usize].kind == Kind::Ident {
        let mut b = j;
        while b >= 0 && (toks[b as usize].kind == Kind::Ident || toks[b as usize].is(".") || toks[b as usize].is(",")) {
            if toks[b as usize].is("throws") {
                j = b - 1;
                break;
            }
            b -= 1;
        }
    }
    if j >= 0 && toks[j as usize].is(")") {
        let j = j as usize;
        let o = matching_open(toks, j);
        if o >= 1 && toks[o - 1].kind == Kind::Ident {
            let name = toks[o - 1].text;
            let before = o.checked_sub(2).map(|b| &toks[b]);
            if CONTROL.contains(&name) {
                let header = (name == "if" && j - 1 > o)
                    .then(|| src[toks[o + 1].start..toks[j - 1].end].split_whitespace().collect::<Vec<_>>().join(" "));
                return Open::Block(header);
            }
            if before.is_none_or(|b| ![".", "new", "=", "(", ",", "->", "return", ":", "?"].contains(&b.text)) {
                return Open::Method(name.to_string());
            }
        }
    }
    Open::Block(None)
}

/// A run of string literals joined with `+` at `toks[j]`.
enum Run {
    None,
    /// Followed by something other than `,` or `)`.
    Concat,
    TextBlock,
    /// The value, the first literal's index and the index after the run.
    Literal(String, usize, usize),
}

fn literal_run(toks: &[Tok], mut j: usize) -> Run {
    let Some(t) = toks.get(j) else { return Run::None };
    match t.kind {
        Kind::Raw => return Run::TextBlock,
        Kind::Str => {}
        _ => return Run::None,
    }
    let first = j;
    let mut value = decode_string(t.text);
    j += 1;
    while j + 1 < toks.len() && toks[j].is("+") && toks[j + 1].kind == Kind::Str {
        value.push_str(&decode_string(toks[j + 1].text));
        j += 2;
    }
    if !toks.get(j).is_some_and(|t| t.is(",") || t.is(")")) {
        return Run::Concat;
    }
    Run::Literal(value, first, j)
}

/// `String.format("..."` (or `String.format(locale, "..."`) at `toks[j]`:
/// `Some(run)` with the index after the call, `None` when it is not one.
fn string_format_arg(toks: &[Tok], j: usize) -> Option<Run> {
    let text = |k: usize| toks.get(k).map_or("", |t| t.text);
    if !(text(j) == "String" && text(j + 1) == "." && text(j + 2) == "format" && text(j + 3) == "(") {
        return None;
    }
    let close = matching_close(toks, j + 3);
    Some(match literal_run(toks, j + 4) {
        Run::Literal(value, first, _) => Run::Literal(value, first, close + 1),
        Run::None
            if toks.get(j + 4).is_some_and(|t| t.kind == Kind::Ident)
                && text(j + 5) == ","
                && toks.get(j + 6).is_some_and(|t| t.kind == Kind::Str) =>
        {
            match literal_run(toks, j + 6) {
                Run::Literal(value, first, _) => Run::Literal(value, first, close + 1),
                _ => Run::None,
            }
        }
        other => other,
    })
}

/// How a message is written.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Style {
    Slf4j,
    Printf,
    Plain,
}

struct Call {
    /// The logging level's index in `LOG_LEVELS`, or `None` for a `throw`.
    level: Option<usize>,
    style: Style,
    message: String,
    literal: usize,
    tok: usize,
    start: u32,
    end: u32,
    class: Option<String>,
}

/// The message of a logging call whose arguments start at `toks[j]`.
fn log_message(toks: &[Tok], j: usize, close: usize) -> Option<(String, usize, Style)> {
    match literal_run(toks, j) {
        Run::Literal(value, first, _) => return Some((value, first, Style::Slf4j)),
        Run::Concat | Run::TextBlock => return None,
        Run::None => {}
    }
    match string_format_arg(toks, j) {
        Some(Run::Literal(value, first, after)) => {
            return toks.get(after).is_some_and(|t| t.is(",") || t.is(")")).then_some((value, first, Style::Printf));
        }
        Some(_) => return None,
        None => {}
    }
    // The Marker form: log.info(MARKER, "...", ...).
    let mut k = j;
    while k < close && !toks[k].is(",") && (toks[k].kind == Kind::Ident || toks[k].is(".")) {
        k += 1;
    }
    let marker = k > j
        && toks[k].is(",")
        && toks.get(k + 1).is_some_and(|t| t.kind == Kind::Str)
        && (k - j == 1 || toks[k - 1].text.contains("arker") || is_upper(toks[k - 1].text));
    if !marker {
        return None;
    }
    match literal_run(toks, k + 1) {
        Run::Literal(value, first, _) => Some((value, first, Style::Slf4j)),
        _ => None,
    }
}

/// Python's `str.isupper`: some cased character, and none lower-case.
fn is_upper(text: &str) -> bool {
    text.chars().any(char::is_uppercase) && !text.chars().any(char::is_lowercase)
}

fn find_calls(toks: &[Tok]) -> Vec<Call> {
    let n = toks.len();
    let text = |k: usize| toks.get(k).map_or("", |t| t.text);
    let mut calls = Vec::new();
    for (i, t) in toks.iter().enumerate() {
        if t.kind != Kind::Ident {
            continue;
        }
        if let Some(level) =
            LOG_LEVELS.iter().position(|(m, _)| t.is(m)).filter(|_| i >= 2 && text(i - 1) == "." && text(i + 1) == "(")
        {
            let receiver = &toks[i - 2];
            if receiver.kind != Kind::Ident || !LOGGERS.contains(&receiver.text) {
                continue;
            }
            let this = i >= 4 && text(i - 4) == "this";
            if i >= 3 && text(i - 3) == "." && !this {
                continue;
            }
            let a = if this { i - 4 } else { i - 2 };
            let close = matching_close(toks, i + 1);
            if text(i + 2) == ")" {
                continue;
            }
            let Some((message, literal, style)) = log_message(toks, i + 2, close) else { continue };
            calls.push(Call {
                level: Some(level),
                style,
                message,
                literal,
                tok: i,
                start: toks[a].line,
                end: toks[close].end_line,
                class: None,
            });
            continue;
        }
        if t.is("throw") && i + 2 < n && text(i + 1) == "new" && toks[i + 2].kind == Kind::Ident {
            let mut j = i + 2;
            let mut class = toks[j].text;
            while text(j + 1) == "." && toks.get(j + 2).is_some_and(|t| t.kind == Kind::Ident) {
                j += 2;
                class = toks[j].text;
            }
            j += 1;
            if text(j) == "<" {
                while j < n && text(j) != ">" {
                    j += 1;
                }
                j += 1;
            }
            if text(j) != "(" {
                continue;
            }
            let close = matching_close(toks, j);
            let end_tok = if text(close + 1) == ";" { close + 1 } else { close };
            if text(j + 1) == ")" {
                continue;
            }
            let (message, literal, style) = match literal_run(toks, j + 1) {
                Run::Literal(value, first, _) => (value, first, Style::Plain),
                Run::None => match string_format_arg(toks, j + 1) {
                    Some(Run::Literal(value, first, after))
                        if toks.get(after).is_some_and(|t| t.is(",") || t.is(")")) =>
                    {
                        (value, first, Style::Printf)
                    }
                    _ => continue,
                },
                _ => continue,
            };
            calls.push(Call {
                level: None,
                style,
                message,
                literal,
                tok: i,
                start: t.line,
                end: toks[end_tok].end_line,
                class: Some(class.to_string()),
            });
        }
    }
    calls
}

fn documentation(call: &Call, st: &Structure, file: &str) -> (Option<String>, String) {
    let (ty, method, header) = &st.scopes[call.tok];
    let place = match (ty, method) {
        (Some(ty), Some(method)) if method != ty => format!("{ty}.{method}"),
        (Some(ty), Some(_)) => format!("the {ty} constructor"),
        (Some(ty), None) => format!("{ty} (initializer or field)"),
        _ => "top-level code".to_string(),
    };
    let cond = match header {
        Some(h) if !h.is_empty() && h.chars().count() <= 80 && !h.contains('`') => format!(" when `{h}`"),
        _ => String::new(),
    };
    let function = method.as_ref().map(|_| place.clone());
    let sentence = match call.level {
        Some(level) => format!("Logged at {} level by {place} in {file}{cond}.", LOG_LEVELS[level].0),
        None => format!("Thrown as {} by {place} in {file}{cond}.", call.class.as_deref().unwrap_or("?")),
    };
    (function, sentence)
}

fn parts_of(message: &str, style: Style) -> Option<Vec<Part>> {
    match style {
        Style::Slf4j => Some(split_slf4j(message)),
        Style::Printf => split_printf(message),
        Style::Plain => Some(vec![Part::Literal(message.to_string())]),
    }
}

impl Extractor for Java {
    fn extract_file(&self, file: &str, text: &str) -> Vec<Found> {
        let toks = tokenize(text);
        let st = Structure::new(text, &toks);
        let lines: Vec<&str> = text.split('\n').collect();
        let mut keep = Keep::default();
        let mut found = Vec::new();
        for call in find_calls(&toks) {
            let line = toks[call.literal].line;
            if !parts_of(&call.message, call.style).is_some_and(|parts| keep.keep(line, &call.message, &parts)) {
                continue;
            }
            let (error_type, severity) = match call.level {
                Some(level) => ("log", LOG_LEVELS[level].1),
                None => ("exception", "error"),
            };
            let (function, sentence) = documentation(&call, &st, file);
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

/// How the message of `found` is written, read again from its source: a
/// `String.format` string, else SLF4J for a logging call, plain text for a
/// `throw`.
fn style_of(found: &Found) -> Style {
    let toks = tokenize(&found.source);
    let line = found.line + 1 - found.call_lines.0;
    let text = |j: usize| toks.get(j).map_or("", |t| t.text);
    let formatted = toks.iter().enumerate().any(|(p, t)| {
        t.kind == Kind::Str
            && t.line == line
            && found.message.starts_with(&decode_string(t.text))
            && p >= 4
            && ((text(p - 1) == "(" && text(p - 2) == "format" && text(p - 3) == "." && text(p - 4) == "String")
                || (p >= 6
                    && text(p - 1) == ","
                    && text(p - 3) == "("
                    && text(p - 4) == "format"
                    && text(p - 5) == "."
                    && text(p - 6) == "String"))
    });
    match (formatted, found.error_type.as_str()) {
        (true, _) => Style::Printf,
        (false, "log") => Style::Slf4j,
        _ => Style::Plain,
    }
}

impl Language for Java {
    fn name(&self) -> &'static str {
        "java"
    }

    fn scans(&self, file: &str) -> bool {
        let module = file.split('/').next().unwrap_or("");
        MODULES.contains(&module)
            && file.ends_with(".java")
            && file.contains("/src/main/java/")
            && !SKIP_TREES.iter().any(|t| file.starts_with(t))
    }

    fn describe(&self) -> &'static str {
        "Each record is, in a `.java` file under `<module>/**/src/main/java` of the modules\n\
         clients, core, connect, streams, group-coordinator, metadata, raft, server and storage\n\
         (not connect/test-plugins, streams/examples, streams/quickstart, streams/test-utils):\n\
         an SLF4J call `log|LOG|logger|LOGGER.error/warn/info/debug/trace(...)` (a Marker first\n\
         allowed; `errorType` \"log\", `severity` by level, trace as debug) or a `throw new\n\
         XException(...)` (`errorType` \"exception\", `errorClass` X), whose message is a string\n\
         literal (literals joined with `+`) or `String.format(literal, ...)`. An SLF4J `{}` becomes\n\
         `(.*?)`; a `%s` without width `(.*?)`, other conversions `(.+?)`; a thrown literal is\n\
         literal text.\n\n"
    }

    fn message_pattern(&self, found: &Found) -> String {
        let parts = parts_of(&found.message, style_of(found));
        pattern_of(&parts.unwrap_or_else(|| vec![Part::Literal(found.message.clone())]))
    }
}
