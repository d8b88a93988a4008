//! The messages real Django programs write most that are not a literal
//! argument of `raise` or a logger call: calls through logging helpers
//! (`log_response("Not Found: %s", …)`, with `response.reason_phrase` taken
//! through the HTTP reason phrases), messages built in a variable before
//! `raise X(msg)`, messages passed to an exception factory
//! (`raise self.error(token, "…")`), system check messages
//! (`checks.Error("…", id="fields.E300")`), exceptions made but not raised
//! where they are (`errors.append(ValidationError(_("…"), code=…))`), and
//! the error-message tables of form fields and validators.

use super::expr::{Arg, Expr, Parser};
use super::structure::{Condition, Structure};
use super::tokens::{tokenize, Kind};
use super::{class_name, log_severity, positional, split_percent, Classified, File, How, Site, Style};
use crate::lang::message::{push_lit, Part};

/// A function that logs its parameter `message_index` as the message.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct LogHelper {
    pub name: String,
    pub message_index: usize,
}

/// Python 3.11's `http.HTTPStatus` phrases of the 4xx and 5xx codes: what
/// `HttpResponse.reason_phrase` is for an error response.
const HTTP_ERROR_PHRASES: [(u16, &str); 40] = [
    (400, "Bad Request"),
    (401, "Unauthorized"),
    (402, "Payment Required"),
    (403, "Forbidden"),
    (404, "Not Found"),
    (405, "Method Not Allowed"),
    (406, "Not Acceptable"),
    (407, "Proxy Authentication Required"),
    (408, "Request Timeout"),
    (409, "Conflict"),
    (410, "Gone"),
    (411, "Length Required"),
    (412, "Precondition Failed"),
    (413, "Request Entity Too Large"),
    (414, "Request-URI Too Long"),
    (415, "Unsupported Media Type"),
    (416, "Requested Range Not Satisfiable"),
    (417, "Expectation Failed"),
    (418, "I'm a Teapot"),
    (421, "Misdirected Request"),
    (422, "Unprocessable Entity"),
    (423, "Locked"),
    (424, "Failed Dependency"),
    (425, "Too Early"),
    (426, "Upgrade Required"),
    (428, "Precondition Required"),
    (429, "Too Many Requests"),
    (431, "Request Header Fields Too Large"),
    (451, "Unavailable For Legal Reasons"),
    (500, "Internal Server Error"),
    (501, "Not Implemented"),
    (502, "Bad Gateway"),
    (503, "Service Unavailable"),
    (504, "Gateway Timeout"),
    (505, "HTTP Version Not Supported"),
    (506, "Variant Also Negotiates"),
    (507, "Insufficient Storage"),
    (508, "Loop Detected"),
    (510, "Not Extended"),
    (511, "Network Authentication Required"),
];

/// The level a response of this status is logged at by a helper that
/// follows the status (5xx error, 4xx warning).
fn status_level(status: u16) -> &'static str {
    if status >= 500 {
        "error"
    } else {
        "warning"
    }
}

/// The module-level functions of a file that pass a parameter as the
/// message of a logger call (`logger.warning(message, *args)`,
/// `getattr(logger, level)(message, *args)`).
pub fn log_helpers(src: &str) -> Vec<LogHelper> {
    let file = File { src, tokens: tokenize(src) };
    let mut out = Vec::new();
    for i in 0..file.tokens.len() {
        if !(file.text(i) == "def" && file.tokens[i].col == 0 && file.is_op(i + 2, "(")) {
            continue;
        }
        let params = parameters(&file, i + 3);
        // The body: up to the next logical line that starts at column 0.
        let body_end = (i + 1..file.tokens.len())
            .find(|&k| file.tokens[k - 1].kind == Kind::Newline && file.tokens[k].col == 0)
            .unwrap_or(file.tokens.len());
        let passed = (i + 3..body_end).find_map(|k| {
            let args_at = logger_call_arguments(&file, k)?;
            let args = Parser::new(src, &file.tokens, args_at).arguments().ok()?;
            match positional(&args).first() {
                Some(Expr::Name(name)) => params.iter().position(|p| p == name),
                _ => None,
            }
        });
        if let Some(message_index) = passed {
            out.push(LogHelper { name: file.text(i + 1).to_string(), message_index });
        }
    }
    out
}

