//! The bytes that a catalog's records and origins are read from when first
//! asked for: a cache file read at run time, or a catalog compiled into the
//! program ([`Blob`]), where [`Catalog::to_bytes`] compresses them.
//!
//! The records and origins are most of a compiled catalog (16 of 19 MB for
//! the embedded datasets) and a run reads few of them: compressed with LZ4
//! they are about a quarter of that size in the program, and cost a decompression
//! only when read. Records are compressed in frames of about
//! [`FRAME_LEN`] bytes of whole records ([`Frames`]), so that reading one
//! decompresses one frame; a run's origins, which are decoded all at once,
//! in one block ([`compress`]). LZ4 rather than a denser codec: it
//! decompresses several times faster (`errcat list` reads every record).
//!
//! Decompression is total, as the records' decoder is: bytes that do not
//! decompress to what the frame table says give no bytes (and then empty
//! records), never a panic or a huge allocation.
//!
//! [`Catalog::to_bytes`]: crate::Catalog::to_bytes

use std::ops::Range;
use std::sync::{Arc, OnceLock};

/// The bytes of a cache file read at run time, or of a catalog compiled
/// into the program (`Catalog::from_static_bytes`), shared by its records.
#[derive(Clone, Debug)]
pub(crate) enum Blob {
    Shared(Arc<Vec<u8>>),
    Static(&'static [u8]),
}

impl std::ops::Deref for Blob {
    type Target = [u8];

    fn deref(&self) -> &[u8] {
        match self {
            Blob::Shared(bytes) => bytes,
            Blob::Static(bytes) => bytes,
        }
    }
}

/// The uncompressed size a frame is cut at, after the record that reaches it:
/// reading one record decompresses 16 pages or so.
pub(crate) const FRAME_LEN: usize = 64 * 1024;

/// LZ4 writes at most 255 bytes for one byte read, and a little more.
fn can_decompress_to(compressed: usize, len: usize) -> bool {
    len <= compressed.saturating_mul(255).saturating_add(16)
}

/// `plain` LZ4-compressed, its length first (4 bytes, little-endian).
pub(crate) fn compress(plain: &[u8]) -> Vec<u8> {
    lz4_flex::block::compress_prepend_size(plain)
}

/// What [`compress`] compressed; `None` when `bytes` are not such.
pub(crate) fn decompress(bytes: &[u8]) -> Option<Vec<u8>> {
    let (len, compressed) = bytes.split_first_chunk::<4>()?;
    let len = usize::try_from(u32::from_le_bytes(*len)).ok()?;
    decompress_exactly(compressed, len)
}

fn decompress_exactly(compressed: &[u8], len: usize) -> Option<Vec<u8>> {
    if !can_decompress_to(compressed.len(), len) {
        return None;
    }
    lz4_flex::block::decompress(compressed, len).ok().filter(|plain| plain.len() == len)
}

/// Byte strings one after the other, cut into frames of whole strings after
/// [`FRAME_LEN`] bytes, each frame compressed: the frames one after the
/// other, and for each its compressed and uncompressed lengths.
pub(crate) fn compress_frames(plain: &[u8], ends: impl IntoIterator<Item = usize>) -> (Vec<u8>, Vec<(usize, usize)>) {
    let (mut frames, mut table) = (Vec::new(), Vec::new());
    let mut start = 0;
    let mut frame = |start: usize, end: usize, frames: &mut Vec<u8>| {
        let compressed = lz4_flex::block::compress(&plain[start..end]);
        frames.extend_from_slice(&compressed);
        table.push((compressed.len(), end - start));
    };
    for end in ends {
        if end - start >= FRAME_LEN {
            frame(start, end, &mut frames);
            start = end;
        }
    }
    if start < plain.len() {
        frame(start, plain.len(), &mut frames);
    }
    (frames, table)
}

/// Compressed frames of a blob ([`compress_frames`]), each decompressed when
/// first read.
#[derive(Debug)]
pub(crate) struct Frames {
    blob: Blob,
    frames: Vec<Frame>,
}

#[derive(Debug)]
struct Frame {
    /// Where it is in the blob.
    compressed: Range<usize>,
    /// Where its bytes are in the uncompressed strings.
    plain: Range<usize>,
    decompressed: OnceLock<Box<[u8]>>,
}

impl Frames {
    /// The frames at `at` of `blob`, of the lengths that `table` gives;
    /// `None` unless they end exactly where `at` does.
    pub(crate) fn new(blob: Blob, at: Range<usize>, table: &[(usize, usize)]) -> Option<Frames> {
        let (mut compressed_start, mut plain_start) = (at.start, 0usize);
        let mut frames = Vec::with_capacity(table.len());
        for &(compressed, plain) in table {
            let compressed = compressed_start..compressed_start.checked_add(compressed)?;
            let plain = plain_start..plain_start.checked_add(plain)?;
            (compressed_start, plain_start) = (compressed.end, plain.end);
            frames.push(Frame { compressed, plain, decompressed: OnceLock::new() });
        }
        (compressed_start == at.end && at.end <= blob.len()).then_some(Frames { blob, frames })
    }

