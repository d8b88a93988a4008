//! JavaScript: Node's `E('ERR_…', <message>, Base)` definitions (in
//! `lib/internal/errors.js`) and `new XError(<message>, …)` anywhere, as
//! `corpus-tools/extract_js.py` finds them. A message is a string literal, a
//! template literal, or literals joined with `+`; an `E()` message is a
//! `util.format` string.

mod built;
mod evaluate;
mod shapes;
mod structure;
mod tokens;

use std::io;
use std::path::Path;

use crate::lang::message::{
    literal_alnum, pattern_of, push_lit, Message, Part, Patterns, GROUP_ANY, GROUP_SOME, MIN_LITERAL_ALNUM,
};
use crate::lang::Language;
use crate::{Extractor, Found};
use evaluate::Piece;
use structure::Structure;
use tokens::{cook, Kind, TemplatePart, Token};

/// The JavaScript extractor. [`JavaScript::for_sources`] first reads the
/// libuv error names and descriptions from a `uv.h` in the tree (Node's
/// `deps/uv/include/uv.h`), for the system errors Node builds from them.
#[derive(Debug, Default)]
pub struct JavaScript {
    uv_errors: Vec<(String, String)>,
    patterns: Patterns,
}

/// `errcat extract --lang javascript` before it has read the tree.
pub static JAVASCRIPT: JavaScript = JavaScript { uv_errors: Vec::new(), patterns: Patterns::new() };

/// Where Node's repository keeps libuv's header, whose error map the system
/// errors are built from.
pub const UV_HEADER: &str = "deps/uv/include/uv.h";

impl JavaScript {
    /// The extractor for a source tree: `sources` are its files (path,
    /// text); a `uv.h` among them gives the libuv errors.
    pub fn for_sources<'a>(sources: impl IntoIterator<Item = (&'a str, &'a str)>) -> JavaScript {
        let uv_errors = sources
            .into_iter()
            .filter(|(path, _)| path.rsplit('/').next() == Some("uv.h"))
            .flat_map(|(_, text)| shapes::uv_errno_map(text))
            .collect();
        JavaScript { uv_errors, patterns: Patterns::new() }
    }

    /// Every message of one JavaScript file under the source root (`lib/…`).
    pub fn messages(&self, file: &str, src: &str) -> Vec<Message> {
        messages_with(file, src, &self.uv_errors)
    }
}

impl Extractor for JavaScript {
    fn extract_file(&self, file: &str, text: &str) -> Vec<Found> {
        self.patterns.keep(self.messages(file, text))
    }
}

impl Language for JavaScript {
    fn name(&self) -> &'static str {
        "javascript"
    }

    /// `lib/**/*.js` but vendored dependencies and tests.
    fn scans(&self, file: &str) -> bool {
        file.starts_with("lib/") && file.ends_with(".js") && !skip_path(file)
    }

    fn message_pattern(&self, found: &Found) -> String {
        self.patterns.of(found)
    }

    fn describe(&self) -> &'static str {
        DESCRIPTION
    }

    /// Reads libuv's error map from [`UV_HEADER`] when the tree has it.
    fn for_tree(&self, root: &Path, _files: &[String]) -> io::Result<Option<Box<dyn Language>>> {
        let path = root.join(UV_HEADER);
        if !path.is_file() {
            return Ok(None);
        }
        let header = std::fs::read_to_string(&path)
            .map_err(|err| io::Error::new(err.kind(), format!("{}: {err}", path.display())))?;
        Ok(Some(Box::new(JavaScript::for_sources([(UV_HEADER, header.as_str())]))))
    }
}

/// What the dataset README says of the JavaScript extractor.
const DESCRIPTION: &str = "\
Each record is one of these, in `lib/**/*.js` (not `lib/internal/deps/`):

- `E('ERR_X', msg, Base, ...)` in `lib/internal/errors.js`: `msg` a string literal (a
  `util.format` string: `%s` `(.*?)`, `%d %i %f %j %o %O` `(.+?)`), or a function whose returned
  message is read from its code (literals, templates, `+`, `? :`, a variable appended to through
  `if`/`else`: one record for each message it can return, what is computed at run time a
  `${...}` hole); `errorCode` ERR_X, `errorClass` the first base;
- `new XError(msg, ...)` (X...Error or DOMException) anywhere, `msg` a literal or template;
- the system errors Node's error classes (`UVException`, `UVExceptionWithHostPort`,
  `ErrnoException`, `ExceptionWithHostPort`, `DNSException`) build from libuv's error name and
  description, one record for each error of libuv's `UV_ERRNO_MAP` in `deps/uv/include/uv.h`
  (`ENOENT: no such file or directory, ${ctx.syscall} '${path}'`); none without that header;
