//! The format compiler: turns a record's `errorMessage` (a Go `fmt` or C
//! `printf` format string) or its `messagePattern` into a [`Template`]: the
//! literal pieces and typed placeholders of the message, and a regex that
//! matches exactly the messages the format can render.
//!
//! All strings are [`Text`] (`Cow<'static, str>`): generated code's templates
//! borrow theirs from its packed metadata literal (`crate::codegen::packed`),
//! and the run-time loader builds the very same values with owned strings.

use std::borrow::Cow;

use crate::model::Value;

pub(crate) use crate::model::Text;

/// How a record's message is to be read.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(any(feature = "serde", feature = "cache"), derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
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
    /// Node.js `util.format` (`%s %d %i %f %j %o %O %c %%`), as `console.log`
    /// and Node's internal `E()` error table use it.
    JsFormat,
    /// A JavaScript template literal's text (`${expr}`).
    JsTemplate,
    /// Python `str.format` and f-strings (`{}`, `{0.attr}`, `{expr!r:>10}`, `{expr=}`).
    PythonBrace,
    /// Rust `format!` syntax (`{}`, `{0}`, `{name:?}`, `{:>8.2}`), as
    /// `format!`, `anyhow!`, `bail!` and thiserror's `#[error]` read it.
    Rust,
    /// Java `java.util.Formatter` (`String.format`: `%s %d %x %f %n %1$s`).
    JavaFormat,
    /// SLF4J / Log4j message patterns (`{}`, `\{}`).
    Slf4j,
    /// Java `java.text.MessageFormat` (`{0}`, `{0,number,#}`, `''`).
    MessageFormat,
    /// C# composite formatting and interpolated strings (`{0,-10:N2}`, `{x}`).
    CSharp,
}

impl Dialect {
    /// Every dialect, in declaration order.
    pub const ALL: &'static [Dialect] = &[
        Dialect::Go,
        Dialect::Plain,
        Dialect::Printf,
        Dialect::Python,
        Dialect::Pattern,
        Dialect::JsFormat,
        Dialect::JsTemplate,
        Dialect::PythonBrace,
        Dialect::Rust,
        Dialect::JavaFormat,
        Dialect::Slf4j,
        Dialect::MessageFormat,
        Dialect::CSharp,
    ];

    /// The dialect's name as users write it (`--dialect`, `dialect = "..."`):
    /// `go`, `plain`, `printf`, `python`, `pattern`, `js-format`,
    /// `js-template`, `python-brace`, `rust`, `java-format`, `slf4j`,
    /// `message-format`, `csharp`.
    pub fn name(self) -> &'static str {
        match self {
            Dialect::Go => "go",
            Dialect::Plain => "plain",
            Dialect::Printf => "printf",
            Dialect::Python => "python",
            Dialect::Pattern => "pattern",
            Dialect::JsFormat => "js-format",
            Dialect::JsTemplate => "js-template",
            Dialect::PythonBrace => "python-brace",
            Dialect::Rust => "rust",
            Dialect::JavaFormat => "java-format",
            Dialect::Slf4j => "slf4j",
            Dialect::MessageFormat => "message-format",
            Dialect::CSharp => "csharp",
        }
    }

    /// The dialect named `name` (see [`Dialect::name`]).
    pub fn from_name(name: &str) -> Option<Dialect> {
        Dialect::ALL.iter().copied().find(|dialect| dialect.name() == name)
    }
}

/// The type of value a placeholder holds.
///
/// The Rust type of a generated field of each kind, the one mapping the
/// `#[catalog]` attribute and `#[derive(Catalog)]` share:
///
/// | kind | type | holds |
/// | --- | --- | --- |
/// | [`Int`](ValueKind::Int) | `i128` | every integer of up to 64 bits, signed or unsigned, of any dialect (Go's `uint64` max, C's `unsigned long long`), Rust's `i128`, and Python's integers within `i128` |
/// | [`Float`](ValueKind::Float) | `f64` | every float printed (a Go `float32` read back from its shortest digits is the nearest `f64`, which renders the same digits) |
/// | [`Bool`](ValueKind::Bool) | `bool` | `true`, `false` |
/// | [`Quoted`](ValueKind::Quoted) | [`ByteString`](crate::ByteString) | the unquoted bytes, UTF-8 or not (Go's `%q` of invalid UTF-8, `"\xc3(ab"`), and a quoted rune (`'⌘'`) as its character |
/// | [`Text`](ValueKind::Text) | `String` | the text the program wrote; a value that a text verb wrote in another form is held as its text (bytes that are not UTF-8 escaped as `\xNN`, a number from Go's `%x` or `%#v` in decimal), so it renders back as text |
///
/// Not representable, so the message falls to the next record that
/// matches (the run-time [`Catalog`](crate::Catalog) keeps the value as a
/// [`Value::BigInt`]): a Python integer beyond `i128` (39 digits and
/// more), which `str % value` prints without bound.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(any(feature = "serde", feature = "cache"), derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
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

