//! Python: `raise X(<message>, …)` and `logger.<level>(<message>, *args)`,
//! as `corpus-tools/extract_py.py` finds them with the `ast` module. A
//! message is a string literal, `"…" % …`, `"…".format(…)`, an f-string, or
//! one of these inside a gettext call (`_`, `gettext_lazy`, `pgettext` …).

mod expr;
mod shapes;
mod strings;
mod structure;
mod tokens;
mod unparse;

use std::io;
use std::path::Path;

use crate::lang::message::{literal_alnum, pattern_of, push_lit, Message, Part, Patterns, MIN_LITERAL_ALNUM};
use crate::lang::Language;
use crate::{Extractor, Found};
use expr::{Arg, Expr, Parser};
use strings::{fstring_message, split_format, split_percent, Literal};
use structure::{Condition, Structure};
use tokens::{Kind, Token};
use unparse::Unparser;

/// The Python extractor. [`Python::for_sources`] first learns the
/// project's logging helpers (functions that hand their message to a
/// logger, like Django's `log_response`) so that calls through them count
/// as logger calls.
#[derive(Debug, Default)]
pub struct Python {
    helpers: Vec<shapes::LogHelper>,
    patterns: Patterns,
}

/// `errcat extract --lang python` before it has read the tree.
pub static PYTHON: Python = Python { helpers: Vec::new(), patterns: Patterns::new() };

impl Python {
    /// The extractor for a source tree: `sources` are its Python files
    /// (path, text).
    pub fn for_sources<'a>(sources: impl IntoIterator<Item = (&'a str, &'a str)>) -> Python {
        let mut helpers: Vec<shapes::LogHelper> =
            sources.into_iter().flat_map(|(_, text)| shapes::log_helpers(text)).collect();
        helpers.sort();
        helpers.dedup_by(|a, b| a.name == b.name);
        Python { helpers, patterns: Patterns::new() }
    }

    /// Every message of one file.
    pub fn messages(&self, file: &str, src: &str) -> Vec<Message> {
        messages_with(file, src, &self.helpers)
    }
}

impl Extractor for Python {
    fn extract_file(&self, file: &str, text: &str) -> Vec<Found> {
        self.patterns.keep(self.messages(file, text))
    }
}

impl Language for Python {
    fn name(&self) -> &'static str {
        "python"
    }

    /// `.py` files but tests, migrations and the documentation's.
    fn scans(&self, file: &str) -> bool {
        let top = file.split('/').next().unwrap_or("");
        file.ends_with(".py") && !skip_path(file) && !["docs", "doc", "extras", "examples", "scripts"].contains(&top)
    }

    fn message_pattern(&self, found: &Found) -> String {
        self.patterns.of(found)
    }

    fn describe(&self) -> &'static str {
        DESCRIPTION
    }

    fn for_tree(&self, root: &Path, files: &[String]) -> io::Result<Option<Box<dyn Language>>> {
        let mut sources = Vec::new();
        for file in files {
            let path = root.join(file);
            let text = std::fs::read_to_string(&path)
                .map_err(|err| io::Error::new(err.kind(), format!("{}: {err}", path.display())))?;
            sources.push((file.as_str(), text));
        }
        Ok(Some(Box::new(Python::for_sources(sources.iter().map(|(f, t)| (*f, t.as_str()))))))
    }
}

/// What the dataset README says of the Python extractor.
const DESCRIPTION: &str = "\
Each record is one of these, in a `.py` file that is not a test, a migration or documentation:

- `raise X(msg, ...)` and `logger.<level>(msg, *args)` (a receiver named `logging` or `*logger`,
  or `getLogger(...)`), where `msg` is a string literal, `\"...\" % ...`, `\"...\".format(...)`, an
  f-string, or one of these inside a gettext call (`_`, `gettext_lazy`, `pgettext`...);