/// The names of a `def`'s positional parameters, from the token after its `(`.
fn parameters(file: &File, mut k: usize) -> Vec<String> {
    let mut names = Vec::new();
    let mut depth = 0;
    let mut expect_name = true;
    while k < file.tokens.len() {
        match file.text(k) {
            "(" | "[" | "{" => depth += 1,
            ")" | "]" | "}" if depth == 0 => break,
            ")" | "]" | "}" => depth -= 1,
            "," if depth == 0 => expect_name = true,
            "*" | "**" if depth == 0 && expect_name => break,
            name if depth == 0 && expect_name && file.tokens[k].kind == Kind::Name => {
                names.push(name.to_string());
                expect_name = false;
            }
            _ => {}
        }
        k += 1;
    }
    names
}

/// If token `k` starts a logger call (`logger.info(`, `getattr(logger, level)(`),
/// the token after its `(`.
fn logger_call_arguments(file: &File, k: usize) -> Option<usize> {
    if file.text(k) == "getattr" && file.is_op(k + 1, "(") {
        let receiver = file.text(k + 2);
        let close = file.matching_close(k + 1)?;
        return (receiver.to_lowercase().ends_with("logger") && file.is_op(close + 1, "(")).then_some(close + 2);
    }
    let is_method = file.is_op(k.wrapping_sub(1), ".") && file.is_op(k + 1, "(");
    (is_method && log_severity(file.text(k)).is_some() && file.is_logger_receiver(k)).then_some(k + 2)
}

/// The sites of every shape of this module in one file.
pub(super) fn sites(file: &File, structure: &Structure, helpers: &[LogHelper]) -> Vec<Site> {
    let mut out = Vec::new();
    for i in 0..file.tokens.len() {
        if file.tokens[i].kind != Kind::Name {
            continue;
        }
        let name = file.text(i);
        let called = file.is_op(i + 1, "(") && !matches!(file.text(i.wrapping_sub(1)), "def" | "class");
        if name == "raise" {
            out.extend(built_or_factory_raise(file, structure, i));
        } else if called && !file.is_op(i.wrapping_sub(1), ".") {
            if let Some(helper) = helpers.iter().find(|h| h.name == name) {
                out.extend(helper_sites(file, i, helper));
            }
        }
        if name == "write" && called && file.is_op(i.wrapping_sub(1), ".") {
            out.extend(stream_site(file, i));
        }
        if called {
            out.extend(check_site(file, i));
            out.extend(created_site(file, i));
        }
        if name == "default_error_messages" && file.is_op(i + 1, "=") && file.is_op(i + 2, "{") {
            out.extend(table_sites(file, structure, i));
        }
        if name == "message" && file.is_op(i + 1, "=") && starts_statement(file, i) {
            out.extend(class_message_site(file, structure, i));
        }
    }
    out
}

fn starts_statement(file: &File, i: usize) -> bool {
    i == 0 || file.tokens[i - 1].kind == Kind::Newline || file.is_op(i - 1, ";")
}

/// The call at token `name` (its `(` next): its arguments and closing token.
fn call_at(file: &File, name: usize) -> Option<(Vec<Arg>, usize)> {
    let mut parser = Parser::new(file.src, &file.tokens, name + 2);
    let args = parser.arguments().ok()?;
    Some((args, parser.pos - 1))
}

fn keyword<'e>(args: &'e [Arg], name: &str) -> Option<&'e Expr> {
    args.iter().find_map(|a| match a {
        Arg::Keyword(Some(k), value) if k == name => Some(value),
        _ => None,
    })
}

