//! The extractors, one module per source language, and what the record
//! builder asks of each.

pub mod go;
pub mod java;
pub mod javascript;
mod message;
pub mod python;
pub mod rust;
mod tokens;

use std::io;
use std::path::Path;

use crate::found::{Extractor, Found};

pub use go::Go;
pub use java::Java;
pub use javascript::JavaScript;
pub use message::Message;
pub use python::Python;
pub use rust::Rust;

/// A source language: its extractor, which files it reads, and the record
/// fields whose rules are its own. Its extractor puts the whole
/// documentation sentence of a message in `Found::context` (what the call
/// does, where, under which condition), and the enclosing function in
/// `Found::function`.
pub trait Language: Extractor + Sync {
    /// The name `errcat extract --lang` takes.
    fn name(&self) -> &'static str;

    /// Whether the file at this `/`-separated path (relative to the source
    /// root) is read.
    fn scans(&self, file: &str) -> bool;

    /// `messagePattern`: a `regex` crate pattern that matches every
    /// rendering of the message.
    fn message_pattern(&self, found: &Found) -> String;

    /// The record's first tag (and the start of `backgroundTag`).
    fn tag(&self, found: &Found) -> String {
        file_stem(&found.file).to_string()
    }

    /// What the README says about which calls were read and how.
    fn describe(&self) -> &'static str {
        ""
    }

    /// This language with what it first learns from the whole tree under
    /// `root` (`files`: those it reads), for a language whose messages pass
    /// through other files (Python's logging helpers, libuv's error map for
    /// Node); `None` where it needs nothing.
    fn for_tree(&self, root: &Path, files: &[String]) -> io::Result<Option<Box<dyn Language>>> {
        let _ = (root, files);
        Ok(None)
    }
}

/// Every language `errcat extract` knows.
pub fn languages() -> Vec<&'static dyn Language> {
    vec![&Go, &Java, &python::PYTHON, &javascript::JAVASCRIPT, &Rust]
}

/// The language named `name`, if there is one.
pub fn language(name: &str) -> Option<&'static dyn Language> {
    languages().into_iter().find(|lang| lang.name() == name)
}

/// The file name without its last extension (`server/client.go` → `client`).
pub fn file_stem(file: &str) -> &str {
    let name = file.rsplit('/').next().unwrap_or(file);
    match name.rfind('.') {
        Some(dot) if dot > 0 => &name[..dot],
        _ => name,
    }
}

/// Escapes the characters that are special outside a character class
/// (`. ^ $ * + ? ( ) [ ] { } | \`) and nothing else: the `regex` crate
/// refuses escapes of some other characters (`\ `, `\<`).
pub(crate) fn escape_pattern(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if ".^$*+?()[]{}|\\".contains(c) {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// A part of a message in its format syntax.
pub(crate) enum Part {
    Literal(String),
    /// A placeholder, and whether its rendering can be empty.
    Placeholder {
        may_be_empty: bool,
    },
}

/// The `messagePattern` of a message's parts: literal text escaped, a
/// placeholder `(.*?)` when it can render empty, else `(.+?)`.
pub(crate) fn pattern_of(parts: &[Part]) -> String {
    parts
        .iter()
        .map(|part| match part {
            Part::Literal(text) => escape_pattern(text),
            Part::Placeholder { may_be_empty: true } => "(.*?)".to_string(),
            Part::Placeholder { may_be_empty: false } => "(.+?)".to_string(),
        })
        .collect()
}

/// A message needs this many letters and digits outside its placeholders
/// to be a record (`"%s: %v"` is not one).
const MIN_ALNUM: usize = 8;

/// Which messages of a file become records: those with enough literal
/// text, once per line and message.
#[derive(Default)]
pub(crate) struct Keep(std::collections::HashSet<(u32, String)>);

impl Keep {
    pub(crate) fn keep(&mut self, line: u32, message: &str, parts: &[Part]) -> bool {
        let alnum: usize = parts
            .iter()
            .map(|part| match part {
                Part::Literal(text) => text.chars().filter(|c| c.is_alphanumeric()).count(),
                Part::Placeholder { .. } => 0,
            })
            .sum();
        alnum >= MIN_ALNUM && self.0.insert((line, message.to_string()))
    }
}

/// What a language's call gives to make a [`Found`] of.
pub(crate) struct Call<'a> {
    pub file: &'a str,
    /// The file's lines.
    pub lines: &'a [&'a str],
    pub line: u32,
    pub call_lines: (u32, u32),
    pub message: String,
    pub error_type: &'static str,
    pub severity: &'static str,
    pub error_class: Option<String>,
    pub function: Option<String>,
    /// The documentation sentence.
    pub sentence: String,
}

impl Call<'_> {
    pub(crate) fn found(self) -> Found {
        let (start, end) = self.call_lines;
        Found {
            file: self.file.to_string(),
            line: self.line,
            call_lines: self.call_lines,
            message: self.message,
            error_type: self.error_type.to_string(),
            error_class: self.error_class,
            error_code: None,
            severity: self.severity.to_string(),
            function: self.function,
            source: source_lines(self.lines, start, end),
            context: Some(self.sentence),
        }
    }
}

/// Lines `start..=end` (1-based) of a file split at `\n`.
pub(crate) fn source_lines(lines: &[&str], start: u32, end: u32) -> String {
    let from = (start as usize).saturating_sub(1).min(lines.len());
    let to = (end as usize).clamp(from, lines.len());
    lines[from..to].join("\n")
}
