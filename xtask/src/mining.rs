//! `mining OUT RENDERINGS CORPUS...`: the lines of the log-template mining
//! benchmark (`bench/mining.py`). Each record of the corpora is rendered
//! RENDERINGS times with varied values by the runtime's own rendering of its
//! template, the lines are shuffled, and each line's true template is kept:
//!
//! - `OUT/lines.txt`: one message per line;
//! - `OUT/truth.txt`: the index of each line's true template, one per line;
//! - `OUT/templates.txt`: the true templates, one per line, each value
//!   written `<*>` (so two records with the same message are one template).
//!
//! Left out, and counted on stderr: records that cannot be rendered (a
//! pattern without a format), messages with a line break, and messages
//! with no literal word at all (`%v`, `%s: %s`), which no miner can tell
//! from any other.

use std::borrow::Cow;
use std::collections::HashMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use catalog_runtime::build::build;
use catalog_runtime::{load_dir, Filter, Piece, Template, Value, ValueKind};

use crate::rng::Rng;

const SYLLABLES: &[&str] =
    &["ka", "lo", "mir", "ten", "sa", "vu", "dor", "pel", "qui", "ran", "zo", "bex", "nu", "tal", "gri", "op"];
/// Values with the formats' own delimiters, punctuation and non-ASCII
/// (made unique with a number, as real values mostly are).
const HOSTILE: &[&str] =
    &["{}", "%s", "${x}", "{0}", "a, b; c", "back\\slash", "é日本🎉", "key=value", "50%", "'single'"];

pub fn run(out: &Path, renderings: usize, corpora: &[PathBuf]) -> Result<(), String> {
    let mut templates: Vec<String> = Vec::new();
    let mut by_text: HashMap<String, usize> = HashMap::new();
    let mut lines: Vec<(String, usize)> = Vec::new();
    let mut rng = Rng::new(0x05ee_d0fd_4af7);
    let (mut unrenderable, mut multiline, mut no_literal) = (0, 0, 0);
    for corpus in corpora {
        let loaded = load_dir(corpus);
        if loaded.records.is_empty() {
            return Err(format!("{}: no records", corpus.display()));
        }
        let built = build(loaded.records, &Filter::default());
        for entry in &built.entries {
            let template = &entry.entry.template;
            let Some(truth) = truth_text(template) else {
                unrenderable += 1;
                continue;
            };
            if truth.contains(['\n', '\r']) {
                multiline += 1;
                continue;
            }
            if !truth.replace("<*>", "").chars().any(char::is_alphanumeric) {
                no_literal += 1;
                continue;
            }
            let next = templates.len();
            let index = *by_text.entry(truth.clone()).or_insert(next);
            if index < next {
                continue; // Another record's message: rendered already.
            }
            templates.push(truth);
            for _ in 0..renderings {
                let values: Vec<Value<'static>> = template.fields.iter().map(|f| value(f.kind, &mut rng)).collect();
                match template.render(&values) {
                    Ok(message) if !message.contains(['\n', '\r']) => lines.push((message, index)),
                    _ => {}
                }
            }
        }
    }
    // Fisher-Yates, with the fixed seed: the same lines on every run.
    for i in (1..lines.len()).rev() {
        lines.swap(i, rng.below(i + 1));
    }
    std::fs::create_dir_all(out).map_err(|e| format!("{}: {e}", out.display()))?;
    let write = |name: &str, text: String| {
        std::fs::write(out.join(name), text).map_err(|e| format!("{}: {e}", out.join(name).display()))
    };
    write(
        "lines.txt",
        lines.iter().fold(String::new(), |mut s, (line, _)| {
            let _ = writeln!(s, "{line}");
            s
        }),
    )?;
    write(
        "truth.txt",
        lines.iter().fold(String::new(), |mut s, (_, t)| {
            let _ = writeln!(s, "{t}");
            s
        }),
    )?;
    write(
        "templates.txt",
        templates.iter().fold(String::new(), |mut s, t| {
            let _ = writeln!(s, "{t}");
            s
        }),
    )?;
    eprintln!(
        "{} lines of {} templates written to {}; left out: {unrenderable} without a format, {multiline} with a line \
         break, {no_literal} without a literal word",
        lines.len(),
        templates.len(),
        out.display()
    );
    Ok(())
}

/// The message with each value as `<*>`; none for a template without a
/// format (a pattern only).
fn truth_text(template: &Template) -> Option<String> {
    if template.pieces.is_empty() || template.dialect == catalog_runtime::Dialect::Pattern {
        return None;
    }
    let mut text = String::new();
    for piece in template.pieces.iter() {
        match piece {
            Piece::Literal(literal) => text.push_str(literal),
            // A placeholder.
            _ => text.push_str("<*>"),
        }
    }
    Some(text)
}

fn word(rng: &mut Rng) -> String {
    (0..2 + rng.below(3)).map(|_| *rng.pick(SYLLABLES)).collect()
}

/// A value of `kind`, as varied as real ones: for text, words with and
/// without digits, several words, paths, addresses, empty text, the formats'
/// delimiters and non-ASCII.
fn value(kind: ValueKind, rng: &mut Rng) -> Value<'static> {
    let text = match kind {
        ValueKind::Int => {
            let digits = 4 * (1 + rng.below(7));
            return Value::Int(rng.below(1 << digits) as i64 - rng.below(2) as i64);
        }
        ValueKind::Float => return Value::Float(rng.below(1_000_000) as f64 / 1000.0),
        ValueKind::Bool => return Value::Bool(rng.chance(0.5)),
        ValueKind::Quoted | ValueKind::Text => match rng.below(20) {
            0..=6 => format!("{}-{}", word(rng), rng.below(10_000)),
            7..=10 => word(rng),
            11 => format!("/var/lib/{}/{}.db", word(rng), word(rng)),
            12 | 13 => (0..2 + rng.below(2)).map(|_| word(rng)).collect::<Vec<_>>().join(" "),
            14 => String::new(),
            15 | 16 => format!("{}{}", rng.pick(HOSTILE), rng.below(1000)),
            17 => format!("10.{}.{}.{}:{}", rng.below(256), rng.below(256), rng.below(256), 1024 + rng.below(60_000)),
            18 => format!("{:016x}", rng.next()),
            _ => format!("{} {}", word(rng), rng.below(100)),
        },
        // `ValueKind` is to become `#[non_exhaustive]`.
        #[allow(unreachable_patterns)]
        _ => word(rng),
    };
    Value::Str(Cow::Owned(text))
}