- a call through a logging helper (a module-level function that hands a parameter to a logger
  call, as Django's `log_response`), a `%s` given `response.reason_phrase` written once for each
  HTTP 4xx/5xx reason phrase (Python 3.11's `http.HTTPStatus`), the level from `level=` or from
  the reason phrase the message starts with;
- `raise X(msg)` with `msg` built before it in the same function (`msg = ...`, then `msg += ...`
  in an `if`/`else`: one record for each message it can hold), and `raise factory(arg, msg)`
  whose first argument is not the message;
- system check messages (`checks.Error(msg, id=\"fields.E300\")`: `errorCode` the id), an
  exception made but not raised where it is (`errors.append(ValidationError(msg, code=...))`),
  `self.stdout.write(...)` / `sys.stderr.write(...)` of a management command, and the entries of
  `default_error_messages` tables and validators' `message` attributes (`errorClass`
  `ValidationError`, `errorCode` the table's key).

Left out: messages with fewer than 8 letters and digits outside placeholders, and messages that
are not built from literals. `messagePattern`: a `%s` or `{}` field that may render empty is
`(.*?)`, `%r`, `%d` and numeric fields `(.+?)`.

";

/// Whether a file is left out: tests, migrations.
pub fn skip_path(file: &str) -> bool {
    let parts: Vec<&str> = file.split('/').collect();
    let name = parts.last().copied().unwrap_or("");
    parts.contains(&"migrations")
        || parts.contains(&"tests")
        || parts[..parts.len().saturating_sub(1)].contains(&"test")
        || name.starts_with("test_")
        || name.ends_with("_tests.py")
        || name == "tests.py"
}

/// `logger.<method>` and the severity it logs at.
fn log_severity(method: &str) -> Option<&'static str> {
    Some(match method {
        "debug" => "debug",
        "info" => "info",
        "warning" | "warn" => "warning",
        "error" | "exception" => "error",
        "critical" => "fatal",
        _ => return None,
    })
}

/// How a message is filled in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Style {
    Plain,
    Percent,
    Format,
    Fstring,
}

/// A message argument understood: its text, parts and the line of its first
/// string literal.
#[derive(Clone, Debug)]
struct Classified {
    message: String,
    parts: Vec<Part>,
    line: u32,
    style: Style,
}

struct File<'a> {
    src: &'a str,
    tokens: Vec<Token>,
}

