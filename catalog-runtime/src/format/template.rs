//! Assembling a [`Template`] from parsed pieces, and the regex of each value.

use std::borrow::Cow;

use super::{Count, Dialect, Field, Flags, Piece, Spec, Template, ValueKind};

/// Collects literal text and placeholders, then builds the [`Template`].
pub(super) struct Builder {
    dialect: Dialect,
    pieces: Vec<Piece>,
    fields: Vec<Field>,
    pending: String,
    literal_len: u32,
}

impl Builder {
    pub(super) fn new(dialect: Dialect) -> Self {
        Builder { dialect, pieces: Vec::new(), fields: Vec::new(), pending: String::new(), literal_len: 0 }
    }

    /// Appends literal text (merged with adjacent literal text).
    pub(super) fn literal(&mut self, text: &str) {
        self.pending.push_str(text);
        let chars = u32::try_from(text.chars().count()).unwrap_or(u32::MAX);
        self.literal_len = self.literal_len.saturating_add(chars);
    }

    /// Appends a placeholder for call argument `arg`, named `name` or `argN`.
    /// An argument used with verbs of different kinds becomes [`ValueKind::Text`].
    pub(super) fn value(&mut self, arg: u16, name: Option<&str>, spec: Spec, kind: ValueKind) {
        self.flush();
        let field = match self.fields.iter().position(|field| field.arg == arg) {
            Some(index) => {
                let field = &mut self.fields[index];
                if field.kind != kind {
                    field.kind = ValueKind::Text;
                }
                index
            }
            None => {
                let name = name.map_or_else(|| format!("arg{arg}"), str::to_owned);
                self.fields.push(Field { name: Cow::Owned(name), kind, arg });
                self.fields.len() - 1
            }
        };
        // At most one field per u16 argument index, so this fits.
        let field = u16::try_from(field).unwrap_or(u16::MAX);
        self.pieces.push(Piece::Value { field, spec });
    }

    fn flush(&mut self) {
        if !self.pending.is_empty() {
            self.pieces.push(Piece::Literal(Cow::Owned(std::mem::take(&mut self.pending))));
        }
    }

    /// The template, with its regex built from the pieces.
    pub(super) fn finish(mut self) -> Template {
        self.flush();
        let mut regex = String::new();
        for piece in &self.pieces {
            match piece {
                Piece::Literal(text) => regex.push_str(&regex::escape(text)),
                Piece::Value { spec, .. } => regex.push_str(&value_regex(spec, self.dialect)),
            }
        }
        Template {
            dialect: self.dialect,
            pieces: Cow::Owned(self.pieces),
            fields: Cow::Owned(self.fields),
            regex: Cow::Owned(regex),
            literal_len: self.literal_len,
        }
    }
}

/// Go `%q` output (`strconv.Quote`).
pub(super) const QUOTED: &str =
    r#""(?:[^"\\\n]|\\(?:[abfnrtv\\'"]|x[0-9a-fA-F]{2}|u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8}|[0-7]{3}))*""#;
/// A Go raw string as `%#q` writes it (`strconv.CanBackquote`).
const BACKQUOTED: &str = r"`[^`\x00-\x08\n-\x1f\x7f\x{feff}]*`";
const GO_FLOAT: &str = r"[-+ ]?(?:[0-9]+(?:\.[0-9]*)?(?:[eE][-+]?[0-9]+)?|Inf|NaN)";
const C_FLOAT: &str = r"[-+ ]?(?:[0-9]+(?:\.[0-9]*)?(?:[eE][-+]?[0-9]+)?|inf|nan|INF|NAN)";
const C_HEX_FLOAT: &str = r"[-+ ]?(?:0[xX][0-9a-fA-F]+(?:\.[0-9a-fA-F]*)?[pP][-+]?[0-9]+|inf|nan|INF|NAN)";
const TEXT: &str = ".+?";
const INTEGER: &str = "[-+ ]?[0-9]+";

/// The syntax of a placeholder's regex, for matchers that do without the
/// regex (see `crate::matcher::literal_match`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Syntax {
    /// `(.+?)`: any text, as short as lets the rest match.
    Lazy,
    /// `([-+ ]?[0-9]+)`: a decimal integer, as long as it goes.
    Integer,
    /// A Go-quoted string (`%q`), which ends at its first unescaped quote.
    Quoted,
    /// Anything else.
    Other,
}

