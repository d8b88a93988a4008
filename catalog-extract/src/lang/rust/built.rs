//! Messages built before they are raised: `let msg = format!("...", ..)`
//! and `write!(&mut msg, "...", ..)` / `writeln!(&mut msg, ..)` into a
//! binding that then reaches an error or a warning (`bail!(msg)`,
//! `anyhow::format_err!("{}", msg)`, `.context(msg)`, `warnings.push(msg)`,
//! `shell.warn(msg)`). Cargo writes its resolver errors (`no matching
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
        // let [mut] NAME = format!(literal ..)
        let candidate = if t.is("let") {
            let name = if text(i + 1) == "mut" { i + 2 } else { i + 1 };
            let macro_at = name + 2;
            let is_format = toks.get(name).is_some_and(|t| t.kind == Kind::Ident)
                && text(name + 1) == "="
                && text(macro_at) == "format"
                && text(macro_at + 1) == "!"
                && toks.get(macro_at + 2).is_some_and(|t| t.is_op("({["));
            is_format.then(|| (name, macro_at + 3, matching_close(toks, macro_at + 2)))
        } else if (t.is("write") || t.is("writeln"))
            && text(i + 1) == "!"
            && text(i + 2) == "("
            && text(i + 3) == "&"
            && text(i + 4) == "mut"
        {
            // write!(&mut NAME, literal ..)
            let is_named = toks.get(i + 5).is_some_and(|t| t.kind == Kind::Ident) && text(i + 6) == ",";
            is_named.then(|| (i + 5, i + 7, matching_close(toks, i + 2)))
        } else {
            None
        };
        let Some((name, literal_at, close)) = candidate else { continue };
        // A piece that continues a message (`"\nhelp: ..."`, `"{}: ..."`) or
        // that a next piece continues (`"...\n\n"`) is not one.
        let Some((message, literal)) = literal_arg(toks, literal_at)
            .filter(|(message, _)| message.starts_with(|c: char| c.is_ascii_alphabetic()) && !message.ends_with('\n'))
        else {
            continue;
        };
        let binding = toks[name].text;
        let Some(sink) = sink_of(toks, binding, close, function_end(toks, st, i)) else { continue };
        let first = if t.is("let") { i } else { statement_start(toks, i) };
        built.push(Built { message, literal, first, last: close, binding: binding.to_string(), sink });
    }
    built
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
