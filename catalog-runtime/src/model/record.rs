//! The record model: one documented error message, as stored in a dataset.
//!
//! Strings are [`Text`]: borrowed from the packed string literal in
//! generated code (see `crate::codegen::packed`), owned when loaded at run
//! time, one type either way.

use std::borrow::Cow;
use std::fmt;

use super::Text;

/// A list of strings (solutions, tags, ...).
pub type TextList = Cow<'static, [Text]>;

macro_rules! open_enum {
    ($(#[$meta:meta])* $name:ident { $($(#[$vmeta:meta])* $variant:ident = $text:literal,)* }) => {
        $(#[$meta])*
        #[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        // A later version may know more values: matching elsewhere needs a
        // wildcard arm, so adding a variant is not a breaking change.
        #[non_exhaustive]
        pub enum $name {
            $($(#[$vmeta])* $variant,)*
            /// A value this version does not know, kept as written.
            Other(Text),
        }

        impl $name {
            /// The value as written in the dataset.
            pub fn as_str(&self) -> &str {
                match self {
                    $(Self::$variant => $text,)*
                    Self::Other(text) => text,
                }
            }

            /// The Rust name of a known variant (`"Error"`), `None` for `Other`.
            pub(crate) fn variant_name(&self) -> Option<&'static str> {
                match self {
                    $(Self::$variant => Some(stringify!($variant)),)*
                    Self::Other(_) => None,
                }
            }

            /// Reads a dataset value; unknown values become `Other`.
            pub fn from_text(text: &str) -> Self {
                match text {
                    $($text => Self::$variant,)*
                    other => Self::Other(Cow::Owned(other.to_owned())),
                }
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(self.as_str())
            }
        }

        // As the dataset writes it (`"fatal"`, or the unknown value itself),
        // not as a tagged enum: what `from_text` reads, it writes back.
        #[cfg(any(feature = "serde", feature = "cache"))]
        impl serde::Serialize for $name {
            fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                serializer.serialize_str(self.as_str())
            }
        }

        #[cfg(any(feature = "serde", feature = "cache"))]
        impl<'de> serde::Deserialize<'de> for $name {
            fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                let text = String::deserialize(deserializer)?;
                Ok(Self::from_text(&text))
            }
        }
    };
}

open_enum! {
    /// How severe an error is.
    ///
    /// Like every enum of the crate that a later dataset or version may
    /// extend, it is `#[non_exhaustive]`: a `match` on it outside this crate
    /// needs a wildcard arm, even when it lists every variant.
    ///
    /// ```compile_fail,E0004
    /// use catalog_runtime::Severity;
    ///
    /// fn is_alarming(severity: &Severity) -> bool {
    ///     match severity {
    ///         Severity::Fatal | Severity::Critical | Severity::Error => true,
    ///         Severity::Warning | Severity::Info | Severity::Debug | Severity::Trace | Severity::Other(_) => false,
    ///     }
    /// }
    /// ```
    ///
    /// ```
    /// use catalog_runtime::Severity;
    ///
    /// fn is_alarming(severity: &Severity) -> bool {
    ///     match severity {
    ///         Severity::Fatal | Severity::Critical | Severity::Error => true,
    ///         _ => false,
    ///     }
    /// }
    /// assert!(is_alarming(&Severity::from_text("fatal")));
    /// assert!(!is_alarming(&Severity::from_text("chatty")));
    /// ```
    Severity {
        /// The process stops.
        Fatal = "fatal",
        /// Critical.
        Critical = "critical",
        /// An error.
        Error = "error",
        /// A warning.
        Warning = "warning",
        /// Informational.
        Info = "info",
        /// Debug output.
        Debug = "debug",
        /// Trace output.
        Trace = "trace",
    }
}

open_enum! {
    /// What kind of error a record documents.
    ErrorType {
        /// A returned or thrown error.
        Exception = "exception",
        /// A log message.
        Log = "log",
        /// A failed validation.
        Validation = "validation",
        /// A panic.
        Panic = "panic",
    }
}

open_enum! {
    /// What a caller should do about an error.
    HandlingStrategy {
        /// Try again later.
        Retry = "retry",
        /// Give up and report.
        Fail = "fail",
        /// Nothing to do.
        Ignore = "ignore",
        /// Raise to an operator.
        Escalate = "escalate",
        /// Use a fallback.
        Fallback = "fallback",
    }
}

/// Calls `$callback!` with every field of the record schema, once each: its
/// documentation, Rust name, type and JSON key. The struct below, the loader
/// (`crate::dataset`) and the packed form of generated code
/// (`crate::codegen::packed`) are all expanded from this one list, so a new
/// field is one line here and every use is checked by the compiler.
macro_rules! with_record_schema {
    ($callback:path) => {
        $callback! {
            /// Stable identifier (16 hex digits in the upstream data).
            id: Text = "id",
            /// The project the message comes from, `owner/name`.
            repo: Text = "repo",
            /// URL-safe name derived from the message.
            slug: Text = "slug",
            /// The project's own error code, if any.
            error_code: Option<Text> = "errorCode",
            /// The format string as written in the source (may be empty when only a
            /// pattern is known).
            error_message: Text = "errorMessage",
            /// The dataset's regex for the message (may be defective; see [`crate::build::check_patterns`]).
            message_pattern: Option<Text> = "messagePattern",
            /// What kind of error this is.
            error_type: Option<ErrorType> = "errorType",
            /// The error class or type name, if any.
            error_class: Option<Text> = "errorClass",
            /// The HTTP status that goes with the error, if any.
            http_status: Option<u16> = "httpStatus",
            /// How severe it is.
            severity: Option<Severity> = "severity",
            /// Source file that raises it, relative to the repository.
            file_path: Text = "filePath",
            /// Line of the message in that file.
            line_number: Option<u32> = "lineNumber",
            /// The source lines around the call.
            source_code: Option<Text> = "sourceCode",
            /// First line of `source_code`.
            source_code_start: Option<u32> = "sourceCodeStart",
            /// Last line of `source_code`.
            source_code_end: Option<u32> = "sourceCodeEnd",
            /// Link to the source lines.
            github_url: Option<Text> = "githubUrl",
            /// What the error means.
            documentation: Text = "documentation",
            /// What triggers it.
            trigger_scenarios: Option<Text> = "triggerScenarios",
            /// Where it is commonly seen.
            common_situations: Option<Text> = "commonSituations",
            /// How to fix it.
            solutions: TextList = "solutions",
            /// An example fix.
            example_fix: Option<Text> = "exampleFix",
            /// What a caller should do.
            handling_strategy: Option<HandlingStrategy> = "handlingStrategy",
            /// Code that checks for the condition beforehand.
            validation_code: Option<Text> = "validationCode",
            /// A type guard for the error.
            type_guard: Option<Text> = "typeGuard",
            /// A try/catch pattern for the error.
            try_catch_pattern: Option<Text> = "tryCatchPattern",
            /// How to avoid it.
            prevention_tips: TextList = "preventionTips",
            /// Free-form tags.
            tags: TextList = "tags",
            /// A coarse category tag.
            background_tag: Option<Text> = "backgroundTag",
            /// The commit the record was made from.
            analyzed_sha: Option<Text> = "analyzedSha",
            /// When the record was made.
            analyzed_at: Option<Text> = "analyzedAt",
            /// When its content last changed.
            content_changed_at: Option<Text> = "contentChangedAt",
            /// Version of the record schema.
            schema_version: Option<u32> = "schemaVersion",
            /// Version of the dataset the record was exported from (the
            /// record file's own `datasetVersion` beside the record wins).
            dataset_version: Option<Text> = "datasetVersion",
        }
    };
}
pub(crate) use with_record_schema;

macro_rules! record_struct {
    ($($(#[doc = $doc:literal])* $field:ident: $ty:ty = $key:literal,)*) => {
        /// One documented error message. Every field of the dataset schema
        /// (camelCase JSON) is here, typed; every field but `id` and
        /// `error_message` may be empty.
        #[derive(Clone, Debug, Default, PartialEq)]
        #[cfg_attr(any(feature = "serde", feature = "cache"), derive(serde::Serialize, serde::Deserialize))]
        #[non_exhaustive]
        pub struct Record {
            $(
                $(#[doc = $doc])*
                #[cfg_attr(any(feature = "serde", feature = "cache"), serde(rename = $key))]
                pub $field: $ty,
            )*
        }
    };
}
with_record_schema!(record_struct);

impl Record {
    /// A record with the given id and message and every other field empty.
    pub fn new(id: impl Into<Text>, error_message: impl Into<Text>) -> Self {
        Record { id: id.into(), error_message: error_message.into(), ..Record::default() }
    }

    /// The severity, `error` when the record does not say.
    pub fn severity_or_default(&self) -> Severity {
        self.severity.clone().unwrap_or(Severity::Error)
    }
}