impl<'a> File<'a> {
    fn text(&self, i: usize) -> &'a str {
        self.tokens.get(i).map_or("", |t| &self.src[t.start..t.end])
    }

    fn is_op(&self, i: usize, op: &str) -> bool {
        self.tokens.get(i).is_some_and(|t| t.kind == Kind::Op) && self.text(i) == op
    }

    /// The plain string value of an expression made of string literals (and
    /// `+`), as `ast` folds nothing but Python's own rules allow.
    fn literal_concat(&self, expr: &Expr) -> Option<String> {
        match expr {
            Expr::Str(tokens) => {
                let literals: Vec<Literal> = tokens.iter().map(|&t| Literal::parse(self.text(t))).collect();
                if literals.iter().any(|l| l.is_fstring() || l.is_bytes()) {
                    return None;
                }
                Some(literals.iter().map(Literal::value).collect())
            }
            Expr::BinOp(left, "+", right) => Some(self.literal_concat(left)? + &self.literal_concat(right)?),
            _ => None,
        }
    }

    /// The first token of a literal expression.
    fn first_line(&self, expr: &Expr) -> u32 {
        match expr {
            Expr::Str(tokens) => self.tokens[tokens[0]].line,
            Expr::BinOp(left, _, _) => self.first_line(left),
            _ => 0,
        }
    }

    /// The message of a call's first argument, as `classify` in
    /// `extract_py.py`; `None` when it is not built from literals.
    fn classify(&self, arg: &Expr, has_log_args: bool) -> Option<Classified> {
        let node = unwrap_gettext(arg)?;
        let literal = |value: Expr, style: Style| {
            let message = self.literal_concat(&value)?;
            let parts = match style {
                Style::Percent => split_percent(&message),
                Style::Format => split_format(&message)?,
                _ => vec![Part::Lit(message.clone())],
            };
            Some(Classified { parts, line: self.first_line(&value), message, style })
        };
        match node {
            Expr::BinOp(left, "%", _) => literal(unwrap_gettext(left)?.clone(), Style::Percent),
            Expr::Call(func, _) if matches!(&**func, Expr::Attribute(_, attr) if attr == "format") => {
                let Expr::Attribute(base, _) = &**func else { unreachable!() };
                literal(unwrap_gettext(base)?.clone(), Style::Format)
            }
            Expr::Str(tokens) if tokens.iter().any(|&t| Literal::parse(self.text(t)).is_fstring()) => {
                let literals: Vec<Literal> = tokens.iter().map(|&t| Literal::parse(self.text(t))).collect();
                let (message, mut parts) = fstring_message(&literals).ok()?;
                if has_log_args {
                    // logger.x(f"… %s", arg): logging applies `%` to the evaluated f-string.
                    parts = parts
                        .into_iter()
                        .flat_map(|p| match p {
                            Part::Lit(text) => split_percent(&text),
                            value => vec![value],
                        })
                        .fold(Vec::new(), |mut acc, p| {
                            match p {
                                Part::Lit(text) => push_lit(&mut acc, &text),
                                value => acc.push(value),
                            }
                            acc
                        });
                }
                Some(Classified { message, parts, line: self.tokens[tokens[0]].line, style: Style::Fstring })
            }
            _ if has_log_args => literal(node.clone(), Style::Percent),
            _ => literal(node.clone(), Style::Plain),
        }
    }

    /// The token index where the primary expression ending just before `dot`
    /// starts (`self.logger` in `self.logger.info(`).
    fn chain_start(&self, dot: usize) -> usize {
        let mut pos = dot;
        loop {
            let Some(mut j) = pos.checked_sub(1) else { return pos };
            while self.is_op(j, ")") || self.is_op(j, "]") {
                let Some(open) = self.matching_open(j) else { return pos };
                match open.checked_sub(1) {
                    Some(before) if self.ends_primary(before) => j = before,
                    _ => return open,
                }
            }
            if !matches!(self.tokens[j].kind, Kind::Name | Kind::Str | Kind::Number) {
                return pos;
            }
            match j.checked_sub(1) {
                Some(before) if self.is_op(before, ".") => pos = before,
                _ => return j,
            }
        }
    }

    /// Where the dotted name ending at token `name` starts (`checks` in
    /// `checks.Error`).
    fn chain_start_of_name(&self, name: usize) -> usize {
        if self.is_op(name.wrapping_sub(1), ".") {
            self.chain_start(name - 1)
        } else {
            name
        }
    }

    fn ends_primary(&self, i: usize) -> bool {
        let token = self.tokens[i];
        (token.kind == Kind::Name && !is_statement_keyword(self.text(i))) || self.is_op(i, ")") || self.is_op(i, "]")
    }

    /// The bracket matching the one at `from`, searched backward from a
    /// closing one or forward from an opening one.
    fn matching(&self, from: usize, backward: bool) -> Option<usize> {
        let mut depth = 0;
        let indices: Box<dyn Iterator<Item = usize>> =
            if backward { Box::new((0..=from).rev()) } else { Box::new(from..self.tokens.len()) };
        for i in indices {
            if self.tokens[i].kind != Kind::Op {
                continue;
            }
            let opens = matches!(self.text(i), "(" | "[" | "{");
            let closes = matches!(self.text(i), ")" | "]" | "}");
            if opens != backward && (opens || closes) {
                depth += 1;
            } else if opens || closes {
                depth -= 1;
                if depth == 0 {
                    return Some(i);
                }
            }
        }
        None
    }

    fn matching_open(&self, close: usize) -> Option<usize> {
        self.matching(close, true)
    }

    fn matching_close(&self, open: usize) -> Option<usize> {
        self.matching(open, false)
    }

    /// Whether `logger.<level>` at `method` is called on a logger: a name
    /// `logging` or ending in `logger`, an attribute ending in `logger`, or
    /// `….getLogger(…)`.
    fn is_logger_receiver(&self, method: usize) -> bool {
        let Some(end) = method.checked_sub(2) else { return false };
        if self.is_op(end, ")") {
            return self
                .matching_open(end)
                .is_some_and(|open| open >= 2 && self.text(open - 1) == "getLogger" && self.is_op(open - 2, "."));
        }
        if self.tokens[end].kind != Kind::Name {
            return false;
        }
        let name = self.text(end);
        let is_attribute = end >= 1 && self.is_op(end - 1, ".");
        name.to_lowercase().ends_with("logger") || (!is_attribute && name == "logging")
    }
}

/// `_("…")` → `"…"`; `None` for a plural (`ngettext`) message.
fn unwrap_gettext(expr: &Expr) -> Option<&Expr> {
    let Expr::Call(func, args) = expr else { return Some(expr) };
    let Expr::Name(name) = &**func else { return Some(expr) };
    let positional: Vec<&Expr> = args
        .iter()
        .filter_map(|a| match a {
            Arg::Positional(e) => Some(e),
            Arg::Keyword(..) => None,
        })
        .collect();
    match name.as_str() {
        "_" | "gettext" | "gettext_lazy" | "gettext_noop" | "ugettext" | "ugettext_lazy" if !positional.is_empty() => {
            Some(positional[0])
        }
        "pgettext" | "pgettext_lazy" if positional.len() >= 2 => Some(positional[1]),
        "ngettext" | "ngettext_lazy" | "npgettext" | "npgettext_lazy" => None,
        _ => Some(expr),
    }
}

