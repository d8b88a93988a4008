//! Problems found in a dataset, each pinned to a file, line, column and field.

use std::fmt;
use std::path::PathBuf;

/// How bad a problem is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(any(feature = "serde", feature = "cache"), derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub enum Level {
    /// The record cannot be used.
    Error,
    /// The record is used, but something in it is wrong.
    Warning,
}

/// A problem in a dataset file.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(any(feature = "serde", feature = "cache"), derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub struct Diagnostic {
    /// Error or warning.
    pub level: Level,
    /// The file, as given to the loader (relative paths stay relative).
    pub path: PathBuf,
    /// 1-based line.
    pub line: usize,
    /// 1-based column, in characters.
    pub column: usize,
    /// The JSON field concerned (`errorMessage`, ...), if any.
    pub field: Option<String>,
    /// What is wrong.
    pub message: String,
}

impl Diagnostic {
    /// An error at a position.
    pub fn error(path: impl Into<PathBuf>, (line, column): (usize, usize), message: impl Into<String>) -> Self {
        Diagnostic { level: Level::Error, path: path.into(), line, column, field: None, message: message.into() }
    }

    /// The same problem, about `field`.
    pub fn in_field(mut self, field: impl Into<String>) -> Self {
        self.field = Some(field.into());
        self
    }

    /// The same problem, as a warning.
    pub fn warning(mut self) -> Self {
        self.level = Level::Warning;
        self
    }

    /// Whether this is an error rather than a warning.
    pub fn is_error(&self) -> bool {
        self.level == Level::Error
    }
}

impl fmt::Display for Diagnostic {
    /// `path:line:col: field `name`: message`, the form editors link.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}:{}: ", self.path.display(), self.line, self.column)?;
        if self.level == Level::Warning {
            f.write_str("warning: ")?;
        }
        if let Some(field) = &self.field {
            write!(f, "field `{field}`: ")?;
        }
        f.write_str(&self.message)
    }
}

impl std::error::Error for Diagnostic {}

/// 1-based line and column (in characters) of a byte offset in `text`.
pub fn line_column(text: &str, offset: usize) -> (usize, usize) {
    let before = &text[..offset.min(text.len())];
    let line = before.bytes().filter(|&b| b == b'\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    (line, before[line_start..].chars().count() + 1)
}
