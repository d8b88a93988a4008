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

    /// Records a `*` width or precision taken from call argument `arg`: an
    /// integer field, which rendering uses as the count (and parsing reads
    /// back from the text's length; see `star_value`).
    pub(super) fn star(&mut self, arg: u16) {
        if !self.fields.iter().any(|field| field.arg == arg) {
            self.fields.push(Field { name: Cow::Owned(format!("arg{arg}")), kind: ValueKind::Int, arg });
        }
    }

    /// Drops the `*` count fields that no placeholder renders nor uses as
    /// its width or precision (a C `%*d` whose star argument is another
    /// placeholder's text field): their count is not known from the text.
    fn drop_unused_stars(&mut self) {
        let mut used = vec![false; self.fields.len()];
        let field_of =
            |arg: Option<u16>| self.fields.iter().position(|f| Some(f.arg) == arg && f.kind == ValueKind::Int);
        for piece in &self.pieces {
            let Piece::Value { field, spec } = piece else { continue };
            used[usize::from(*field)] = true;
            let (width, precision) = super::render::star_args(self.fields[usize::from(*field)].arg, spec);
            for star in [width, precision].into_iter().flatten().filter_map(|arg| field_of(Some(arg))) {
                used[star] = true;
            }
        }
        if used.iter().all(|&u| u) {
            return;
        }
        let mut new_index = Vec::with_capacity(used.len());
        let mut next = 0u16;
        for &u in &used {
            new_index.push(next);
            next += u16::from(u);
        }
        let mut index = 0;
        self.fields.retain(|_| {
            index += 1;
            used[index - 1]
        });
        for piece in &mut self.pieces {
            if let Piece::Value { field, .. } = piece {
                *field = new_index[usize::from(*field)];
            }
        }
    }

    fn flush(&mut self) {
        if !self.pending.is_empty() {
            self.pieces.push(Piece::Literal(Cow::Owned(std::mem::take(&mut self.pending))));
        }
    }

    /// The template, with its regex built from the pieces.
    pub(super) fn finish(mut self) -> Template {
        self.flush();
        self.drop_unused_stars();
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

/// Go `%q` output: a string (`strconv.Quote`), or a rune literal
/// (`strconv.QuoteRune`, `%q` of an integer).
pub(super) const QUOTED: &str = concat!(
    r#""(?:[^"\\\n]|\\(?:[abfnrtv\\'"]|x[0-9a-fA-F]{2}|u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8}|[0-7]{3}))*""#,
    r#"|'(?:[^'\\\n]|\\(?:[abfnrtv\\'"]|x[0-9a-fA-F]{2}|u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8}|[0-7]{3}))'"#
);
/// A Go raw string as `%#q` writes it (`strconv.CanBackquote`).
const BACKQUOTED: &str = r"`[^`\x00-\x08\n-\x1f\x7f\x{feff}]*`";
const GO_FLOAT: &str = r"[-+ ]?(?:[0-9]+(?:\.[0-9]*)?(?:[eE][-+]?[0-9]+)?|Inf|NaN)";
/// Python pads `inf` and `nan` with zeros (`%010f`), C does not.
const C_FLOAT: &str = r"[-+ ]?(?:[0-9]+(?:\.[0-9]*)?(?:[eE][-+]?[0-9]+)?|0*(?:inf|nan|INF|NAN))";
const C_HEX_FLOAT: &str = r"[-+ ]?(?:0[xX][0-9a-fA-F]+(?:\.[0-9a-fA-F]*)?[pP][-+]?[0-9]+|inf|nan|INF|NAN)";
/// Any text, even none (`%s` of an empty string writes nothing).
const TEXT: &str = ".*?";
const INTEGER: &str = "[-+ ]?[0-9]+";

/// The syntax of a placeholder's regex, for matchers that do without the
/// regex (see `crate::matcher::literal_match`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Syntax {
    /// `(.*?)`: any text, as short as lets the rest match.
    Lazy,
    /// `(.+?)`: like [`Syntax::Lazy`], but at least one character (a
    /// pattern's group; see `pattern::group_syntaxes`).
    LazyNonEmpty,
    /// `([-+ ]?[0-9]+)`: a decimal integer, as long as it goes.
    Integer,
    /// `(\d+)`: a pattern's digits, as many as there are (`\d` is any
    /// Unicode decimal digit; see `literal_match` for how others are handled).
    Digits,
    /// A Go-quoted string or rune (`%q`), which ends at its first unescaped quote.
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

/// Whether the placeholder's regex is lazy text (`.*?`), which takes as
/// little as it can: at the end of a message it must run to the end of the
/// line. Other placeholders (numbers, quoted strings, booleans, hex...) end
/// by themselves.
pub(crate) fn is_open_ended(spec: &Spec, dialect: Dialect) -> bool {
    value_regex(spec, dialect).contains("*?")
}

/// The regex of one placeholder: padding, then one capture group holding
/// only the value. Padding is `" *"` on the left (right with `-`), on both
/// sides for a `*` width (inside the group: the width is read back from the
/// padded text), and `"0*"` for Go non-numbers padded with `0`. The dialects
/// of other languages have their own forms (`value_forms`).
pub(crate) fn value_regex(spec: &Spec, dialect: Dialect) -> String {
    if let Some(regex) = super::value_forms::regex(spec, dialect) {
        return regex;
    }
    let inner = inner_regex(spec, dialect);
    if spec.width.is_star() {
        return format!("( *(?:{inner}) *)");
    }
    let flags = spec.flags;
    let go = dialect == Dialect::Go;
    let (left, right) = match spec.width {
        Count::None | Count::Fixed(0) => ("", ""),
        Count::Star | Count::Arg(_) => unreachable!("returned above"),
        Count::Fixed(_) if flags.has(Flags::MINUS) => ("", " *"),
        // Go pads text with zeros too: inside the capture for text verbs
        // (`%05v` of 0 is `00000`), outside for quoted strings, booleans and characters.
        Count::Fixed(_) if go && flags.has(Flags::ZERO) && matches!(spec.verb, 'q' | 't' | 'c') => ("0*", ""),
        Count::Fixed(_) => (" *", ""),
    };
    format!("{left}({inner}){right}")
}

fn inner_regex(spec: &Spec, dialect: Dialect) -> Cow<'static, str> {
    let flags = spec.flags;
    let go = dialect == Dialect::Go;
    let int = |digits: &str| -> Cow<'static, str> {
        if spec.precision == Count::Fixed(0) && go {
            // Go's `%.0d` of zero writes nothing.
            format!("(?:[-+ ]?{digits})?").into()
        } else if spec.precision == Count::Fixed(0) {
            // C's writes only the sign its flags ask for.
            format!("[-+ ]?(?:{digits})?").into()
        } else {
            format!("[-+ ]?{digits}").into()
        }
    };
    let go_hex = |upper: bool| -> Cow<'static, str> {
        let (prefix, digit, p) = if upper { ("0X", "[0-9A-F]", "P") } else { ("0x", "[0-9a-f]", "p") };
        // Integers, bytes (spaced with ` `, `0x` padded with zeros before
        // it), hex floats; an empty string writes nothing.
        let group = if flags.has(Flags::SPACE) { format!("(?: (?:{prefix})?{digit}+)*") } else { String::new() };
        format!("(?:[-+ ]?0*(?:{prefix})?{digit}+{group}(?:\\.{digit}*)?(?:{p}[-+][0-9]+)?|[-+ ]?(?:Inf|NaN))?").into()
    };
    let c_hex = |upper: bool| {
        let (prefix, digit) = if upper { ("(?:0X)?", "[0-9A-F]+") } else { ("(?:0x)?", "[0-9a-f]+") };
        int(&format!("{prefix}{digit}"))
    };
    match (dialect, spec.verb) {
        (Dialect::Printf | Dialect::Python, verb) => match verb {
            'd' | 'i' | 'u' => int("[0-9]+"),
            'o' => int(r"(?:0o)?[0-7]+"),
            'x' | 'X' => c_hex(verb == 'X'),
            'c' => ".".into(),
            'f' | 'F' | 'e' | 'E' | 'g' | 'G' => C_FLOAT.into(),
            'A' => C_HEX_FLOAT.into(),
            'a' if dialect == Dialect::Printf => C_HEX_FLOAT.into(),
            _ => TEXT.into(),
        },
        (_, verb) => match verb {
            'd' if spec.precision == Count::Fixed(0) => int("[0-9]+"),
            'd' => INTEGER.into(),
            // `%b` of a float: `4503599627370496p-52`.
            'b' => format!("{}|[-+ ]?[0-9]+p[-+][0-9]+|[-+ ]?(?:Inf|NaN)", int("(?:0b)?[01]+")).into(),
            'o' => int("[0-7]+"),
            'O' => int("0o[0-7]+"),
            'x' | 'X' => go_hex(verb == 'X'),
            'c' => ".".into(),
            'U' if flags.has(Flags::SHARP) => r"U\+[0-9A-F]+(?: '.')?".into(),
            'U' => r"U\+[0-9A-F]+".into(),
            'e' | 'E' | 'f' | 'F' | 'g' | 'G' => GO_FLOAT.into(),
            't' => "true|false".into(),
            'q' if flags.has(Flags::SHARP) => format!("{QUOTED}|{BACKQUOTED}").into(),
            'q' => QUOTED.into(),
            _ => TEXT.into(),
        },
    }
}
