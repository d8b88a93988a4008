//! A record as the cache file holds it, and the record decoded from those
//! bytes on first use ([`CachedRecord`]).
//!
//! Decoding every record of a cache hit was half of a cached start-up
//! (measured: 48 M of 100 M instructions at 5,110 records), and most runs
//! read a few records. The decoder is total: any bytes give a record
//! (lengths are clamped to what is left, text that is not UTF-8 is
//! replaced, a missing value is empty), so that [`CachedRecord::get`]
//! cannot fail without a pass over every record at load. The file's
//! checksum makes the bytes the ones this version wrote; totality is what
//! makes a change it missed harmless.
//!
//! The layout is the schema's fields in order ([`with_record_schema`]):
//! a number is a LEB128 varint, a string its length in bytes then its
//! bytes, an optional value a `0` (none) or `1` then the value, a list its
//! length then its items, an open enum its text.

use std::borrow::Cow;
use std::ops::Range;
use std::sync::OnceLock;

use super::blob::Source;

use crate::model::{with_record_schema, ErrorType, HandlingStrategy, Record, Severity, Text, TextList};

/// A record of a cache hit or of [`Catalog::to_bytes`]: a range of the
/// bytes of a file or of one of its frames, decoded when first asked for.
///
/// [`Catalog::to_bytes`]: crate::Catalog::to_bytes
#[derive(Clone)]
pub(crate) struct CachedRecord {
    /// The whole file or frame, shared by its records.
    source: Source,
    /// Where the record's bytes are in `source`.
    range: Range<usize>,
    /// Boxed, as an entry's decoded record is (see `RecordCell`).
    decoded: OnceLock<Box<Record>>,
}

impl CachedRecord {
    /// The record at `range` of `source`.
    pub(crate) fn new(source: Source, range: Range<usize>) -> CachedRecord {
        CachedRecord { source, range, decoded: OnceLock::new() }
    }

    /// The record, decoded on first call; a range beyond its bytes is cut
    /// to them (the record decodes all the same).
    pub(crate) fn get(&self) -> &Record {
        self.decoded.get_or_init(|| {
            let bytes = self.source.bytes();
            let end = self.range.end.min(bytes.len());
            Box::new(decode(&bytes[self.range.start.min(end)..end]))
        })
    }
}

