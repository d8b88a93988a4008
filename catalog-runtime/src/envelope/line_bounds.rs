//! Where a line of a buffer starts and ends, from any of its bytes: what
//! the passes over whole buffers ([`super::verbatim`], [`super::trace_marks`])
//! look up around what they find.

/// Where the line holding byte `at` of `bytes` starts.
pub(super) fn line_start(bytes: &[u8], at: usize) -> usize {
    memchr::memrchr(b'\n', &bytes[..at]).map_or(0, |i| i + 1)
}

/// Where the line holding byte `at` of `bytes` ends: its `\n`, or the end.
pub(super) fn line_end_at(bytes: &[u8], at: usize) -> usize {
    memchr::memchr(b'\n', &bytes[at..]).map_or(bytes.len(), |i| at + i)
}