- warnings: `process.emitWarning(msg, 'Type', 'CODE')`, `deprecate(fn, msg, 'DEP...')`
  (`DeprecationWarning`) and `genericNodeError(msg, { name: 'XWarning' })`;
- messages built in a variable before `new XError(msg)` or `genericNodeError(msg, ...)`
  (`let message = `Cannot find module '${request}'`; if (...) message += ...`: one record for
  each message it can be), and those an error class's constructor gives `super(...)` (`class X
  extends Error { code = 'ERR_X'; constructor(reason) { super('...' + reason) } }`; `errorCode`
  the class's `code`).

Left out: messages with fewer than 8 letters and digits outside placeholders. A template's
`${...}` is `(.*?)` in `messagePattern`.

";

/// The file that defines Node's error codes with `E()`.
pub const ERRORS_FILE: &str = "lib/internal/errors.js";

/// Whether a file under the source root is left out: vendored dependencies
/// and tests.
pub fn skip_path(file: &str) -> bool {
    file.contains("internal/deps/") || file.starts_with("lib/test/")
}

/// A message's literal text and `${}` expressions, as written.
struct Literals {
    message: String,
    parts: Vec<Piece>,
    /// Line of the first literal.
    line: u32,
}

impl Literals {
    fn of_shape(shape: &evaluate::Shape, line: u32) -> Literals {
        Literals { message: evaluate::render(shape), parts: shape.clone(), line }
    }
}

/// One call found, before it becomes a [`Message`].
struct Call {
    literals: Literals,
    first_token: usize,
    last_token: usize,
    kind: CallKind,
}

enum CallKind {
    /// `E(code, message, bases…)`.
    Define { code: String, bases: Vec<String> },
    /// `new Class(message…)`, thrown or not, with the `new` token.
    New { class: String, thrown: bool, new_token: usize },
    /// A message built by code, with all its record says of it.
    Built(Described),
}

/// What a record of a built message says besides the message.
#[derive(Clone)]
struct Described {
    error_type: &'static str,
    error_class: Option<String>,
    error_code: Option<String>,
    severity: &'static str,
    documentation: String,
}

/// Every message of one JavaScript file under the source root (`lib/…`),
/// without the libuv errors.
pub fn messages(file: &str, src: &str) -> Vec<Message> {
    messages_with(file, src, &[])
}

fn messages_with(file: &str, src: &str, uv_errors: &[(String, String)]) -> Vec<Message> {
    let mut tokens = tokens::tokenize(src);
    let line_count = src.split('\n').count() as u32;
    // Sentinels, so that looking a few tokens ahead never runs out.
    for _ in 0..3 {
        tokens.push(Token {
            kind: Kind::Op,
            start: src.len(),
            end: src.len(),
            line: line_count,
            end_line: line_count,
            parts: Vec::new(),
        });
    }
    let structure = Structure::new(src, &tokens);
    let mut calls = Vec::new();
    if file == ERRORS_FILE {
        calls.extend(define_calls(&structure));
    }
    calls.extend(new_calls(&structure));
    if file == ERRORS_FILE {
        calls.extend(shapes::built_definitions(&structure));
        calls.extend(shapes::system_errors(&structure, uv_errors));
    }
    calls.extend(shapes::warnings(&structure, file));
    calls.extend(built::built_errors(&structure, file));
    calls.extend(built::error_classes(&structure, file));
    let lines: Vec<&str> = src.split('\n').collect();
    let mut seen = std::collections::HashSet::new();
    let mut out = Vec::new();
    for call in calls {
        let Literals { message, parts, line } = call.literals;
        let template_parts = |parts: &[Piece]| -> Vec<Part> {
            parts
                .iter()
                .map(|p| match p {
                    Piece::Text(text) => Part::Lit(text.clone()),
                    Piece::Hole(_) => Part::Value(GROUP_ANY),
                })
                .collect()
        };
        let (parts, described) = match call.kind {
            CallKind::Define { code, bases } => {
                if bases.first().is_some_and(|b| b == "SystemError") {
                    // Its message is only a prefix of what Node writes.
                    continue;
                }
                let class = bases.first().cloned();
                let shown = class.as_deref().unwrap_or("None");
                let article = if shown.starts_with(['A', 'E', 'I', 'O', 'U']) { "an" } else { "a" };
                let documentation = format!(
                    "Defined by E('{code}') in {file}; Node throws it as {article} {shown} with code {code} where the code does `new {code}(...)`."
                );
                let described = Described {
                    error_type: "exception",
                    error_class: class,
                    error_code: Some(code),
                    severity: "error",
                    documentation,
                };
                (util_format_parts(&message), described)
            }
            CallKind::New { class, thrown, new_token } => {
                let function = structure.function(new_token);
                let condition = braceless_if(&structure, call.first_token).or_else(|| structure.condition(new_token));
                let when = condition
                    .filter(|c| c.chars().count() <= 90 && !c.contains('`'))
                    .map_or(String::new(), |c| format!(" when `{c}`"));
                let verb = if thrown { "Thrown" } else { "Created" };
                let where_ = function.as_deref().unwrap_or("module-level code");
                let documentation = format!("{verb} by {where_} in {file}{when}.");
                let described = Described {
                    error_type: "exception",
                    error_class: Some(class),
                    error_code: None,
                    severity: "error",
                    documentation,
                };
                (template_parts(&parts), described)
            }
            CallKind::Built(described) => (template_parts(&parts), described),
        };
        if literal_alnum(&parts) < MIN_LITERAL_ALNUM || !seen.insert((line, message.clone())) {
            continue;
        }
        let start = tokens[call.first_token].line;
        let end = tokens[call.last_token].end_line;
        let source = lines[start as usize - 1..(end as usize).min(lines.len())].join("\n");
        let found = Found {
            file: file.to_string(),
            line,
            call_lines: (start, end),
            message,
            error_type: described.error_type.to_string(),
            error_class: described.error_class,
            error_code: described.error_code,
            severity: described.severity.to_string(),
            function: None,
            source,
            context: Some(described.documentation),
        };
        out.push(Message { found, pattern: pattern_of(&parts) });
    }
    out
}

