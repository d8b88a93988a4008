//! Entry packed into one string for generated code. Not public API.
//!
//! The macro writes every record's metadata into a single string literal
//! ([`encode`]) and the generated enum unpacks it on first use ([`decode`]),
//! borrowing every string from the literal. A literal costs rustc almost
//! nothing per byte, where one `const` item per record cost it seconds per
//! thousand records (type checking and const evaluation of every item).
//!
//! The format is a sequence of values, each self-delimiting:
//! - a string is its length in bytes, `:`, then its bytes (`5:hello`);
//! - a number is its decimal digits then `;` (`42;`);
//! - a missing optional value is `-`;
//! - a list is its length as a number, then its items;
//! - a tagged value starts with one ASCII letter.

use std::borrow::Cow::{self, Borrowed};

use crate::entry::Entry;
use crate::format::{Count, Dialect, Field, Flags, Piece, Spec, Template, Text, ValueKind};
use crate::model::{with_record_schema, ErrorType, HandlingStrategy, Record, Severity, TextList};

/// Packs the metadata of every entry, in order.
pub fn encode<'a>(entries: impl IntoIterator<Item = &'a Entry>) -> String {
    let mut out = Writer(String::new());
    for metadata in entries {
        out.str(&metadata.name);
        out.record(metadata.record());
        out.template(&metadata.template);
    }
    out.0
}

/// Unpacks what [`encode`] packed: `count` entries.
///
/// # Panics
///
/// When `packed` is not the output of [`encode`] for `count` entries (generated
/// code always passes both from the same macro run).
pub fn decode(packed: &'static str, count: usize) -> Vec<Entry> {
    let mut input = Reader { text: packed, at: 0 };
    let mut entries = Vec::with_capacity(count);
    for _ in 0..count {
        let name = input.str();
        let record = input.record();
        let template = input.template();
        entries.push(Entry::new(name, record, template));
    }
    assert_eq!(input.at, packed.len(), "packed metadata has trailing data");
    entries
}

struct Writer(String);

impl Writer {
    fn str(&mut self, text: &str) {
        self.digits(text.len() as u64, b':');
        self.0.push_str(text);
    }

    fn number(&mut self, n: impl Into<u64>) {
        self.digits(n.into(), b';');
    }

    /// `n` in decimal, then `end`. By hand rather than with `write!`: the
    /// macro packs tens of thousands of numbers, unoptimised in a user's
    /// debug build, where the formatting machinery costs hundreds of
    /// instructions a number.
    fn digits(&mut self, mut n: u64, end: u8) {
        let mut buffer = [0u8; 21];
        let mut at = buffer.len() - 1;
        buffer[at] = end;
        loop {
            at -= 1;
            buffer[at] = b'0' + (n % 10) as u8;
            n /= 10;
            if n == 0 {
                break;
            }
        }
        // ASCII digits and an ASCII delimiter.
        self.0.push_str(std::str::from_utf8(&buffer[at..]).unwrap_or_default());
    }

    fn option<T>(&mut self, value: Option<T>, some: impl FnOnce(&mut Self, T)) {
        match value {
            Some(value) => some(self, value),
            None => self.0.push('-'),
        }
    }

    fn tag(&mut self, tag: char) {
        self.0.push(tag);
    }

    fn list(&mut self, items: &[Text]) {
        self.number(items.len() as u64);
        for item in items {
            self.str(item);
        }
    }

    fn record(&mut self, record: &Record) {
        record.pack(self);
    }

    fn count(&mut self, count: Count) {
        match count {
            Count::None => self.tag('n'),
            Count::Star => self.tag('s'),
            Count::Arg(n) => {
                self.tag('a');
                self.number(n);
            }
            Count::Fixed(n) => {
                self.tag('f');
                self.number(n);
            }
        }
    }

    fn template(&mut self, template: &Template) {
        let Template { dialect, pieces, fields, regex, literal_len } = template;
        self.tag(match dialect {
            Dialect::Go => 'g',
            Dialect::Plain => 'l',
            Dialect::Printf => 'c',
            Dialect::Python => 'y',
            Dialect::Pattern => 'p',
            Dialect::JsFormat => 'j',
            Dialect::JsTemplate => 't',
            Dialect::PythonBrace => 'b',
            Dialect::Rust => 'r',
            Dialect::JavaFormat => 'v',
            Dialect::Slf4j => 's',
            Dialect::MessageFormat => 'm',
            Dialect::CSharp => 'n',
        });
        self.number(pieces.len() as u64);
        for piece in pieces.iter() {
            match piece {
                Piece::Literal(text) => {
                    self.tag('l');
                    self.str(text);
                }
                Piece::Value { field, spec: Spec { verb, flags, width, precision } } => {
                    self.tag('v');
                    self.number(*field);
                    self.number(u32::from(*verb));
                    self.number(flags.bits());
                    self.count(*width);
                    self.count(*precision);
                }
            }
        }
        self.number(fields.len() as u64);
        for Field { name, kind, arg } in fields.iter() {
            self.str(name);
            self.tag(match kind {
                ValueKind::Int => 'i',
                ValueKind::Float => 'f',
                ValueKind::Bool => 'b',
                ValueKind::Quoted => 'q',
                ValueKind::Text => 't',
            });
            self.number(*arg);
        }
        self.str(regex);
        self.number(*literal_len);
    }
}

