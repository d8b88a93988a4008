//! The record model: one documented error message, as stored in a dataset.
//!
//! Every field of the dataset schema (camelCase JSON) is here, typed. Strings
//! are [`Text`] so that generated code builds records in `const` items and the
//! run-time loader builds the same type with owned strings.

use std::borrow::Cow;
use std::fmt;

pub use crate::format::Text;

/// A list of strings (solutions, tags, ...).
pub type TextList = Cow<'static, [Text]>;

macro_rules! open_enum {
    ($(#[$meta:meta])* $name:ident { $($(#[$vmeta:meta])* $variant:ident = $text:literal,)* }) => {
        $(#[$meta])*
        #[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
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
            pub fn variant_name(&self) -> Option<&'static str> {
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

/// One documented error message.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(any(feature = "serde", feature = "cache"), derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(any(feature = "serde", feature = "cache"), serde(rename_all = "camelCase"))]
pub struct Record {
    /// Stable identifier (16 hex digits in the upstream data).
    pub id: Text,
    /// The project the message comes from, `owner/name`.
    pub repo: Text,
    /// URL-safe name derived from the message.
    pub slug: Text,
    /// The project's own error code, if any.
    pub error_code: Option<Text>,
    /// The format string as written in the source (may be empty when only a
    /// pattern is known).
    pub error_message: Text,
    /// The dataset's regex for the message (may be defective; see [`crate::compile`]).
    pub message_pattern: Option<Text>,
    /// What kind of error this is.
    pub error_type: Option<ErrorType>,
    /// The error class or type name, if any.
    pub error_class: Option<Text>,
    /// The HTTP status that goes with the error, if any.
    pub http_status: Option<u16>,
    /// How severe it is.
    pub severity: Option<Severity>,
    /// Source file that raises it, relative to the repository.
    pub file_path: Text,
    /// Line of the message in that file.
    pub line_number: Option<u32>,
    /// The source lines around the call.
    pub source_code: Option<Text>,
    /// First line of `source_code`.
    pub source_code_start: Option<u32>,
    /// Last line of `source_code`.
    pub source_code_end: Option<u32>,
    /// Link to the source lines.
    pub github_url: Option<Text>,
    /// What the error means.
    pub documentation: Text,
    /// What triggers it.
    pub trigger_scenarios: Option<Text>,
    /// Where it is commonly seen.
    pub common_situations: Option<Text>,
    /// How to fix it.
    pub solutions: TextList,
    /// An example fix.
    pub example_fix: Option<Text>,
    /// What a caller should do.
    pub handling_strategy: Option<HandlingStrategy>,
    /// Code that checks for the condition beforehand.
    pub validation_code: Option<Text>,
    /// A type guard for the error.
    pub type_guard: Option<Text>,
    /// A try/catch pattern for the error.
    pub try_catch_pattern: Option<Text>,
    /// How to avoid it.
    pub prevention_tips: TextList,
    /// Free-form tags.
    pub tags: TextList,
    /// A coarse category tag.
    pub background_tag: Option<Text>,
    /// The commit the record was made from.
    pub analyzed_sha: Option<Text>,
    /// When the record was made.
    pub analyzed_at: Option<Text>,
    /// When its content last changed.
    pub content_changed_at: Option<Text>,
    /// Version of the record schema.
    pub schema_version: Option<u32>,
    /// Version of the dataset the record was exported from.
    pub dataset_version: Option<Text>,
}

impl Record {
    /// A record with the given id and message and every other field empty.
    pub fn new(id: impl Into<Text>, error_message: impl Into<Text>) -> Self {
        Record {
            id: id.into(),
            repo: Text::Borrowed(""),
            slug: Text::Borrowed(""),
            error_code: None,
            error_message: error_message.into(),
            message_pattern: None,
            error_type: None,
            error_class: None,
            http_status: None,
            severity: None,
            file_path: Text::Borrowed(""),
            line_number: None,
            source_code: None,
            source_code_start: None,
            source_code_end: None,
            github_url: None,
            documentation: Text::Borrowed(""),
            trigger_scenarios: None,
            common_situations: None,
            solutions: Cow::Borrowed(&[]),
            example_fix: None,
            handling_strategy: None,
            validation_code: None,
            type_guard: None,
            try_catch_pattern: None,
            prevention_tips: Cow::Borrowed(&[]),
            tags: Cow::Borrowed(&[]),
            background_tag: None,
            analyzed_sha: None,
            analyzed_at: None,
            content_changed_at: None,
            schema_version: None,
            dataset_version: None,
        }
    }

    /// The severity, `error` when the record does not say.
    pub fn severity_or_default(&self) -> Severity {
        self.severity.clone().unwrap_or(Severity::Error)
    }
}
