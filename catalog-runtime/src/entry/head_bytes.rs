//! An entry's name and compiled message as [`Catalog::to_bytes`] writes
//! them, read back with their texts borrowed from the program's bytes.
//!
//! Decoding the names and templates of the embedded datasets with serde
//! was most of a start-up: a `String` allocated and copied for every name,
//! literal piece, field name and regex (22 M of 48 M instructions at
//! 11,690 records, measured). Here the
//! texts of a run of entries are one string, checked as UTF-8 once; from
//! bytes that are part of the program (`Catalog::from_static_bytes`) each
//! text is a slice of it, from other bytes a copy.
//!
//! The rest of an entry ("the skeleton") is a sequence of varints
//! (`record_bytes`'s): the name's length, the dialect (its index in
//! [`Dialect::ALL`]), the pieces (a literal: `0` and its length; a value:
//! `1`, its field, verb, flags, width and precision), the fields (name's
//! length, kind, argument), the regex's length, the number of literal
//! characters and the length of the record's bytes. Unlike a record's,
//! this decoder refuses what it does not understand: a template made of
//! damaged bytes would be matched against every line.
//!
//! [`Catalog::to_bytes`]: crate::Catalog::to_bytes

use std::borrow::Cow;
use std::ops::Range;

use super::blob::Blob;
use super::record_bytes::{put_number, take_number};
use crate::format::{Count, Dialect, Field, Flags, Piece, Spec, Template, ValueKind};
use crate::model::Text;

/// The value kinds by their number in the skeleton.
const KINDS: [ValueKind; 5] = [ValueKind::Int, ValueKind::Float, ValueKind::Bool, ValueKind::Quoted, ValueKind::Text];

/// Appends an entry (`name`, `template`, and the length of its record's
/// bytes) to a run's `skeleton` and `texts`.
pub(crate) fn encode(name: &str, template: &Template, record_len: usize, skeleton: &mut Vec<u8>, texts: &mut String) {
    let mut text = |text: &str, skeleton: &mut Vec<u8>| {
        put_number(text.len() as u64, skeleton);
        texts.push_str(text);
    };
    let Template { dialect, pieces, fields, regex, literal_len } = template;
    text(name, skeleton);
    let dialect = Dialect::ALL.iter().position(|known| known == dialect).expect("Dialect::ALL has every dialect");
    put_number(dialect as u64, skeleton);
    put_number(pieces.len() as u64, skeleton);
    for piece in pieces.iter() {
        match piece {
            Piece::Literal(literal) => {
                skeleton.push(0);
                text(literal, skeleton);
            }
            Piece::Value { field, spec: Spec { verb, flags, width, precision } } => {
                skeleton.push(1);
                for number in [u32::from(*field), u32::from(*verb), u32::from(flags.bits())] {
                    put_number(u64::from(number), skeleton);
                }
                put_count(*width, skeleton);
                put_count(*precision, skeleton);
            }
        }
    }
    put_number(fields.len() as u64, skeleton);
    for Field { name, kind, arg } in fields.iter() {
        text(name, skeleton);
        let code = match kind {
            ValueKind::Int => 0,
            ValueKind::Float => 1,
            ValueKind::Bool => 2,
            ValueKind::Quoted => 3,
            ValueKind::Text => 4,
        };
        debug_assert_eq!(KINDS[usize::from(code)], *kind);
        skeleton.push(code);
        put_number(u64::from(*arg), skeleton);
    }
    text(regex, skeleton);
    put_number(u64::from(*literal_len), skeleton);
    put_number(record_len as u64, skeleton);
}

fn put_count(count: Count, skeleton: &mut Vec<u8>) {
    let (tag, n) = match count {
        Count::None => (0, 0),
        Count::Star => (1, 0),
        Count::Fixed(n) => (2, n),
        Count::Arg(n) => (3, n),
    };
    skeleton.push(tag);
    put_number(u64::from(n), skeleton);
}

/// The texts of a run of entries, one after the other, taken in order.
pub(crate) enum Texts<'a> {
    /// Part of the program: each text is borrowed.
    Static(&'static str),
    /// Each text is copied.
    Copied(&'a str),
}

impl Blob {
    /// The texts at `range` of the blob, if they are UTF-8 (checked once
    /// for all): borrowed from bytes that are part of the program, else
    /// copied as they are taken.
    pub(crate) fn texts(&self, range: Range<usize>) -> Option<Texts<'_>> {
        fn text(bytes: &[u8], range: Range<usize>) -> Option<&str> {
            std::str::from_utf8(bytes.get(range)?).ok()
        }
        Some(match self {
            Blob::Static(bytes) => Texts::Static(text(bytes, range)?),
            Blob::Shared(bytes) => Texts::Copied(text(bytes, range)?),
        })
    }
}

impl Texts<'_> {
    /// The next `len` bytes of text; `None` past the end or within a character.
    fn take(&mut self, len: usize) -> Option<Text> {
        match self {
            Texts::Static(rest) => {
                let text = rest.get(..len)?;
                *rest = &rest[len..];
                Some(Cow::Borrowed(text))
            }
            Texts::Copied(rest) => {
                let text = rest.get(..len)?;
                *rest = &rest[len..];
                Some(Cow::Owned(text.to_owned()))
            }
        }
    }

    /// Whether every text was taken.
    pub(crate) fn is_empty(&self) -> bool {
        match self {
            Texts::Static(rest) => rest.is_empty(),
            Texts::Copied(rest) => rest.is_empty(),
        }
    }
}