fn is_statement_keyword(name: &str) -> bool {
    matches!(name, "return" | "not" | "and" | "or" | "in" | "is" | "if" | "else" | "await" | "yield" | "lambda")
}

/// The called name when it is capitalised (`ImproperlyConfigured`,
/// `exceptions.FieldError` → `FieldError`).
fn class_name(func: &Expr) -> Option<String> {
    let name = match func {
        Expr::Name(name) => name,
        Expr::Attribute(_, attr) => attr,
        _ => return None,
    };
    name.chars().next().is_some_and(char::is_uppercase).then(|| name.clone())
}

/// What one call site gives before it becomes a [`Message`].
struct Site {
    /// Token where the statement or call starts (orders the sites as the
    /// `ast` walk meets them).
    order: usize,
    call_lines: (u32, u32),
    classified: Classified,
    error_type: &'static str,
    error_class: Option<String>,
    error_code: Option<String>,
    severity: String,
    /// The token whose enclosing function and condition apply.
    anchor: usize,
    how: How,
}

/// What the documentation says makes the message.
#[derive(Clone, Debug)]
enum How {
    Raised,
    /// A logger method, as the `ast`-based extractor names it.
    Logged(String),
    /// Through a logging helper at a level; what a value was taken to be.
    Helper {
        name: String,
        level: String,
        value: Option<(String, String)>,
    },
    /// Raised with a message built in a variable.
    Built(String),
    /// An exception made, not raised, where it is.
    Created,
    /// Written to `stdout` or `stderr`.
    Written(String),
    /// A system check message with its id.
    Check(String),
    /// An entry of an error-message table (`Class.default_error_messages["code"]`).
    Table(String),
}

impl How {
    /// Whether `extract_py.py` finds it too (those come first, and keep their
    /// place when a new shape finds the same message on the same line).
    fn is_literal_shape(&self) -> bool {
        matches!(self, How::Raised | How::Logged(_))
    }

    fn documentation(&self, where_: &str, file: &str, when: &str) -> String {
        match self {
            How::Raised => format!("Raised by {where_} in {file}{when}."),
            How::Logged(method) => {
                let level = if method == "warn" { "warning" } else { method };
                format!("Logged at {level} level by {where_} in {file}{when}.")
            }
            How::Helper { name, level, value } => {
                let value = value.as_ref().map_or(String::new(), |(expr, v)| format!("; `{expr}` is \"{v}\""));
                format!("Logged through {name}() at {level} level by {where_} in {file}{when}{value}.")
            }
            How::Built(variable) => {
                format!("Raised by {where_} in {file}{when}, with the message built in `{variable}`.")
            }
            How::Created => format!("Created by {where_} in {file}{when}."),
            How::Written(stream) => format!("Written to {stream} by {where_} in {file}{when}."),
            How::Check(id) => format!("Reported as the system check {id} by {where_} in {file}{when}."),
            How::Table(entry) => {
                format!("Raised as a ValidationError by {where_} in {file}, its message kept in {entry}.")
            }
        }
    }
}