impl ValueKind {
    /// The Rust type of a generated field of this kind, as the macros write
    /// it (see the table above).
    ///
    /// ```
    /// assert_eq!(catalog_runtime::ValueKind::Quoted.rust_type(), "ByteString");
    /// ```
    pub fn rust_type(self) -> &'static str {
        match self {
            ValueKind::Int => "i128",
            ValueKind::Float => "f64",
            ValueKind::Bool => "bool",
            ValueKind::Quoted => "ByteString",
            ValueKind::Text => "String",
        }
    }
}

/// The flags of a conversion (`-`, `+`, ` `, `#`, `0` of printf; the
/// alignment, sign and grouping of `str.format` and its kin), each read by
/// its method and set by its `with_` method.
///
/// ```
/// use catalog_runtime::{Dialect, Piece, Template};
///
/// let template = Template::compile("%-8.3f", Dialect::Go).unwrap();
/// let Piece::Value { spec, .. } = &template.pieces[0] else { panic!("a placeholder") };
/// assert!(spec.flags.minus() && !spec.flags.zero());
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(any(feature = "serde", feature = "cache"), derive(serde::Serialize, serde::Deserialize))]
pub struct Flags(u8);

/// Each flag's bit, the method that reads it and the one that sets it.
macro_rules! flag_methods {
    ($($(#[$doc:meta])* $bit:literal => $flag:ident, $with:ident;)*) => {
        impl Flags {
            $(
                $(#[$doc])*
                pub const fn $flag(self) -> bool {
                    self.0 & $bit != 0
                }

                #[doc = concat!("With [`", stringify!($flag), "`](Flags::", stringify!($flag), ").")]
                pub const fn $with(self) -> Flags {
                    Flags(self.0 | $bit)
                }
            )*
        }
    };
}

flag_methods! {
    /// `-`: pad on the right (left alignment).
    1 => minus, with_minus;
    /// `+`: always print a sign (Go's `%+v`: field names too).
    2 => plus, with_plus;
    /// `#`: the alternate form (`0x` prefixes, Go's `%#v` syntax).
    4 => alt, with_alt;
    /// ` `: a space for the sign of positive numbers.
    8 => space, with_space;
    /// `0`: pad with leading zeros.
    16 => zero, with_zero;
    /// `^`: centre in the width (Python's and Rust's alignment).
    32 => center, with_center;
    /// Thousands grouped with `,` (Python's `{:,}`, Java's `%,d`, .NET's `N`).
    64 => grouping, with_grouping;
}

impl Flags {
    /// No flag.
    pub const NONE: Flags = Flags(0);

    /// Without [`zero`](Flags::zero).
    pub const fn without_zero(self) -> Flags {
        Flags(self.0 & !Flags::NONE.with_zero().0)
    }

    /// With the printf flag character `c` (`-`, `+`, ` `, `#`, `0`), which
    /// Go, C, Python's `%` and Java write alike; `None` for another byte.
    pub(crate) const fn with_printf_flag(self, c: u8) -> Option<Flags> {
        Some(match c {
            b'-' => self.with_minus(),
            b'+' => self.with_plus(),
            b' ' => self.with_space(),
            b'#' => self.with_alt(),
            b'0' => self.with_zero(),
            _ => return None,
        })
    }

    /// The flags as one byte, as generated code packs them.
    pub(crate) const fn bits(self) -> u8 {
        self.0
    }

    /// The flags [`bits`](Flags::bits) gave.
    pub(crate) const fn from_bits(bits: u8) -> Flags {
        Flags(bits)
    }
}

/// A width or precision.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(any(feature = "serde", feature = "cache"), derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub enum Count {
    /// Not given.
    #[default]
    None,
    /// A number written in the format.
    Fixed(u16),
    /// `*`: taken from an argument at run time, so unknown here: the
    /// argument before the value's (before the precision's for a width).
    Star,
    /// `*` after an explicit argument index (Go's `%[2]*[1]d`): taken from
    /// call argument `N` (zero-based), which need not be next to the value's.
    Arg(u16),
}

impl Count {
    /// Whether the count is given by an argument: [`Count::Star`] or [`Count::Arg`].
    pub const fn is_star(self) -> bool {
        matches!(self, Count::Star | Count::Arg(_))
    }
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
#[non_exhaustive]
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
#[non_exhaustive]
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

impl AsRef<Template> for Template {
    fn as_ref(&self) -> &Template {
        self
    }
}

impl Template {
    /// Compiles a record's message read in `dialect`.
    ///
    /// [`Dialect::Plain`] makes the whole message one literal;
    /// [`Dialect::Pattern`] reads it as a regex made of literal text and
    /// capture groups (a group becomes a text field, named after the group
    /// when it has a name; a pattern of another shape keeps its regex and
    /// does not render back). Fields are one per distinct call argument,
    /// named `argN` (`N` the zero-based argument index) or after a Python
    /// mapping key.
    ///
    /// ```
    /// use catalog_runtime::{Dialect, Template, Value, ValueKind};
    ///
    /// let template = Template::compile("unable to persist session %q (seq=%v): %v", Dialect::Go).unwrap();
    /// let kinds: Vec<ValueKind> = template.fields.iter().map(|f| f.kind).collect();
    /// assert_eq!(kinds, [ValueKind::Quoted, ValueKind::Text, ValueKind::Text]);
    /// let values = [Value::Str("a \"b\"".into()), Value::Str("3".into()), Value::Str("timeout".into())];
    /// let message = template.render(&values).unwrap();
    /// assert_eq!(message, r#"unable to persist session "a \"b\"" (seq=3): timeout"#);
    /// assert!(Template::compile("bad %", Dialect::Go).is_err());
    /// ```
    pub fn compile(message: &str, dialect: Dialect) -> Result<Template, FormatError> {
        compile(message, dialect)
    }

    /// The message with `values` (indexed like [`Template::fields`]), as the
    /// source program would have written it.
    pub fn render(&self, values: &[Value<'_>]) -> Result<String, RenderError> {
        if values.len() < self.fields.len() {
            return Err(RenderError { fields: self.fields.len(), values: values.len() });
        }
        let mut out = String::new();
        render_template(&mut out, self, values)
            .map_err(|_| RenderError { fields: self.fields.len(), values: values.len() })?;
        Ok(out)
    }

    /// A typical value for each field, to render a sample message: `7`,
    /// `1.5`, `true` or `"sample"` by the field's kind, except for a text
    /// field rendered with different verbs (as an argument used with verbs
    /// of different kinds is, `%v ... %[1]d`), or also used as another
    /// placeholder's `*` count (Go's `%[2]*[1]d %f`), which the word may not
    /// fit: it gets the text `7`, which the formats of numbers and of text can all
    /// write.
    ///
    /// ```
    /// use catalog_runtime::{Dialect, Template};
    /// let template = Template::compile("%d files in %q", Dialect::Go).unwrap();
    /// assert_eq!(template.render(&template.sample_values()).unwrap(), r#"7 files in "sample""#);
    /// ```
    pub fn sample_values(&self) -> Vec<Value<'static>> {
        let verbs = |index: usize| {
            self.pieces.iter().filter_map(move |piece| match piece {
                Piece::Value { field, spec } if usize::from(*field) == index => Some(spec.verb),
                Piece::Value { .. } | Piece::Literal(_) => None,
            })
        };
        (self.fields.iter().enumerate())
            .map(|(index, field)| {
                let first = verbs(index).next();
                let counts_another = || {
                    self.pieces.iter().any(|piece| match piece {
                        Piece::Value { field: other, spec } => {
                            let (width, precision) = render::star_args(self.fields[usize::from(*other)].arg, spec);
                            width == Some(field.arg) || precision == Some(field.arg)
                        }
                        Piece::Literal(_) => false,
                    })
                };
                if field.kind == ValueKind::Text && (verbs(index).any(|verb| Some(verb) != first) || counts_another()) {
                    Value::Str(Cow::Borrowed("7"))
                } else {
                    match field.kind {
                        ValueKind::Int => Value::Int(7),
                        ValueKind::Float => Value::Float(1.5),
                        ValueKind::Bool => Value::Bool(true),
                        ValueKind::Quoted | ValueKind::Text => Value::Str(Cow::Borrowed("sample")),
                    }
                }
            })
            .collect()
    }

    /// How field `field` is first rendered: the spec of the first placeholder
    /// of that field (`None` when no placeholder renders it).
    pub fn first_spec(&self, field: usize) -> Option<Spec> {
        self.pieces.iter().find_map(|piece| match piece {
            Piece::Value { field: f, spec } if usize::from(*f) == field => Some(*spec),
            _ => None,
        })
    }
}

// One module per dialect parses its syntax into pieces and specs
// (`compile`); each language family writes and reads the values (`regex`,
// `render`, `parse`), dispatched by dialect below.
mod csharp;
mod go;
mod java;
mod js;
mod pattern;
mod printf;
mod python_brace;
mod rust_fmt;

mod printf_family;
mod std_family;

// What the dialects and families share.
mod brace;
mod float;
mod integer;
mod opts;
mod python_repr;
mod quote;
mod render;
mod std_spec;
mod template;

#[cfg(test)]
mod tests;

pub(crate) use pattern::{compile_pattern, group_syntaxes, pieces_describe_regex};
pub(crate) use render::{render_partial, render_placeholder, render_template, star_fields};
pub(crate) use template::{is_open_ended, syntax, Syntax};

/// The language family whose rules write and read `dialect`'s values.
enum Family {
    /// Go, C, Python `%`; a pattern's groups and plain text, which hold text
    /// only (`%v`).
    Printf,
    /// JavaScript, Python `str.format`, Rust, Java, C#.
    Std,
}

fn family(dialect: Dialect) -> Family {
    match dialect {
        Dialect::Go | Dialect::Printf | Dialect::Python | Dialect::Pattern | Dialect::Plain => Family::Printf,
        Dialect::JsFormat
        | Dialect::JsTemplate
        | Dialect::PythonBrace
        | Dialect::Rust
        | Dialect::JavaFormat
        | Dialect::Slf4j
        | Dialect::MessageFormat
        | Dialect::CSharp => Family::Std,
    }
}

/// The regex of one placeholder: padding, then one capture group holding
/// only the value.
pub(crate) fn value_regex(spec: &Spec, dialect: Dialect) -> String {
    match family(dialect) {
        Family::Printf => printf_family::regex(spec, dialect),
        Family::Std => std_family::regex(spec, dialect),
    }
}

/// Writes `value` as the placeholder `spec` of `dialect` writes it. Width
/// and precision given as `*` are ignored here (see [`render_template`],
/// which takes them from their fields).
pub(crate) fn render(
    out: &mut dyn std::fmt::Write,
    spec: &Spec,
    dialect: Dialect,
    value: &Value<'_>,
) -> std::fmt::Result {
    match family(dialect) {
        Family::Printf => printf_family::render(out, spec, dialect, value),
        Family::Std => std_family::render(out, spec, dialect, value),
    }
}

/// Reads back the text a placeholder's capture group caught: the inverse of
/// [`render`]. `None` when the text does not parse.
pub(crate) fn parse_value<'a>(kind: ValueKind, spec: &Spec, dialect: Dialect, captured: &'a str) -> Option<Value<'a>> {
    match family(dialect) {
        Family::Printf => printf_family::parse(kind, spec, dialect, captured),
        Family::Std => std_family::parse(kind, spec, dialect, captured),
    }
}

/// A `*` width or precision read back from a placeholder's text (only the
/// printf family has them written as `*`; the others' are read alike).
pub(crate) fn star_value(spec: &Spec, dialect: Dialect, captured: &str, width: bool) -> Value<'static> {
    printf_family::star_value(spec, dialect, captured, width)
}

