//! The CRI log format (containerd, CRI-O; read by kubelet):
//! `TIMESTAMP STREAM TAG MESSAGE`, e.g.
//! `2016-10-06T00:17:09.669794202Z stderr F log content`. The message is raw
//! (not escaped). `TAG` is `P` for a piece of a longer line and `F` for the
//! last (or only) piece, with further tags after a `:` (kubernetes
//! `pkg/kubelet/kuberuntime/logs/logs.go` `parseCRILog`; containerd
//! `pkg/cri/io/logger.go` writes `P` for lines longer than its buffer).

use super::{EnvelopeKind, LogLine, Stream};

/// The line's message, when `line` is a CRI log line.
pub(crate) fn unwrap(line: &str) -> Option<LogLine<'_>> {
    let bytes = line.as_bytes();
    let space_from = |at: usize| memchr::memchr(b' ', &bytes[at..]).map(|space| at + space);
    let timestamp_end = space_from(0)?;
    let timestamp = &bytes[..timestamp_end];
    if timestamp.len() < 20
        || !timestamp[..4].iter().all(u8::is_ascii_digit)
        || timestamp[4] != b'-'
        || timestamp[10] != b'T'
    {
        return None;
    }
    let stream_end = space_from(timestamp_end + 1)?;
    let stream = match &bytes[timestamp_end + 1..stream_end] {
        b"stdout" => Stream::Stdout,
        b"stderr" => Stream::Stderr,
        _ => return None,
    };
    // The tags (`F`, `P`, maybe followed by `:` and more), then the message.
    let (tags_end, start) = match space_from(stream_end + 1) {
        Some(space) => (space, space + 1),
        None => (bytes.len(), bytes.len()),
    };
    let tags = &bytes[stream_end + 1..tags_end];
    let ends_line = match tags.split(|&b| b == b':').next() {
        Some(b"F") => true,
        Some(b"P") => false,
        _ => return None,
    };
    let mut unwrapped = LogLine::wrapped(EnvelopeKind::Cri, line[start..].into(), start..line.len());
    unwrapped.stream = Some(stream);
    unwrapped.ends_line = ends_line;
    Some(unwrapped)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_message_is_the_rest_after_the_tag() {
        // The examples of kubelet's `logs_test.go`.
        let full = unwrap("2016-10-06T00:17:09.669794202Z stdout F log content 1").unwrap();
        assert_eq!((full.text(), full.ends_line, full.stream), ("log content 1", true, Some(Stream::Stdout)));
        assert_eq!(full.span_in_input(), 40..53);
        let piece = unwrap("2016-10-06T00:17:09.669794203Z stderr P log content 2 ").unwrap();
        assert_eq!((piece.text(), piece.ends_line), ("log content 2 ", false));
        let tagged = unwrap("2016-10-06T00:17:10.113242941Z stderr F:x  two spaces").unwrap();
        assert_eq!(tagged.text(), " two spaces");
        assert_eq!(unwrap("2016-10-06T00:17:10.113242941Z stdout F").unwrap().text(), "");
        for line in ["2016-10-06 stdout F x", "2016-10-06T00:17:09.669794202Z stdin F x", "[1] 2026/11/29 x y z"] {
            assert!(unwrap(line).is_none(), "{line}");
        }
    }
}