/// The next entry of a run: its name, its template and the length of its
/// record's bytes, taken from the start of `skeleton` and `texts`; `None`
/// when they do not hold one (see the module's documentation).
pub(crate) fn decode(skeleton: &mut &[u8], texts: &mut Texts) -> Option<(Text, Template, usize)> {
    let text = |skeleton: &mut &[u8], texts: &mut Texts| texts.take(number(skeleton)? as usize);
    let name = text(skeleton, texts)?;
    let dialect = *Dialect::ALL.get(number(skeleton)? as usize)?;
    let count = number(skeleton)? as usize;
    // Every piece takes a byte at least: no count allocates beyond the input.
    let mut pieces = Vec::with_capacity(count.min(skeleton.len()));
    for _ in 0..count {
        pieces.push(match take_byte(skeleton)? {
            0 => Piece::Literal(text(skeleton, texts)?),
            1 => {
                let field = u16::try_from(number(skeleton)?).ok()?;
                let verb = char::from_u32(number(skeleton)?)?;
                let flags = Flags::from_bits(u8::try_from(number(skeleton)?).ok()?);
                let (width, precision) = (take_count(skeleton)?, take_count(skeleton)?);
                Piece::Value { field, spec: Spec { verb, flags, width, precision } }
            }
            _ => return None,
        });
    }
    let count = number(skeleton)? as usize;
    let mut fields = Vec::with_capacity(count.min(skeleton.len()));
    for _ in 0..count {
        let name = text(skeleton, texts)?;
        let kind = *KINDS.get(usize::from(take_byte(skeleton)?))?;
        let arg = u16::try_from(number(skeleton)?).ok()?;
        fields.push(Field { name, kind, arg });
    }
    let regex = text(skeleton, texts)?;
    let literal_len = number(skeleton)?;
    let record_len = number(skeleton)? as usize;
    let template = Template { dialect, pieces: Cow::Owned(pieces), fields: Cow::Owned(fields), regex, literal_len };
    Some((name, template, record_len))
}

/// A varint of at most 32 bits; `None` at the end of the input.
fn number(skeleton: &mut &[u8]) -> Option<u32> {
    if skeleton.is_empty() {
        return None;
    }
    u32::try_from(take_number(skeleton)).ok()
}

fn take_byte(skeleton: &mut &[u8]) -> Option<u8> {
    let (&byte, rest) = skeleton.split_first()?;
    *skeleton = rest;
    Some(byte)
}

fn take_count(skeleton: &mut &[u8]) -> Option<Count> {
    let tag = take_byte(skeleton)?;
    let n = u16::try_from(number(skeleton)?).ok()?;
    Some(match tag {
        0 => Count::None,
        1 => Count::Star,
        2 => Count::Fixed(n),
        3 => Count::Arg(n),
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn templates() -> Vec<Template> {
        let mut templates: Vec<Template> = [
            ("unable to persist session %q (seq=%v): %v", Dialect::Go),
            ("%-8.3f|%*d|%[2]*[1]d|%+#x %t", Dialect::Go),
            ("caf\u{e9} {name!r:>10} {0}", Dialect::PythonBrace),
            ("no placeholder", Dialect::Plain),
            (r"closed (\d+) after (.*?)$", Dialect::Pattern),
        ]
        .into_iter()
        .map(|(message, dialect)| Template::compile(message, dialect).unwrap())
        .collect();
        templates.push(Template::compile("", Dialect::Plain).unwrap());
        templates
    }

    fn encoded() -> (Vec<u8>, String) {
        let (mut skeleton, mut texts) = (Vec::new(), String::new());
        for (number, template) in templates().iter().enumerate() {
            encode(&format!("Name{number}"), template, number * 1000, &mut skeleton, &mut texts);
        }
        (skeleton, texts)
    }

    #[test]
    fn entries_read_back_as_written_borrowed_or_copied() {
        let (skeleton, texts) = encoded();
        let leaked: &'static str = Box::leak(texts.clone().into_boxed_str());
        for mut from in [Texts::Static(leaked), Texts::Copied(&texts)] {
            let mut rest = &skeleton[..];
            for (number, template) in templates().into_iter().enumerate() {
                let (name, decoded, len) = decode(&mut rest, &mut from).unwrap();
                assert_eq!((name.as_ref(), &decoded, len), (&*format!("Name{number}"), &template, number * 1000));
                let borrowed = matches!(decoded.regex, Cow::Borrowed(_));
                assert_eq!(borrowed, matches!(from, Texts::Static(_)), "{number}");
            }
            assert!(rest.is_empty() && from.is_empty());
        }
    }

    #[test]
    fn damaged_bytes_give_none_or_an_entry_never_a_panic() {
        let (skeleton, texts) = encoded();
        let read_all = |skeleton: &[u8], texts: &str| {
            let (mut rest, mut texts) = (skeleton, Texts::Copied(texts));
            while !rest.is_empty() && decode(&mut rest, &mut texts).is_some() {}
        };
        for len in 0..skeleton.len() {
            read_all(&skeleton[..len], &texts);
        }
        for at in 0..skeleton.len() {
            for flip in [0x01, 0x80, 0xff] {
                let mut flipped = skeleton.clone();
                flipped[at] ^= flip;
                read_all(&flipped, &texts);
            }
        }
        // Texts too short, or cut within a character.
        read_all(&skeleton, &texts[..texts.len() / 2]);
        assert!(decode(&mut &[6][..], &mut Texts::Copied("Name0\u{e9}")).is_none());
        assert!(decode(&mut &[0xff; 16][..], &mut Texts::Copied("")).is_none());
    }
}