struct Reader {
    text: &'static str,
    at: usize,
}

const BAD: &str = "packed metadata is malformed";

impl Reader {
    fn tag(&mut self) -> u8 {
        let tag = *self.text.as_bytes().get(self.at).expect(BAD);
        self.at += 1;
        tag
    }

    fn digits(&mut self, end: u8) -> u64 {
        let bytes = self.text.as_bytes();
        let mut n: u64 = 0;
        loop {
            let byte = *bytes.get(self.at).expect(BAD);
            self.at += 1;
            if byte == end {
                return n;
            }
            assert!(byte.is_ascii_digit(), "{BAD}");
            n = n.checked_mul(10).and_then(|n| n.checked_add(u64::from(byte - b'0'))).expect(BAD);
        }
    }

    fn number<T: TryFrom<u64>>(&mut self) -> T {
        T::try_from(self.digits(b';')).ok().expect(BAD)
    }

    fn str(&mut self) -> Text {
        let len = usize::try_from(self.digits(b':')).expect(BAD);
        let text = self.text.get(self.at..self.at + len).expect(BAD);
        self.at += len;
        Borrowed(text)
    }

    fn is_none(&mut self) -> bool {
        let none = self.text.as_bytes().get(self.at) == Some(&b'-');
        self.at += usize::from(none);
        none
    }

    fn option<T>(&mut self, some: impl FnOnce(&mut Self) -> T) -> Option<T> {
        if self.is_none() {
            None
        } else {
            Some(some(self))
        }
    }

    fn list(&mut self) -> TextList {
        let len: usize = self.number();
        if len == 0 {
            return Borrowed(&[]);
        }
        Cow::Owned((0..len).map(|_| self.str()).collect())
    }

    fn record(&mut self) -> Record {
        Record::unpack(self)
    }

    fn count(&mut self) -> Count {
        match self.tag() {
            b'n' => Count::None,
            b's' => Count::Star,
            b'a' => Count::Arg(self.number()),
            b'f' => Count::Fixed(self.number()),
            _ => panic!("{BAD}"),
        }
    }

    fn template(&mut self) -> Template {
        let dialect = match self.tag() {
            b'g' => Dialect::Go,
            b'l' => Dialect::Plain,
            b'c' => Dialect::Printf,
            b'y' => Dialect::Python,
            b'p' => Dialect::Pattern,
            b'j' => Dialect::JsFormat,
            b't' => Dialect::JsTemplate,
            b'b' => Dialect::PythonBrace,
            b'r' => Dialect::Rust,
            b'v' => Dialect::JavaFormat,
            b's' => Dialect::Slf4j,
            b'm' => Dialect::MessageFormat,
            b'n' => Dialect::CSharp,
            _ => panic!("{BAD}"),
        };
        let pieces: usize = self.number();
        let pieces: Vec<Piece> = (0..pieces)
            .map(|_| match self.tag() {
                b'l' => Piece::Literal(self.str()),
                b'v' => {
                    let field = self.number();
                    let verb = char::from_u32(self.number()).expect(BAD);
                    let flags = Flags::from_bits(self.number());
                    let (width, precision) = (self.count(), self.count());
                    Piece::Value { field, spec: Spec { verb, flags, width, precision } }
                }
                _ => panic!("{BAD}"),
            })
            .collect();
        let fields: usize = self.number();
        let fields: Vec<Field> = (0..fields)
            .map(|_| {
                let name = self.str();
                let kind = match self.tag() {
                    b'i' => ValueKind::Int,
                    b'f' => ValueKind::Float,
                    b'b' => ValueKind::Bool,
                    b'q' => ValueKind::Quoted,
                    b't' => ValueKind::Text,
                    _ => panic!("{BAD}"),
                };
                Field { name, kind, arg: self.number() }
            })
            .collect();
        let regex = self.str();
        let literal_len = self.number();
        Template { dialect, pieces: Cow::Owned(pieces), fields: Cow::Owned(fields), regex, literal_len }
    }
}

/// A record field's type in the packed form.
trait Pack: Sized {
    fn pack(&self, out: &mut Writer);
    fn unpack(input: &mut Reader) -> Self;
}