/// Rendering failed: fewer values than the template has fields.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RenderError {
    /// The template's number of fields.
    pub fields: usize,
    /// The number of values given.
    pub values: usize,
}

impl std::fmt::Display for RenderError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "the message has {} field(s) but {} value(s) were given", self.fields, self.values)
    }
}

impl std::error::Error for RenderError {}

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

/// [`Template::compile`].
pub(crate) fn compile(message: &str, dialect: Dialect) -> Result<Template, FormatError> {
    match dialect {
        Dialect::Go => go::compile(message),
        Dialect::Printf | Dialect::Python => printf::compile(message, dialect),
        Dialect::Plain => {
            let mut builder = template::Builder::new(Dialect::Plain);
            builder.literal(message);
            Ok(builder.finish())
        }
        Dialect::Pattern => compile_pattern(message),
        Dialect::JsFormat => js::compile_format(message),
        Dialect::JsTemplate => js::compile_template(message),
        Dialect::PythonBrace => python_brace::compile(message),
        Dialect::Rust => rust_fmt::compile(message),
        Dialect::JavaFormat => java::compile_format(message),
        Dialect::Slf4j => java::compile_slf4j(message),
        Dialect::MessageFormat => java::compile_message_format(message),
        Dialect::CSharp => csharp::compile(message),
    }
}
