//! What a language's extractor hands to the record builder.

/// One message found in source code, before it becomes a record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Found {
    /// Path relative to the source root, `/`-separated.
    pub file: String,
    /// 1-based line of the message (the id's `lineNumber`).
    pub line: u32,
    /// 1-based first and last line of the call (`sourceCodeStart`/`sourceCodeEnd`).
    pub call_lines: (u32, u32),
    /// The message in its language's own format syntax (`errorMessage`).
    pub message: String,
    /// `errorType`: "exception" | "error" | "log" | "warning" | "panic" … as today's datasets use.
    pub error_type: String,
    /// `errorClass`, e.g. `ImproperlyConfigured`, `ERR_INVALID_ARG_TYPE`'s class, `anyhow`.
    pub error_class: Option<String>,
    /// `errorCode`, e.g. Node's `ERR_INVALID_ARG_TYPE`, `ENOENT`.
    pub error_code: Option<String>,
    /// `severity`: "error" | "warning" | "info" | "debug" | "fatal" …
    pub severity: String,
    /// The enclosing function or method, for the documentation sentence.
    pub function: Option<String>,
    /// The source text of the call (`sourceCode`).
    pub source: String,
    /// Condition or context the documentation sentence quotes, if any.
    pub context: Option<String>,
}

/// One language's extractor: every message of one file.
pub trait Extractor {
    fn extract_file(&self, file: &str, text: &str) -> Vec<Found>;
}