/// A call through a logging helper; a `%s` whose argument is a response's
/// `reason_phrase` gives one message per HTTP error reason phrase.
fn helper_sites(file: &File, at: usize, helper: &LogHelper) -> Vec<Site> {
    let Some((args, close)) = call_at(file, at) else { return Vec::new() };
    let positional = positional(&args);
    let Some(message) = positional.get(helper.message_index) else { return Vec::new() };
    let values = &positional[helper.message_index + 1..];
    let Some(classified) = file.classify(message, !values.is_empty()) else { return Vec::new() };
    let level = keyword(&args, "level").and_then(|e| file.literal_concat(e));
    let site = |classified: Classified, level: String, value: Option<(String, String)>| Site {
        order: at,
        call_lines: (file.tokens[at].line, file.tokens[close].end_line),
        classified,
        error_type: "log",
        error_class: None,
        error_code: None,
        severity: log_severity(&level).unwrap_or("error").to_string(),
        anchor: at,
        how: How::Helper { name: helper.name.clone(), level, value },
    };
    let phrase_arg = values.iter().position(|v| matches!(v, Expr::Attribute(_, attr) if attr == "reason_phrase"));
    if let (Some(index), Style::Percent) = (phrase_arg, classified.style) {
        let expr = match values[index] {
            Expr::Attribute(value, attr) => match &**value {
                Expr::Name(name) => format!("{name}.{attr}"),
                _ => attr.clone(),
            },
            _ => unreachable!(),
        };
        return HTTP_ERROR_PHRASES
            .iter()
            .filter_map(|&(status, phrase)| {
                let message = substitute_percent(&classified.message, index, phrase)?;
                let parts = split_percent(&message);
                let level = level.clone().unwrap_or_else(|| status_level(status).to_string());
                let expanded = Classified { message, parts, ..classified.clone() };
                Some(site(expanded, level, Some((expr.clone(), phrase.to_string()))))
            })
            .collect();
    }
    let level = level.unwrap_or_else(|| {
        let lower = classified.message.to_lowercase();
        let status = HTTP_ERROR_PHRASES.iter().find(|(_, p)| lower.starts_with(&p.to_lowercase())).map(|(s, _)| *s);
        status.map_or("warning", status_level).to_string()
    });
    vec![site(classified, level, None)]
}

/// `message` with its `index`-th positional `%` placeholder written as
/// `value` (a `%` in it doubled); `None` if it has no such placeholder.
fn substitute_percent(message: &str, index: usize, value: &str) -> Option<String> {
    let bytes = message.as_bytes();
    let (mut i, mut seen) = (0, 0);
    while i < bytes.len() {
        if bytes[i] == b'%' {
            if bytes.get(i + 1) == Some(&b'%') {
                i += 2;
                continue;
            }
            let end = (i + 1..bytes.len()).find(|&k| bytes[k].is_ascii_alphabetic())?;
            if seen == index {
                return Some(format!("{}{}{}", &message[..i], value.replace('%', "%%"), &message[end + 1..]));
            }
            seen += 1;
            i = end + 1;
            continue;
        }
        i += 1;
    }
    None
}

/// `raise X(msg)` with `msg` built before it in the same function, and
/// `raise factory(arg, "message")` whose first argument is not the message.
fn built_or_factory_raise(file: &File, structure: &Structure, at: usize) -> Vec<Site> {
    let mut parser = Parser::new(file.src, &file.tokens, at + 1);
    let Ok(Expr::Call(func, args)) = parser.test() else { return Vec::new() };
    let mut end = parser.pos;
    while end < file.tokens.len() && file.tokens[end].kind != Kind::Newline && !file.is_op(end, ";") {
        end += 1;
    }
    let raise_end = file.tokens[end - 1].end_line;
    let positional = positional(&args);
    let lazy = keyword(&args, "params").is_some();
    let site = |classified: Classified, start: u32, how: How| Site {
        order: at,
        call_lines: (start, raise_end),
        classified,
        error_type: "exception",
        error_class: class_name(&func),
        error_code: None,
        severity: "error".to_string(),
        anchor: at,
        how,
    };
    if let Some(Expr::Name(variable)) = positional.first() {
        let built = built_messages(file, structure, at, variable, lazy);
        if !built.is_empty() {
            return built.into_iter().map(|(c, start)| site(c, start, How::Built(variable.clone()))).collect();
        }
    }
    let factory_message = match positional.first() {
        Some(first) if class_name(&func).is_none() && file.classify(first, lazy).is_none() => {
            positional[1..].iter().find_map(|arg| file.classify(arg, lazy))
        }
        _ => None,
    };
    factory_message.map(|c| site(c, file.tokens[at].line, How::Raised)).into_iter().collect()
}

