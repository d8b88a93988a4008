//! The extractors, one module per source language, and what the record
//! builder asks of each.

pub mod go;
pub mod javascript;
mod message;
pub mod python;

use std::io;
use std::path::Path;

use crate::found::{Extractor, Found};

pub use go::Go;
pub use javascript::JavaScript;
pub use message::Message;
pub use python::Python;

/// A source language: its extractor, which files it reads, and the record
/// fields whose rules are its own.
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
    vec![&Go, &python::PYTHON, &javascript::JAVASCRIPT]
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
pub fn escape_pattern(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if ".^$*+?()[]{}|\\".contains(c) {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// How many letters and digits the literal parts of a message have.
pub fn literal_alnum_count<'a>(literals: impl Iterator<Item = &'a str>) -> usize {
    literals.map(|text| text.chars().filter(|c| c.is_alphanumeric()).count()).sum()
}

/// Lines `start..=end` (1-based) of a file split at `\n`.
pub fn source_lines(lines: &[&str], start: u32, end: u32) -> String {
    let from = (start as usize).saturating_sub(1).min(lines.len());
    let to = (end as usize).clamp(from, lines.len());
    lines[from..to].join("\n")
}
