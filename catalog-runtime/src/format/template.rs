//! Assembling a [`Template`] from parsed pieces, and the regex of each value.

use std::borrow::Cow;

use super::{value_regex, Dialect, Field, Piece, Spec, Template, ValueKind};

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
/// Any text, even none (`%s` of an empty string writes nothing).
pub(super) const TEXT: &str = ".*?";
pub(super) const INTEGER: &str = "[-+ ]?[0-9]+";

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