/// An assignment `variable = …` or `variable += …` to a message.
struct Assignment {
    classified: Classified,
    line: u32,
    condition: Option<Condition>,
    appends: bool,
}

/// The `if` chain (its test's tokens) some `+=` pieces sit in, and those
/// pieces, one of which is added (`None`: where none may be).
type Slot<'a> = (Option<(usize, usize)>, Vec<Option<&'a Assignment>>);

/// The messages `variable` can hold at the `raise` at token `at`: each
/// `variable = "…"` before it in the same function, followed by the
/// `variable += "…"` pieces (one of each `if`/`else`, or none where an `if`
/// without `else` adds it).
fn built_messages(file: &File, structure: &Structure, at: usize, variable: &str, lazy: bool) -> Vec<(Classified, u32)> {
    let (scope, raise_condition) = structure.context(at);
    let mut assignments = Vec::new();
    let mut formatted = false;
    let mut k = at;
    while k > 0 {
        k -= 1;
        if file.tokens[k].kind == Kind::Newline {
            continue;
        }
        let (token_scope, condition) = structure.context(k);
        let nested = match (&token_scope, &scope) {
            (Some(inner), Some(outer)) => inner.starts_with(&format!("{outer}.")),
            (Some(_), None) => true,
            _ => false,
        };
        if token_scope != scope && !nested {
            break;
        }
        if nested || file.text(k) != variable {
            continue;
        }
        // `message %= (…)`: the message before it is a `%` format.
        if file.is_op(k + 1, "%=") {
            formatted = true;
            continue;
        }
        if !(file.is_op(k + 1, "=") || file.is_op(k + 1, "+=")) {
            continue;
        }
        if !(starts_statement(file, k) || file.is_op(k - 1, ":")) {
            continue;
        }
        let Ok(value) = Parser::new(file.src, &file.tokens, k + 2).test() else { continue };
        let Some(classified) = file.classify(written_first(&value), lazy || formatted) else { continue };
        let appends = file.is_op(k + 1, "+=");
        assignments.push(Assignment { classified, line: file.tokens[k].line, condition, appends });
    }
    assignments.reverse();
    let bases: Vec<&Assignment> = assignments.iter().filter(|a| !a.appends).collect();
    // Each slot: the pieces one of which is added (an empty one where it may be none).
    let mut slots: Vec<Slot> = Vec::new();
    for piece in assignments.iter().filter(|a| a.appends) {
        let chain = match piece.condition {
            Some(Condition::If(r) | Condition::Else(r)) if piece.condition != raise_condition => Some(r),
            _ => None,
        };
        match slots.iter_mut().find(|(key, _)| key.is_some() && *key == chain) {
            Some((_, pieces)) => pieces.push(Some(piece)),
            None => slots.push((chain, vec![Some(piece)])),
        }
    }
    for (chain, pieces) in &mut slots {
        let Some(range) = chain else { continue };
        let has =
            |want: fn((usize, usize)) -> Condition| pieces.iter().flatten().any(|p| p.condition == Some(want(*range)));
        if !(has(Condition::If) && has(Condition::Else)) {
            pieces.push(None);
        }
    }
    let mut out = Vec::new();
    for base in bases {
        let mut messages = vec![base.classified.clone()];
        for (_, pieces) in &slots {
            messages = messages
                .iter()
                .flat_map(|m| pieces.iter().filter_map(move |p| join(m, p.map(|p| &p.classified))))
                .collect();
        }
        out.extend(messages.into_iter().take(16).map(|m| (m, base.line)));
    }
    out
}

