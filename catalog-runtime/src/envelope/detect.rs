//! Choosing an input's envelope from its first lines, as kubelet
//! (`getParseFunc` tries CRI, then Docker JSON, on a sample line), Filebeat
//! (`format: auto`) and lnav ("each format is checked to see if it can parse
//! the first few lines") do: the first envelope, in a fixed order, that more
//! than half of the sampled lines are in.

use super::{cri, docker, journald, json, logfmt, syslog, Envelope};

/// Lines sampled (blank ones are not counted).
const SAMPLED: usize = 16;

/// Whether a line is in an envelope.
type IsIn = fn(&str) -> bool;

pub(super) fn detect<'l>(first_lines: impl IntoIterator<Item = &'l str>) -> Envelope {
    let lines: Vec<&str> = first_lines
        .into_iter()
        .map(crate::matcher::trim_line_break)
        .filter(|line| !line.trim().is_empty())
        .take(SAMPLED)
        .collect();
    if lines.is_empty() {
        return Envelope::None;
    }
    // Most specific first: a Docker or journald line is also a JSON log.
    let candidates: [(Envelope, IsIn); 6] = [
        (Envelope::Cri, |line| cri::unwrap(line).is_some()),
        (Envelope::Docker, |line| docker::unwrap(line).is_some()),
        (Envelope::Journald, |line| journald::unwrap(line).is_some()),
        (Envelope::Json(None), |line| json::unwrap(line, None).is_some()),
        (Envelope::Syslog, |line| syslog::unwrap(line).is_some()),
        (Envelope::Logfmt, |line| logfmt::unwrap(line).is_some()),
    ];
    for (envelope, is_in) in candidates {
        if lines.iter().filter(|line| is_in(line)).count() * 2 > lines.len() {
            return envelope;
        }
    }
    Envelope::None
}