/// The syntax of the placeholder `spec`. It is read off the regex itself, so
/// that the two can never disagree.
pub(crate) fn syntax(spec: &Spec, dialect: Dialect) -> Syntax {
    let regex = value_regex(spec, dialect);
    match regex.strip_prefix('(').and_then(|inner| inner.strip_suffix(')')) {
        Some(TEXT) => Syntax::Lazy,
        Some(INTEGER) => Syntax::Integer,
        Some(QUOTED) => Syntax::Quoted,
        _ => Syntax::Other,
    }
}

/// The regex of one placeholder: padding, then one capture group holding
/// only the value. Padding is `" *"` on the left (right with `-`), on both
/// sides for a `*` width, and `"0*"` for Go non-numbers padded with `0`.
pub(super) fn value_regex(spec: &Spec, dialect: Dialect) -> String {
    if let Some(regex) = super::value_forms::regex(spec, dialect) {
        return regex;
    }
    let inner = inner_regex(spec, dialect);
    let flags = spec.flags;
    let go = !matches!(dialect, Dialect::Printf | Dialect::Python);
    let (left, right) = match spec.width {
        Count::None | Count::Fixed(0) => ("", ""),
        Count::Star => (" *", " *"),
        Count::Fixed(_) if flags.has(Flags::MINUS) => ("", " *"),
        Count::Fixed(_) if go && flags.has(Flags::ZERO) && !is_go_number(spec.verb) => ("0*", ""),
        Count::Fixed(_) => (" *", ""),
    };
    format!("{left}({inner}){right}")
}

/// Go verbs whose `0` flag pads inside the number (after the sign), or not
/// at all (`%U`).
fn is_go_number(verb: char) -> bool {
    "dboOxXeEfFgGU".contains(verb)
}

fn inner_regex(spec: &Spec, dialect: Dialect) -> Cow<'static, str> {
    let flags = spec.flags;
    let int = |digits: &str| -> Cow<'static, str> {
        if spec.precision == Count::Fixed(0) {
            // `%.0d` of zero writes nothing.
            format!("(?:{digits})?").into()
        } else {
            Cow::Owned(digits.to_owned())
        }
    };
    let hex = |upper: bool| {
        let (prefix, digit) = if upper { ("(?:0X)?", "[0-9A-F]+") } else { ("(?:0x)?", "[0-9a-f]+") };
        if flags.has(Flags::SPACE) && dialect == Dialect::Go {
            int(&format!("[-+ ]?{prefix}{digit}(?: {prefix}{digit})*"))
        } else {
            int(&format!("[-+ ]?{prefix}{digit}"))
        }
    };
    // Text cut to no characters (`%.0s`) writes nothing, at least for
    // strings (Go's `%.0v` of a number still writes it).
    let text = || if spec.precision == Count::Fixed(0) { ".*?".into() } else { TEXT.into() };
    match (dialect, spec.verb) {
        (Dialect::Printf | Dialect::Python, verb) => match verb {
            'd' | 'i' | 'u' => int(INTEGER),
            'o' => int(r"[-+ ]?(?:0o)?[0-7]+"),
            'x' | 'X' => hex(verb == 'X'),
            'c' => ".".into(),
            'f' | 'F' | 'e' | 'E' | 'g' | 'G' => C_FLOAT.into(),
            'A' => C_HEX_FLOAT.into(),
            'a' if dialect == Dialect::Printf => C_HEX_FLOAT.into(),
            _ => text(),
        },
        (_, verb) => match verb {
            'd' => int(INTEGER),
            'b' => int(r"[-+ ]?(?:0b)?[01]+"),
            'o' => int(r"[-+ ]?[0-7]+"),
            'O' => int(r"[-+ ]?0o[0-7]+"),
            'x' | 'X' => hex(verb == 'X'),
            'c' => ".".into(),
            'U' if flags.has(Flags::SHARP) => r"U\+[0-9A-F]+(?: '.')?".into(),
            'U' => r"U\+[0-9A-F]+".into(),
            'e' | 'E' | 'f' | 'F' | 'g' | 'G' => GO_FLOAT.into(),
            't' => "true|false".into(),
            'q' if flags.has(Flags::SHARP) => format!("{QUOTED}|{BACKQUOTED}").into(),
            'q' => QUOTED.into(),
            _ => text(),
        },
    }
}