/// The parts of a message Node's `getMessage()` passes to `util.format`:
/// with no `%d %f %i %j %o %O %s` it is used verbatim (`%%` stays `%%`).
fn util_format_parts(message: &str) -> Vec<Part> {
    let bytes = message.as_bytes();
    let formats = bytes.windows(2).any(|w| w[0] == b'%' && b"dfijoOs".contains(&w[1]));
    if !formats {
        return vec![Part::Lit(message.to_string())];
    }
    let mut parts = Vec::new();
    let (mut i, mut text_start) = (0, 0);
    while i + 1 < bytes.len() {
        if bytes[i] != b'%' {
            i += 1;
            continue;
        }
        let conversion = bytes[i + 1];
        if conversion == b'%' || b"sdifjoOc".contains(&conversion) {
            push_lit(&mut parts, &message[text_start..i]);
            match conversion {
                b'%' => push_lit(&mut parts, "%"),
                // `%c` takes an argument and writes nothing.
                b'c' => {}
                b's' => parts.push(Part::Value(GROUP_ANY)),
                _ => parts.push(Part::Value(GROUP_SOME)),
            }
            i += 2;
            text_start = i;
        } else {
            i += 1;
        }
    }
    push_lit(&mut parts, &message[text_start..]);
    parts
}

/// The condition of an `if (cond) throw …` without braces whose statement
/// starts at token `k`.
fn braceless_if(s: &Structure, k: usize) -> Option<String> {
    if k > 0 && s.is_op(k - 1, ")") {
        let p = s.matching_back(k - 1);
        if p > 0 && s.text(p - 1) == "if" {
            return Some(s.source_text(p + 1, k - 2));
        }
    }
    None
}

/// If an argument made only of string and template literals joined by `+`
/// starts at token `j`: the literals and the token after them.
fn literal_arg(s: &Structure, mut j: usize) -> Option<(Vec<usize>, usize)> {
    let is_literal = |i: usize| s.tokens.get(i).is_some_and(|t| matches!(t.kind, Kind::Str | Kind::Template));
    if !is_literal(j) {
        return None;
    }
    let mut literals = vec![j];
    j += 1;
    while s.text(j) == "+" && is_literal(j + 1) {
        literals.push(j + 1);
        j += 2;
    }
    Some((literals, j))
}

/// The literals' message (a template's `${expr}` kept as written) and parts.
fn join_literals(s: &Structure, literals: &[usize]) -> Literals {
    let mut message = String::new();
    let mut parts = Vec::new();
    for &i in literals {
        let token = &s.tokens[i];
        if token.kind == Kind::Str {
            let text = s.text(i);
            let value = cook(text.get(1..text.len().saturating_sub(1)).unwrap_or(""));
            message.push_str(&value);
            push_piece(&mut parts, Piece::Text(value));
            continue;
        }
        for part in &token.parts {
            match part {
                TemplatePart::Text(raw) => {
                    let value = cook(&raw.replace("\r\n", "\n").replace('\r', "\n"));
                    message.push_str(&value);
                    if !value.is_empty() {
                        push_piece(&mut parts, Piece::Text(value));
                    }
                }
                TemplatePart::Expr(expr) => {
                    message.push_str("${");
                    message.push_str(expr);
                    message.push('}');
                    parts.push(Piece::Hole(expr.clone()));
                }
            }
        }
    }
    Literals { message, parts, line: s.tokens[literals[0]].line }
}