/// The message a built value starts with: `self.style.ERROR("SystemCheckError: %s" %
/// header) + body + footer` (Django's `check`) starts with the styled
/// text, the styling being markup around it and the names after it values
/// written on the lines that follow.
fn written_first(value: &Expr) -> &Expr {
    let mut first = value;
    while let Expr::BinOp(left, "+", right) = first {
        if !matches!(&**right, Expr::Name(_)) {
            break;
        }
        first = left;
    }
    if let Expr::Call(func, args) = first {
        if let (Expr::Attribute(receiver, _), [Arg::Positional(inner)]) = (&**func, args.as_slice()) {
            if matches!(&**receiver, Expr::Attribute(_, name) if name == "style") {
                return inner;
            }
        }
    }
    value
}

/// Two pieces of a message written one after the other, when their
/// placeholders are of one style (a plain piece joins any whose syntax its
/// text cannot be taken for).
fn join(first: &Classified, second: Option<&Classified>) -> Option<Classified> {
    let Some(second) = second else { return Some(first.clone()) };
    let plain_safe = |c: &Classified| c.style == Style::Plain && !c.message.contains(['%', '{', '}']);
    // Pieces of two styles make a message of neither syntax, but its parts
    // (and so its pattern) are each piece's own.
    let style = if plain_safe(first) { second.style } else { first.style };
    let mut parts = first.parts.clone();
    for part in &second.parts {
        match part {
            Part::Lit(text) => push_lit(&mut parts, text),
            value => parts.push(value.clone()),
        }
    }
    Some(Classified { message: format!("{}{}", first.message, second.message), parts, line: first.line, style })
}

/// `self.stdout.write(self.style.NOTICE("…"))`, `sys.stderr.write("…")`: a
/// management command's output.
fn stream_site(file: &File, at: usize) -> Option<Site> {
    let stream = file.text(at.checked_sub(2)?);
    if stream != "stdout" && stream != "stderr" {
        return None;
    }
    let (args, close) = call_at(file, at)?;
    let mut message = *positional(&args).first()?;
    let mut severity = if stream == "stderr" { "error" } else { "info" };
    if let Expr::Call(func, inner) = message {
        if let (Expr::Attribute(receiver, style), [Arg::Positional(inner)]) = (&**func, inner.as_slice()) {
            if matches!(&**receiver, Expr::Attribute(_, name) if name == "style") {
                message = inner;
                severity = match style.as_str() {
                    "ERROR" => "error",
                    "WARNING" | "NOTICE" => "warning",
                    _ => severity,
                };
            }
        }
    }
    let classified = without_layout(file.classify(message, false)?)?;
    let start = file.chain_start(at - 1);
    Some(Site {
        order: start,
        call_lines: (file.tokens[start].line, file.tokens[close].end_line),
        classified,
        error_type: "log",
        error_class: None,
        error_code: None,
        severity: severity.to_string(),
        anchor: at,
        how: How::Written(stream.to_string()),
    })
}

/// A written message without the white space around it: a command lays out
/// its output with indentation and blank lines (`" (no migrations)"`,
/// `"Performing system checks...\n\n"`), which a line of the log does not
/// hold as the message's. `None` when nothing is left.
fn without_layout(mut classified: Classified) -> Option<Classified> {
    const LAYOUT: [char; 4] = [' ', '\t', '\n', '\r'];
    if let Some(Part::Lit(first)) = classified.parts.first_mut() {
        let cut = first.len() - first.trim_start_matches(LAYOUT).len();
        first.drain(..cut);
        classified.message.drain(..cut);
    }
    if let Some(Part::Lit(last)) = classified.parts.last_mut() {
        let keep = last.trim_end_matches(LAYOUT).len();
        let cut = last.len() - keep;
        last.truncate(keep);
        classified.message.truncate(classified.message.len() - cut);
    }
    classified.parts.retain(|part| !matches!(part, Part::Lit(text) if text.is_empty()));
    (!classified.message.is_empty()).then_some(classified)
}