macro_rules! record_codec {
    ($($(#[doc = $doc:literal])* $field:ident: $ty:ty = $key:literal,)*) => {
        /// Appends the bytes of `record` to `out`.
        pub(crate) fn encode(record: &Record, out: &mut Vec<u8>) {
            $(record.$field.put(out);)*
        }

        /// The record that `bytes` encode, whatever they are (see the
        /// module's documentation); bytes left over are ignored.
        pub(crate) fn decode(mut bytes: &[u8]) -> Record {
            let input = &mut bytes;
            Record { $($field: <$ty as Field>::take(input),)* }
        }
    };
}
with_record_schema!(record_codec);

/// A value of a record field, written and read back.
trait Field: Sized {
    fn put(&self, out: &mut Vec<u8>);
    /// The value at the start of `input`, which moves past it; never fails.
    fn take(input: &mut &[u8]) -> Self;
}

pub(super) fn put_number(mut n: u64, out: &mut Vec<u8>) {
    while n >= 0x80 {
        out.push(n as u8 | 0x80);
        n >>= 7;
    }
    out.push(n as u8);
}

fn put_str(text: &str, out: &mut Vec<u8>) {
    put_number(text.len() as u64, out);
    out.extend_from_slice(text.as_bytes());
}

/// A varint; its bits beyond 64 are dropped, and the input's end ends it.
pub(super) fn take_number(input: &mut &[u8]) -> u64 {
    let mut n = 0u64;
    let mut shift = 0u32;
    while let Some((&byte, rest)) = input.split_first() {
        *input = rest;
        n |= u64::from(byte & 0x7f).checked_shl(shift).unwrap_or(0);
        shift = shift.saturating_add(7);
        if byte & 0x80 == 0 {
            break;
        }
    }
    n
}

/// A length: at most what is left of `input`, so that no length read
/// allocates or loops beyond the input's size.
fn take_len(input: &mut &[u8]) -> usize {
    usize::try_from(take_number(input)).unwrap_or(usize::MAX).min(input.len())
}

impl Field for Text {
    fn put(&self, out: &mut Vec<u8>) {
        put_str(self, out);
    }

    fn take(input: &mut &[u8]) -> Self {
        let len = take_len(input);
        let (text, rest) = input.split_at(len);
        *input = rest;
        // Checked by `from_utf8` first: its validation is several times
        // cheaper than the lossy reading's, and what this version wrote is UTF-8.
        match std::str::from_utf8(text) {
            Ok(text) => Cow::Owned(text.to_owned()),
            Err(_) => Cow::Owned(String::from_utf8_lossy(text).into_owned()),
        }
    }
}

impl Field for u16 {
    fn put(&self, out: &mut Vec<u8>) {
        put_number(u64::from(*self), out);
    }

    fn take(input: &mut &[u8]) -> Self {
        u16::try_from(take_number(input)).unwrap_or(u16::MAX)
    }
}

impl Field for u32 {
    fn put(&self, out: &mut Vec<u8>) {
        put_number(u64::from(*self), out);
    }

    fn take(input: &mut &[u8]) -> Self {
        u32::try_from(take_number(input)).unwrap_or(u32::MAX)
    }
}

impl<T: Field> Field for Option<T> {
    fn put(&self, out: &mut Vec<u8>) {
        match self {
            None => out.push(0),
            Some(value) => {
                out.push(1);
                value.put(out);
            }
        }
    }

    fn take(input: &mut &[u8]) -> Self {
        match input.split_first() {
            Some((&tag, rest)) => {
                *input = rest;
                (tag != 0).then(|| T::take(input))
            }
            None => None,
        }
    }
}

impl Field for TextList {
    fn put(&self, out: &mut Vec<u8>) {
        put_number(self.len() as u64, out);
        self.iter().for_each(|text| text.put(out));
    }

    fn take(input: &mut &[u8]) -> Self {
        let len = take_len(input);
        Cow::Owned((0..len).map(|_| Text::take(input)).collect())
    }
}

macro_rules! open_enum_field {
    ($($name:ident),*) => {$(
        impl Field for $name {
            fn put(&self, out: &mut Vec<u8>) {
                put_str(self.as_str(), out);
            }

            fn take(input: &mut &[u8]) -> Self {
                $name::from_text(&Text::take(input))
            }
        }
    )*};
}
open_enum_field!(Severity, ErrorType, HandlingStrategy);

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::entry::blob::Blob;

    fn full_record() -> Record {
        let mut record = Record::new("0123456789abcdef", "disk %s full: %v");
        record.error_code = Some("E\u{e9}42".into());
        record.error_type = Some(ErrorType::Other("odd".into()));
        record.http_status = Some(503);
        record.severity = Some(Severity::Fatal);
        record.line_number = Some(u32::MAX);
        record.source_code_start = Some(0);
        record.solutions = vec!["free space".into(), String::new().into()].into();
        record.handling_strategy = Some(HandlingStrategy::Retry);
        record.tags = vec!["disk".into()].into();
        record
    }

    #[test]
    fn a_record_reads_back_as_written() {
        for record in [full_record(), Record::default()] {
            let mut bytes = Vec::new();
            encode(&record, &mut bytes);
            assert_eq!(decode(&bytes), record);
        }
    }

    #[test]
    fn any_bytes_decode_to_some_record() {
        let mut bytes = Vec::new();
        encode(&full_record(), &mut bytes);
        // Cut anywhere, every byte flipped, huge lengths and invalid UTF-8.
        for len in 0..bytes.len() {
            decode(&bytes[..len]);
        }
        for at in 0..bytes.len() {
            for flip in [0x01, 0x80, 0xff] {
                let mut flipped = bytes.clone();
                flipped[at] ^= flip;
                decode(&flipped);
            }
        }
        let huge = [0xff; 12];
        assert_eq!(decode(&huge).id.len(), 0);
        let mut invalid = vec![4, 0xc3, b'(', b'a', b'b'];
        invalid.extend([0; 64]);
        assert_eq!(decode(&invalid).id, "\u{fffd}(ab");
    }

    #[test]
    fn a_range_beyond_the_file_is_cut_to_it() {
        let mut bytes = Vec::new();
        encode(&full_record(), &mut bytes);
        let len = bytes.len();
        let file = Source::Blob(Blob::Shared(Arc::new(bytes)));
        assert_eq!(CachedRecord::new(file.clone(), 0..len + 10).get(), &full_record());
        assert_eq!(CachedRecord::new(file, len + 5..len + 10).get().id, "");
    }
}
