//! The format compiler: turns a record's `errorMessage` (a Go `fmt` or C
//! `printf` format string) or its `messagePattern` into a [`Template`]: the
//! literal pieces and typed placeholders of the message, and a regex that
//! matches exactly the messages the format can render.
//!
//! Every type here can be built in a `const` (all strings are
//! `Cow<'static, str>`), so the macro emits templates as static data and the
//! run-time loader builds the very same values.

use std::borrow::Cow;

/// Text that is `&'static str` in generated code and owned when loaded at run time.
pub type Text = Cow<'static, str>;

/// How a record's message is to be read.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(any(feature = "serde", feature = "cache"), derive(serde::Serialize, serde::Deserialize))]
pub enum Dialect {
    /// Go `fmt` verbs (`fmt.Errorf`, `log.Printf`, ...).
    Go,
    /// Plain text with no placeholders (Go's `errors.New`): a `%` is literal.
    Plain,
    /// C `printf` (C, C++ sources).
    Printf,
    /// Python `%` formatting: C `printf` plus `%(name)s` mapping keys.
    Python,
    /// No known format: the record's `messagePattern` regex is used as is.
    Pattern,
}

/// The type of value a placeholder holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(any(feature = "serde", feature = "cache"), derive(serde::Serialize, serde::Deserialize))]
pub enum ValueKind {
    /// A signed integer (`%d %b %o %O %c %U`, C `%d %i %u %ld ...`).
    Int,
    /// A floating-point number (`%e %E %f %F %g %G`).
    Float,
    /// `true` or `false` (`%t`).
    Bool,
    /// A Go-quoted string (`%q`): matched in quoted syntax, captured unquoted.
    Quoted,
    /// Any other text (`%v %s %w %x %T %p ...`).
    Text,
}

/// Flag characters of a conversion, as a bit set.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(any(feature = "serde", feature = "cache"), derive(serde::Serialize, serde::Deserialize))]
pub struct Flags(pub u8);

impl Flags {
    /// `-`: pad on the right.
    pub const MINUS: u8 = 1;
    /// `+`: always print a sign (`%+v`: field names).
    pub const PLUS: u8 = 2;
    /// `#`: alternate form.
    pub const SHARP: u8 = 4;
    /// ` `: space for the sign of positive numbers.
    pub const SPACE: u8 = 8;
    /// `0`: pad with leading zeros.
    pub const ZERO: u8 = 16;

    /// Whether every bit of `flag` is set.
    pub const fn has(self, flag: u8) -> bool {
        self.0 & flag == flag
    }
}

/// A width or precision.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(any(feature = "serde", feature = "cache"), derive(serde::Serialize, serde::Deserialize))]
pub enum Count {
    /// Not given.
    #[default]
    None,
    /// A number written in the format.
    Fixed(u16),
    /// `*`: taken from an argument at run time, so unknown here.
    Star,
}

/// One conversion such as `%-08.3f`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(any(feature = "serde", feature = "cache"), derive(serde::Serialize, serde::Deserialize))]
pub struct Spec {
    /// The verb letter (`d`, `q`, `v`, ...). C length modifiers are dropped.
    pub verb: char,
    /// The flags.
    pub flags: Flags,
    /// The width.
    pub width: Count,
    /// The precision.
    pub precision: Count,
}

/// A piece of a message: literal text or a placeholder.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(any(feature = "serde", feature = "cache"), derive(serde::Serialize, serde::Deserialize))]
pub enum Piece {
    /// Text that appears as is.
    Literal(Text),
    /// A placeholder rendering field number `field` with `spec`.
    Value {
        /// Index into [`Template::fields`]. Several pieces may share a field
        /// (Go's `%[1]s ... %[1]q`).
        field: u16,
        /// How the value is written.
        spec: Spec,
    },
}

/// A typed field of a message: one per argument of the format call.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(any(feature = "serde", feature = "cache"), derive(serde::Serialize, serde::Deserialize))]
pub struct Field {
    /// The field's name: from the source call, a Python mapping key, or `argN`.
    pub name: Text,
    /// The type of the field.
    pub kind: ValueKind,
    /// Zero-based index of the call argument this field renders.
    pub arg: u16,
}

/// A compiled message format.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(any(feature = "serde", feature = "cache"), derive(serde::Serialize, serde::Deserialize))]
pub struct Template {
    /// How the message was read.
    pub dialect: Dialect,
    /// The message as a sequence of literal text and placeholders.
    pub pieces: Cow<'static, [Piece]>,
    /// The fields, in order of first appearance in the message.
    pub fields: Cow<'static, [Field]>,
    /// Unanchored regex matching a rendered message, with one capture group
    /// per [`Piece::Value`] in order, and no other capture group.
    pub regex: Text,
    /// Number of literal characters: how specific the template is.
    pub literal_len: u32,
}

impl Template {
    /// How field `field` is first rendered: the spec of the first placeholder
    /// of that field (`None` when no placeholder renders it).
    pub fn first_spec(&self, field: usize) -> Option<Spec> {
        self.pieces.iter().find_map(|piece| match piece {
            Piece::Value { field: f, spec } if usize::from(*f) == field => Some(*spec),
            _ => None,
        })
    }
}

mod float;
mod go;
mod parse;
mod pattern;
mod printf;
mod quote;
mod render;
mod template;
#[cfg(test)]
mod tests;

pub use parse::parse_value;
pub use pattern::compile_pattern;
pub use quote::{go_quote, go_unquote};
pub use render::{render, render_partial, render_template};
pub(crate) use template::{syntax, Syntax};

/// Why a message format (or pattern) could not be compiled.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FormatError {
    /// Byte offset in the format string of the offending text.
    pub offset: usize,
    /// What is wrong, in a few words.
    pub message: String,
}

impl FormatError {
    pub(crate) fn new(offset: usize, message: impl Into<String>) -> Self {
        FormatError { offset, message: message.into() }
    }
}

impl std::fmt::Display for FormatError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} (at byte {})", self.message, self.offset)
    }
}

impl std::error::Error for FormatError {}

/// Compiles a record's message read in `dialect` into a [`Template`].
///
/// [`Dialect::Plain`] makes the whole message one literal;
/// [`Dialect::Pattern`] reads it as a regex (see [`compile_pattern`]).
/// Fields are one per distinct call argument, named `argN` (`N` the zero-based
/// argument index) or after a Python mapping key.
///
/// ```
/// use catalog_runtime::format::{compile, render_template};
/// use catalog_runtime::{Dialect, Value, ValueKind};
///
/// let template = compile("unable to persist session %q (seq=%v): %v", Dialect::Go).unwrap();
/// let kinds: Vec<ValueKind> = template.fields.iter().map(|f| f.kind).collect();
/// assert_eq!(kinds, [ValueKind::Quoted, ValueKind::Text, ValueKind::Text]);
/// let mut message = String::new();
/// let values = [Value::Str("a \"b\"".into()), Value::Str("3".into()), Value::Str("timeout".into())];
/// render_template(&mut message, &template, &values).unwrap();
/// assert_eq!(message, r#"unable to persist session "a \"b\"" (seq=3): timeout"#);
/// assert!(compile("bad %", Dialect::Go).is_err());
/// ```
pub fn compile(message: &str, dialect: Dialect) -> Result<Template, FormatError> {
    match dialect {
        Dialect::Go => go::compile(message),
        Dialect::Printf | Dialect::Python => printf::compile(message, dialect),
        Dialect::Plain => {
            let mut builder = template::Builder::new(Dialect::Plain);
            builder.literal(message);
            Ok(builder.finish())
        }
        Dialect::Pattern => compile_pattern(message),
    }
}