/// `checks.Error("…", id="fields.E300")` and its siblings.
fn check_site(file: &File, at: usize) -> Option<Site> {
    let (error_type, severity) = match file.text(at) {
        "Error" => ("error", "error"),
        "Critical" => ("error", "fatal"),
        "Warning" => ("warning", "warning"),
        "Info" => ("info", "info"),
        "Debug" => ("debug", "debug"),
        _ => return None,
    };
    let (args, close) = call_at(file, at)?;
    let id = file.literal_concat(keyword(&args, "id")?)?;
    let classified = file.classify(positional(&args).first()?, false)?;
    let start = file.chain_start_of_name(at);
    Some(Site {
        order: start,
        call_lines: (file.tokens[start].line, file.tokens[close].end_line),
        classified,
        error_type,
        error_class: Some(file.text(at).to_string()),
        error_code: Some(id.clone()),
        severity: severity.to_string(),
        anchor: at,
        how: How::Check(id),
    })
}

/// `XxxError(<message>, …)` made where it is not raised (appended to a
/// list of errors, returned, kept).
fn created_site(file: &File, at: usize) -> Option<Site> {
    let name = file.text(at);
    if !(name.len() > "Error".len() && name.ends_with("Error") && name.starts_with(|c: char| c.is_uppercase())) {
        return None;
    }
    let start = file.chain_start_of_name(at);
    if start > 0 && matches!(file.text(start - 1), "raise" | "class" | "def" | "except") {
        return None;
    }
    let (args, close) = call_at(file, at)?;
    let lazy = keyword(&args, "params").is_some();
    let classified = file.classify(positional(&args).first()?, lazy)?;
    Some(Site {
        order: start,
        call_lines: (file.tokens[start].line, file.tokens[close].end_line),
        classified,
        error_type: "exception",
        error_class: Some(name.to_string()),
        error_code: keyword(&args, "code").and_then(|e| file.literal_concat(e)),
        severity: "error".to_string(),
        anchor: at,
        how: How::Created,
    })
}

/// Each entry of a `default_error_messages = {"code": _("…"), …}` table.
fn table_sites(file: &File, structure: &Structure, at: usize) -> Vec<Site> {
    let scope = structure.context(at).0.unwrap_or_default();
    let mut out = Vec::new();
    let mut k = at + 3;
    while file.tokens.get(k).is_some_and(|t| t.kind == Kind::Str) && file.is_op(k + 1, ":") {
        let key_token = k;
        let mut parser = Parser::new(file.src, &file.tokens, k + 2);
        let Ok(value) = parser.test() else { break };
        let last = parser.pos - 1;
        let key = file.literal_concat(&Expr::Str(vec![key_token]));
        if let (Some(key), Some(classified)) = (key, file.classify(&value, true)) {
            out.push(Site {
                order: key_token,
                call_lines: (file.tokens[key_token].line, file.tokens[last].end_line),
                classified,
                error_type: "exception",
                error_class: Some("ValidationError".to_string()),
                error_code: Some(key.clone()),
                severity: "error".to_string(),
                anchor: key_token,
                how: How::Table(format!("{scope}.default_error_messages[\"{key}\"]")),
            });
        }
        k = parser.pos;
        if !file.is_op(k, ",") {
            break;
        }
        k += 1;
    }
    out
}

/// A class's `message = _("…")` (Django's validators).
fn class_message_site(file: &File, structure: &Structure, at: usize) -> Option<Site> {
    let scope = structure.context(at).0?;
    let class = scope.rsplit('.').next()?;
    if !class.starts_with(|c: char| c.is_uppercase()) {
        return None;
    }
    let mut parser = Parser::new(file.src, &file.tokens, at + 2);
    let value = parser.test().ok()?;
    let classified = file.classify(&value, true)?;
    Some(Site {
        order: at,
        call_lines: (file.tokens[at].line, file.tokens[parser.pos - 1].end_line),
        classified,
        error_type: "exception",
        error_class: Some("ValidationError".to_string()),
        error_code: None,
        severity: "error".to_string(),
        anchor: at,
        how: How::Table(format!("{scope}.message")),
    })
}