/// Every message of one Python file, with the logging helpers known.
fn messages_with(file: &str, src: &str, helpers: &[shapes::LogHelper]) -> Vec<Message> {
    let file_tokens = File { src, tokens: tokens::tokenize(src) };
    let structure = Structure::new(src, &file_tokens.tokens);
    let mut sites = Vec::new();
    for (i, token) in file_tokens.tokens.iter().enumerate() {
        if token.kind != Kind::Name {
            continue;
        }
        match file_tokens.text(i) {
            "raise" => sites.extend(raise_site(&file_tokens, i)),
            method if file_tokens.is_op(i.wrapping_sub(1), ".") && file_tokens.is_op(i + 1, "(") => {
                let severity = log_severity(method).filter(|_| file_tokens.is_logger_receiver(i));
                sites.extend(severity.and_then(|severity| log_site(&file_tokens, i, severity)));
            }
            _ => {}
        }
    }
    sites.extend(shapes::sites(&file_tokens, &structure, helpers));
    sites.sort_by_key(|s| (!s.how.is_literal_shape(), s.order));
    let lines: Vec<&str> = src.split('\n').collect();
    let token_text = |i: usize| file_tokens.text(i);
    let unparser = Unparser { token_text: &token_text };
    let mut seen = std::collections::HashSet::new();
    let mut out = Vec::new();
    for site in sites {
        if literal_alnum(&site.classified.parts) < MIN_LITERAL_ALNUM {
            continue;
        }
        if !seen.insert((site.classified.line, site.classified.message.clone())) {
            continue;
        }
        let (function, condition) = structure.context(site.anchor);
        let context = condition.and_then(|c| condition_phrase(&unparser, src, &file_tokens.tokens, c));
        let (start, end) = site.call_lines;
        let source = lines[start as usize - 1..(end as usize).min(lines.len())].join("\n");
        let where_ = function.as_deref().unwrap_or("module-level code");
        let when = context.as_deref().map_or(String::new(), |c| format!(" when {c}"));
        let documentation = site.how.documentation(where_, file, &when);
        let found = Found {
            file: file.to_string(),
            line: site.classified.line,
            call_lines: site.call_lines,
            message: site.classified.message,
            error_type: site.error_type.to_string(),
            error_class: site.error_class,
            error_code: site.error_code,
            severity: site.severity,
            function,
            source,
            context: Some(documentation),
        };
        out.push(Message { pattern: pattern_of(&site.classified.parts), found });
    }
    out
}

/// Every message of one Python file, without logging helpers from other files.
pub fn messages(file: &str, src: &str) -> Vec<Message> {
    messages_with(file, src, &[])
}

/// What the documentation quotes of an `if`: `` `cond` `` under its body,
/// `` `cond` is false `` under its `else`, when short enough to read.
fn condition_phrase(unparser: &Unparser, src: &str, tokens: &[Token], condition: Condition) -> Option<String> {
    let (range, negated) = match condition {
        Condition::If(range) => (range, false),
        Condition::Else(range) => (range, true),
    };
    let mut parser = Parser::new(src, &tokens[..range.1], range.0);
    let expr = parser.named().ok()?;
    if parser.pos != range.1 {
        return None;
    }
    let text = unparser.unparse(&expr).ok()?;
    let limit = if negated { 80 } else { 90 };
    if text.chars().count() > limit || text.contains('`') {
        return None;
    }
    Some(if negated { format!("`{text}` is false") } else { format!("`{text}`") })
}

fn positional(args: &[Arg]) -> Vec<&Expr> {
    args.iter()
        .filter_map(|a| match a {
            Arg::Positional(e) => Some(e),
            Arg::Keyword(..) => None,
        })
        .collect()
}

/// `raise X(<message>, …)` at the `raise` token.
fn raise_site(file: &File, at: usize) -> Option<Site> {
    let mut parser = Parser::new(file.src, &file.tokens, at + 1);
    let Expr::Call(func, args) = parser.test().ok()? else { return None };
    let first = *positional(&args).first()?;
    // ValidationError(msg, params={…}) fills msg in with `%` itself.
    let lazy = args.iter().any(|a| matches!(a, Arg::Keyword(Some(name), _) if name == "params"));
    let classified = file.classify(first, lazy)?;
    // The statement runs to its `;` or the end of the logical line.
    let mut end = parser.pos;
    while end < file.tokens.len() && file.tokens[end].kind != Kind::Newline && !file.is_op(end, ";") {
        end += 1;
    }
    Some(Site {
        order: at,
        call_lines: (file.tokens[at].line, file.tokens[end - 1].end_line),
        classified,
        error_type: "exception",
        error_class: class_name(&func),
        error_code: None,
        severity: "error".to_string(),
        anchor: at,
        how: How::Raised,
    })
}

/// `logger.<method>(<message>, *args)` at the method's token.
fn log_site(file: &File, method: usize, severity: &'static str) -> Option<Site> {
    let mut parser = Parser::new(file.src, &file.tokens, method + 2);
    let args = parser.arguments().ok()?;
    let positional = positional(&args);
    let classified = file.classify(positional.first()?, positional.len() > 1)?;
    let start = file.chain_start(method - 1);
    Some(Site {
        order: start,
        call_lines: (file.tokens[start].line, file.tokens[parser.pos - 1].end_line),
        classified,
        error_type: "log",
        error_class: None,
        error_code: None,
        severity: severity.to_string(),
        anchor: method,
        how: How::Logged(file.text(method).to_string()),
    })
}
