//! Messages built before they are raised: `let msg = format!("...", ..)`
//! and `write!(&mut msg, "...", ..)` / `writeln!(&mut msg, ..)` into a
//! binding that then reaches an error or a warning (`bail!(msg)`,
//! `anyhow::format_err!("{}", msg)`, `.context(msg)`, `warnings.push(msg)`,
//! `shell.warn(msg)`, `Level::ERROR.primary_title(msg)`); the `format!`
//! may end the branches of an `if` or a `match` the binding is given. Cargo writes its resolver errors (`no matching
//! package named ...`, `failed to select a version ...`) and its manifest
//! warnings (`unused manifest key: ...`) so.

use super::{literal_arg, CallKind, Structure};
use crate::lang::tokens::{matching_close, Kind, Tok};

/// Where a built message goes.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Sink {
    /// An error (a macro's, `.context`'s, `Err(...)`'s).
    Error,
    /// A warning (`warnings.push`, `.warn`).
    Warning,
}

/// A literal that becomes part of a built message.
pub(super) struct Built {
    pub message: String,
    pub literal: usize,
    /// The first and last token of the statement.
    pub first: usize,
    pub last: usize,
    pub binding: String,
    pub sink: Sink,
}

/// The messages built in `toks` that reach a sink in the same function.
pub(super) fn built_messages(toks: &[Tok], st: &Structure) -> Vec<Built> {
    let text = |j: usize| toks.get(j).map_or("", |t| t.text);
    let mut built = Vec::new();
    for (i, t) in toks.iter().enumerate() {
        if st.excluded[i] || t.kind != Kind::Ident {
            continue;
        }
        // let [mut] NAME = format!(literal ..), or an `if`/`match` whose
        // branches end in one.
        let candidates = if t.is("let") {
            let name = if text(i + 1) == "mut" { i + 2 } else { i + 1 };
            let is_binding = toks.get(name).is_some_and(|t| t.kind == Kind::Ident) && text(name + 1) == "=";
            if is_binding {
                tail_formats(toks, name + 2).into_iter().map(|(literal_at, close)| (name, literal_at, close)).collect()
            } else {
                Vec::new()
            }
        } else if (t.is("write") || t.is("writeln")) && text(i + 1) == "!" && text(i + 2) == "(" {
            // write!(&mut NAME, literal ..) or write!(NAME, literal ..)
            let name = if text(i + 3) == "&" && text(i + 4) == "mut" { i + 5 } else { i + 3 };
            let is_named = toks.get(name).is_some_and(|t| t.kind == Kind::Ident) && text(name + 1) == ",";
            if is_named {
                vec![(name, name + 2, matching_close(toks, i + 2))]
            } else {
                Vec::new()
            }
        } else {
            Vec::new()
        };
        for (name, literal_at, close) in candidates {
            if let Some(found) = built_at(toks, st, i, name, literal_at, close) {
                built.push(found);
            }
        }
    }
    built
}

/// The message built by the statement at `toks[i]` into `toks[name]`, from
/// the literal at `literal_at`, if it reaches a sink.
fn built_at(toks: &[Tok], st: &Structure, i: usize, name: usize, literal_at: usize, close: usize) -> Option<Built> {
    // A piece that continues a message (`"\nhelp: ..."`, `"{}: ..."`) or
    // that a next piece continues (`"...\n\n"`) is not one.
    let (message, literal) = literal_arg(toks, literal_at)
        .filter(|(message, _)| message.starts_with(|c: char| c.is_ascii_alphabetic()) && !message.ends_with('\n'))?;
    let binding = toks[name].text;
    let sink = sink_of(toks, binding, close, function_end(toks, st, i))?;
    let first = if toks[i].is("let") { i } else { statement_start(toks, i) };
    Some(Built { message, literal, first, last: close, binding: binding.to_string(), sink })
}