    /// The length of the uncompressed strings.
    pub(crate) fn len(&self) -> usize {
        self.frames.last().map_or(0, |frame| frame.plain.end)
    }

    /// The frame that holds `range` of the uncompressed strings (the one
    /// its start is in: frames hold whole strings), and where it is in that
    /// frame.
    pub(crate) fn locate(&self, range: Range<usize>) -> (usize, Range<usize>) {
        let frame = self.frames.partition_point(|frame| frame.plain.end <= range.start);
        let start = self.frames.get(frame).map_or(0, |frame| frame.plain.start);
        (frame, range.start.saturating_sub(start)..range.end.saturating_sub(start))
    }

    /// The uncompressed bytes of frame `frame`, decompressed on first call;
    /// none when it does not decompress to its length.
    pub(crate) fn frame(&self, frame: usize) -> &[u8] {
        let Some(frame) = self.frames.get(frame) else {
            return &[];
        };
        frame.decompressed.get_or_init(|| {
            let compressed = self.blob.get(frame.compressed.clone()).unwrap_or_default();
            decompress_exactly(compressed, frame.plain.len()).unwrap_or_default().into_boxed_slice()
        })
    }
}

/// Where some bytes are: a blob's own, or a frame of a blob's.
#[derive(Clone, Debug)]
pub(crate) enum Source {
    Blob(Blob),
    Frame(Arc<Frames>, usize),
}

impl Source {
    /// The bytes, decompressed if they are a frame's.
    pub(crate) fn bytes(&self) -> &[u8] {
        match self {
            Source::Blob(blob) => blob,
            Source::Frame(frames, frame) => frames.frame(*frame),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Strings of 0 to 3,999 bytes, compressible and not, one after the other.
    fn strings() -> (Vec<u8>, Vec<usize>) {
        let (mut plain, mut ends) = (Vec::new(), Vec::new());
        for n in 0..200usize {
            plain.extend((0..n * 20).map(|i| if n % 2 == 0 { b'a' + (i % 7) as u8 } else { (i * 7919 % 251) as u8 }));
            ends.push(plain.len());
        }
        (plain, ends)
    }

    #[test]
    fn frames_give_back_every_string() {
        let (plain, ends) = strings();
        let (compressed, table) = compress_frames(&plain, ends.iter().copied());
        assert!(table.len() > 3 && compressed.len() < plain.len(), "{} frames", table.len());
        let blob = Blob::Shared(Arc::new([&b"head"[..], &compressed, b"tail"].concat()));
        let frames = Arc::new(Frames::new(blob.clone(), 4..4 + compressed.len(), &table).unwrap());
        assert_eq!(frames.len(), plain.len());
        let mut start = 0;
        for end in ends {
            let (frame, range) = frames.locate(start..end);
            let source = Source::Frame(frames.clone(), frame);
            assert_eq!(&source.bytes()[range], &plain[start..end]);
            start = end;
        }
        // A table that does not end where the frames do.
        assert!(Frames::new(blob.clone(), 4..3 + compressed.len(), &table).is_none());
        assert!(Frames::new(blob, 4..4 + compressed.len(), &[(usize::MAX, 1)]).is_none());
    }

    #[test]
    fn damaged_frames_give_no_bytes_or_the_frames_length() {
        let (plain, ends) = strings();
        let (compressed, table) = compress_frames(&plain, ends);
        let len = compressed.len();
        for at in (0..table[0].0).step_by(7) {
            let mut damaged = compressed.clone();
            damaged[at] ^= 0xa5;
            let frames = Frames::new(Blob::Shared(Arc::new(damaged)), 0..len, &table).unwrap();
            // LZ4 has no checksum: a changed literal decompresses to other bytes.
            let bytes = frames.frame(0);
            assert!(bytes.is_empty() || bytes.len() == table[0].1);
        }
        // A length no frame of that size can decompress to.
        let mut huge = table.clone();
        huge[0].1 = table[0].0 * 300;
        let frames = Frames::new(Blob::Shared(Arc::new(compressed)), 0..len, &huge).unwrap();
        assert!(frames.frame(0).is_empty());
        assert!(frames.frame(table.len()).is_empty());
    }

    #[test]
    fn a_block_gives_back_its_bytes_or_none() {
        let (plain, _) = strings();
        let block = compress(&plain);
        assert_eq!(decompress(&block).as_deref(), Some(&plain[..]));
        assert_eq!(decompress(&compress(b"")).as_deref(), Some(&b""[..]));
        for damaged in [&block[..3], &block[..block.len() - 1], &[0xff, 0xff, 0xff, 0x7f, 0]] {
            assert!(decompress(damaged).is_none_or(|bytes| bytes.len() == plain.len()));
        }
    }
}