// Every field of the schema, in schema order.
macro_rules! pack_record {
    ($($(#[doc = $doc:literal])* $field:ident: $ty:ty = $key:literal,)*) => {
        impl Pack for Record {
            fn pack(&self, out: &mut Writer) {
                $(Pack::pack(&self.$field, out);)*
            }

            fn unpack(input: &mut Reader) -> Self {
                Record { $($field: <$ty as Pack>::unpack(input),)* }
            }
        }
    };
}
with_record_schema!(pack_record);

impl Pack for Text {
    fn pack(&self, out: &mut Writer) {
        out.str(self);
    }

    fn unpack(input: &mut Reader) -> Self {
        input.str()
    }
}

impl Pack for TextList {
    fn pack(&self, out: &mut Writer) {
        out.list(self);
    }

    fn unpack(input: &mut Reader) -> Self {
        input.list()
    }
}

impl<T: Pack> Pack for Option<T> {
    fn pack(&self, out: &mut Writer) {
        out.option(self.as_ref(), |out, value| value.pack(out));
    }

    fn unpack(input: &mut Reader) -> Self {
        input.option(T::unpack)
    }
}

macro_rules! pack_number {
    ($($ty:ty),*) => {$(
        impl Pack for $ty {
            fn pack(&self, out: &mut Writer) {
                out.number(*self);
            }

            fn unpack(input: &mut Reader) -> Self {
                input.number()
            }
        }
    )*};
}
pack_number!(u16, u32);

/// `k` and the text of a known variant, `o` and the text of `Other`.
macro_rules! pack_open_enum {
    ($($ty:ident),*) => {$(
        impl Pack for $ty {
            fn pack(&self, out: &mut Writer) {
                out.tag(if self.variant_name().is_some() { 'k' } else { 'o' });
                out.str(self.as_str());
            }

            fn unpack(input: &mut Reader) -> Self {
                match input.tag() {
                    b'k' => $ty::from_text(&input.str()),
                    b'o' => $ty::Other(input.str()),
                    _ => panic!("{BAD}"),
                }
            }
        }
    )*};
}
pack_open_enum!(ErrorType, Severity, HandlingStrategy);

#[cfg(test)]
mod tests {
    use super::*;

    fn leak(text: String) -> &'static str {
        Box::leak(text.into_boxed_str())
    }

    fn sample() -> Vec<Entry> {
        let mut full = Record::new("id1", "a %q %-5.*d");
        full.repo = Borrowed("o/r");
        full.slug = Borrowed("a-q");
        full.file_path = Borrowed("x.go");
        full.documentation = Borrowed("docs: 1:2; -x \u{e9}\n");
        full.message_pattern = Some(Borrowed("a (.+?)"));
        full.dataset_version = Some(Borrowed(""));
        full.error_code = Some(Borrowed("E1"));
        full.line_number = Some(3);
        full.schema_version = Some(0);
        full.source_code_end = Some(u32::MAX);
        full.http_status = Some(500);
        full.solutions = Cow::Owned(vec![Borrowed("fix it"), Borrowed("")]);
        full.tags = Cow::Owned(vec![Borrowed("t")]);
        full.error_type = Some(ErrorType::Log);
        full.severity = Some(Severity::Other(Borrowed("odd")));
        full.handling_strategy = Some(HandlingStrategy::Retry);
        let template = Template {
            dialect: Dialect::Go,
            pieces: Cow::Owned(vec![
                Piece::Literal(Borrowed("a ")),
                Piece::Value {
                    field: 0,
                    spec: Spec { verb: 'q', flags: Flags::NONE, width: Count::None, precision: Count::None },
                },
                Piece::Value {
                    field: 1,
                    spec: Spec {
                        verb: '\u{e9}',
                        flags: Flags::NONE.with_minus(),
                        width: Count::Fixed(5),
                        precision: Count::Star,
                    },
                },
            ]),
            fields: Cow::Owned(vec![
                Field { name: Borrowed("x"), kind: ValueKind::Quoted, arg: 0 },
                Field { name: Borrowed("n"), kind: ValueKind::Int, arg: 2 },
            ]),
            regex: Borrowed("a (\"...\") (\\d+)"),
            literal_len: 2,
        };
        let empty = Template {
            dialect: Dialect::Pattern,
            pieces: Borrowed(&[]),
            fields: Borrowed(&[]),
            regex: Borrowed(""),
            literal_len: 0,
        };
        vec![Entry::new(Borrowed("Full"), full, template), Entry::new(Borrowed("Empty"), Record::new("", ""), empty)]
    }

    #[test]
    fn decoding_gives_back_what_was_encoded() {
        let entries = sample();
        let packed = leak(encode(&entries));
        assert_eq!(decode(packed, entries.len()), entries);
        assert!(decode(leak(encode(&[])), 0).is_empty());
    }

    #[test]
    fn decoded_text_borrows_from_the_packed_string() {
        let entries = sample();
        let packed = leak(encode(&entries));
        let decoded = decode(packed, entries.len());
        assert!(matches!(decoded[0].record().documentation, Borrowed(_)));
        assert!(matches!(decoded[0].record().severity, Some(Severity::Other(Borrowed(_)))));
    }

    #[test]
    #[should_panic(expected = "malformed")]
    fn a_wrong_count_is_caught() {
        let entries = sample();
        decode(leak(encode(&entries)), entries.len() + 1);
    }
}