/// The `format!(..)` calls whose value the expression starting at
/// `toks[from]` has (up to its `;`): the expression itself, or the tail of
/// a block of it (`if .. { format!(..) } else { format!(..) }`, a `match`
/// arm's `=> format!(..)`), as (the literal's first token, the closing
/// parenthesis).
fn tail_formats(toks: &[Tok], from: usize) -> Vec<(usize, usize)> {
    let text = |j: usize| toks.get(j).map_or("", |t| t.text);
    let is_format =
        |j: usize| text(j) == "format" && text(j + 1) == "!" && toks.get(j + 2).is_some_and(|t| t.is_op("({["));
    if is_format(from) {
        return vec![(from + 3, matching_close(toks, from + 2))];
    }
    let end = statement_end(toks, from);
    let mut formats = Vec::new();
    for j in from..end {
        let after_block_start = text(j.wrapping_sub(1)) == "{";
        let after_arm = text(j.wrapping_sub(1)) == ">" && text(j.wrapping_sub(2)) == "=";
        if !is_format(j) || !(after_block_start || after_arm) {
            continue;
        }
        let close = matching_close(toks, j + 2);
        let is_tail = if after_arm { matches!(text(close + 1), "," | "}") } else { text(close + 1) == "}" };
        if is_tail {
            formats.push((j + 3, close));
        }
    }
    formats
}

/// The `;` that ends the statement whose expression starts at `toks[from]`
/// (brackets skipped whole).
fn statement_end(toks: &[Tok], from: usize) -> usize {
    let mut j = from;
    while j < toks.len() && !toks[j].is(";") {
        j = if toks[j].is_op("([{") { matching_close(toks, j) + 1 } else { j + 1 };
    }
    j
}

/// The first token of the statement `toks[i]` is in (`let _ = writeln!(..)`).
fn statement_start(toks: &[Tok], i: usize) -> usize {
    let mut a = i;
    while a > 0 && !toks[a - 1].is_op(";{}") {
        a -= 1;
    }
    a
}

/// The last token of the function around `toks[i]` (the end of the file
/// outside one).
fn function_end(toks: &[Tok], st: &Structure, i: usize) -> usize {
    let func = &st.scopes[i].func;
    (i..toks.len()).find(|&j| st.scopes[j].func != *func).unwrap_or(toks.len())
}

/// Whether `binding` is an argument of an error or warning call between
/// `from` and `to`, and which.
fn sink_of(toks: &[Tok], binding: &str, from: usize, to: usize) -> Option<Sink> {
    let text = |j: usize| toks.get(j).map_or("", |t| t.text);
    for j in from..to.min(toks.len()) {
        if !toks[j].is_op("({") {
            continue;
        }
        let callee = text(j.wrapping_sub(1));
        let sink = match callee {
            "!" if ["bail", "anyhow", "format_err"].contains(&text(j.wrapping_sub(2))) => Sink::Error,
            "Err" | "msg" | "context" | "with_context" | "error" => Sink::Error,
            "warn" => Sink::Warning,
            // annotate-snippets' `Level::ERROR.primary_title(msg)`.
            "primary_title" if text(j.wrapping_sub(2)) == "." && text(j.wrapping_sub(3)) == "ERROR" => Sink::Error,
            "primary_title" if text(j.wrapping_sub(2)) == "." && text(j.wrapping_sub(3)) == "WARNING" => Sink::Warning,
            "push" if text(j.wrapping_sub(2)) == "." && text(j.wrapping_sub(3)).contains("warn") => Sink::Warning,
            "push" if text(j.wrapping_sub(2)) == "." && text(j.wrapping_sub(3)).contains("err") => Sink::Error,
            _ => continue,
        };
        let close = matching_close(toks, j);
        // An argument, or captured by the format string (`"{msg}{hints}"`).
        let captured = [format!("{{{binding}}}"), format!("{{{binding}:")];
        let mentions = (j + 1..close).any(|k| {
            let t = &toks[k];
            (t.kind == Kind::Ident && t.is(binding) && text(k + 1) != "(" && text(k.wrapping_sub(1)) != ".")
                || (t.is_literal() && captured.iter().any(|c| t.text.contains(c.as_str())))
        });
        if mentions {
            return Some(sink);
        }
    }
    None
}

impl Built {
    pub(super) fn kind(&self) -> CallKind {
        CallKind::Built(self.sink)
    }
}