fn push_piece(parts: &mut Vec<Piece>, piece: Piece) {
    match (parts.last_mut(), piece) {
        (Some(Piece::Text(last)), Piece::Text(text)) => last.push_str(&text),
        (_, piece) => parts.push(piece),
    }
}

/// The `,` or `)` ending the argument that starts at token `j`.
fn argument_end(s: &Structure, mut j: usize) -> usize {
    let mut depth = 0;
    while j < s.tokens.len() {
        if s.tokens[j].kind == Kind::Op {
            match s.text(j) {
                "(" | "[" | "{" => depth += 1,
                ")" | "]" | "}" if depth == 0 => return j,
                ")" | "]" | "}" => depth -= 1,
                "," if depth == 0 => return j,
                _ => {}
            }
        }
        j += 1;
    }
    j
}

/// `E('ERR_X', 'message' (+ 'more')*, Base, …)` with a literal message.
fn define_calls(s: &Structure) -> Vec<Call> {
    let mut out = Vec::new();
    for i in 0..s.tokens.len().saturating_sub(3) {
        if !(s.tokens[i].kind == Kind::Ident && s.text(i) == "E" && s.text(i + 1) == "(") {
            continue;
        }
        if i > 0 && (s.text(i - 1) == "." || s.text(i - 1) == "function") {
            continue;
        }
        if s.tokens[i + 2].kind != Kind::Str || s.text(i + 3) != "," {
            continue;
        }
        let quoted = s.text(i + 2);
        let code = cook(&quoted[1..quoted.len() - 1]);
        if !code.starts_with("ERR_") {
            continue;
        }
        let close = s.matching(i + 1);
        let end = argument_end(s, i + 4);
        let Some((literals, after)) = literal_arg(s, i + 4) else { continue };
        if after != end {
            continue;
        }
        let literals = join_literals(s, &literals);
        if literals.parts.iter().any(|p| matches!(p, Piece::Hole(_))) {
            continue;
        }
        let mut bases = Vec::new();
        let mut k = end + 1;
        while k < close {
            let arg_end = argument_end(s, k);
            bases.push(s.source_text(k, arg_end - 1));
            k = arg_end + 1;
        }
        let last_token = close + usize::from(s.text(close + 1) == ";");
        out.push(Call { literals, first_token: i, last_token, kind: CallKind::Define { code, bases } });
    }
    out
}

/// Whether `new <name>(…)` makes an error whose first argument is its message.
fn is_message_class(name: &str) -> bool {
    let is_error = name == "DOMException"
        || name.strip_suffix("Error").is_some_and(|head| {
            head.is_empty()
                || (head.starts_with(|c: char| c.is_ascii_uppercase())
                    && head.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$'))
        });
    is_error && !["SystemError", "AggregateError", "NodeAggregateError", "AssertionError"].contains(&name)
}

/// `new XError('message' …)` (X…Error or DOMException), thrown or not.
fn new_calls(s: &Structure) -> Vec<Call> {
    let mut out = Vec::new();
    let n = s.tokens.len();
    for i in 0..n.saturating_sub(3) {
        if !(s.tokens[i].kind == Kind::Ident && s.text(i) == "new") {
            continue;
        }
        let mut j = i + 1;
        let mut names = Vec::new();
        while j < n && s.tokens[j].kind == Kind::Ident {
            names.push(s.text(j));
            if s.text(j + 1) == "." {
                j += 2;
            } else {
                j += 1;
                break;
            }
        }
        let Some(&class) = names.last() else { continue };
        if j >= n || s.text(j) != "(" || !is_message_class(class) {
            continue;
        }
        // `new ERR_X.HideStackFramesError(args)`: the arguments of an E() message.
        if names[..names.len() - 1].iter().any(|name| name.starts_with("ERR_")) {
            continue;
        }
        let close = s.matching(j);
        if close == j + 1 {
            continue;
        }
        let Some((literals, after)) = literal_arg(s, j + 1) else { continue };
        if after != argument_end(s, j + 1) {
            continue;
        }
        let thrown = i > 0 && s.text(i - 1) == "throw";
        let first_token = if thrown { i - 1 } else { i };
        let last_token = close + usize::from(thrown && s.text(close + 1) == ";");
        out.push(Call {
            literals: join_literals(s, &literals),
            first_token,
            last_token,
            kind: CallKind::New { class: class.to_string(), thrown, new_token: i },
        });
    }
    out
}
