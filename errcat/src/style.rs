//! Terminal output: colour when wanted, text wrapped to the width.

use std::io::{self, IsTerminal, Write};

use error_catalog::{Severity, Value};

use crate::args::ColorChoice;

pub struct Out {
    out: io::BufWriter<io::Stdout>,
    color: bool,
    pub width: usize,
    /// The terminal's width, when standard output is a terminal: tables
    /// are cut to it there, and never when piped.
    pub terminal_columns: Option<usize>,
}

impl Out {
    pub fn new(choice: ColorChoice) -> Self {
        let stdout = io::stdout();
        let tty = stdout.is_terminal();
        let no_color = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
        let color = match choice {
            ColorChoice::Always => true,
            ColorChoice::Never => false,
            ColorChoice::Auto => tty && !no_color,
        };
        let columns = terminal_size::terminal_size()
            .map(|(w, _)| usize::from(w.0))
            .or_else(|| std::env::var("COLUMNS").ok()?.parse().ok());
        let width = columns.unwrap_or(80).clamp(40, 120);
        let terminal_columns = if tty { columns } else { None };
        Out { out: io::BufWriter::new(stdout), color, width, terminal_columns }
    }

    pub fn line(&mut self, text: &str) -> io::Result<()> {
        writeln!(self.out, "{text}")
    }

    pub fn flush(&mut self) -> io::Result<()> {
        self.out.flush()
    }

    pub fn bold(&self, text: &str) -> String {
        self.paint("1", text)
    }

    pub fn dim(&self, text: &str) -> String {
        self.paint("2", text)
    }

    pub fn severity(&self, severity: &Severity) -> String {
        let code = match severity {
            Severity::Fatal | Severity::Critical | Severity::Error => "1;31",
            Severity::Warning => "1;33",
            Severity::Info => "1;32",
            _ => "1;34",
        };
        self.paint(code, severity.as_str())
    }

    fn paint(&self, code: &str, text: &str) -> String {
        if self.color {
            format!("\x1b[{code}m{text}\x1b[0m")
        } else {
            text.to_owned()
        }
    }

    /// Writes prose wrapped to the width, each line starting with `indent`.
    pub fn wrapped(&mut self, indent: &str, text: &str) -> io::Result<()> {
        for paragraph in text.lines() {
            for line in wrap(paragraph, self.width.saturating_sub(indent.len()).max(20)) {
                writeln!(self.out, "{indent}{line}")?;
            }
        }
        Ok(())
    }
}

/// Greedy word wrap; words longer than the width stand alone.
pub fn wrap(text: &str, width: usize) -> Vec<String> {
    let mut lines = Vec::new();
    let mut line = String::new();
    for word in text.split_whitespace() {
        if !line.is_empty() && line.chars().count() + 1 + word.chars().count() > width {
            lines.push(std::mem::take(&mut line));
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    if !line.is_empty() || lines.is_empty() {
        lines.push(line);
    }
    lines
}

/// `text` cut to `width` characters, with `…` when cut.
pub fn truncate(text: &str, width: usize) -> String {
    if text.chars().count() <= width {
        return text.to_owned();
    }
    let mut cut: String = text.chars().take(width.saturating_sub(1)).collect();
    cut.push('…');
    cut
}

/// A value as shown to people: text quoted as in Rust, numbers bare.
pub fn show_value(value: &Value<'_>) -> String {
    match value {
        Value::Str(text) => format!("{text:?}"),
        other => other.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wraps_at_word_boundaries() {
        assert_eq!(wrap("a bb ccc dddd", 6), ["a bb", "ccc", "dddd"]);
        assert_eq!(wrap("", 6), [""]);
        assert_eq!(truncate("abcdef", 4), "abc…");
    }
}
