//! The timeline charts: inline SVG bars (no script, no external resource),
//! with the time axis as HTML text below them so that labels are never
//! stretched with the bars.

use std::fmt::Write;

use super::escape::esc;
use super::timeline::Chart;
use super::timestamp::Stamp;

/// Height of a bar chart's drawing area, in SVG units.
const HEIGHT: u32 = 40;
/// Width of a bar's slot, in SVG units (the bar leaves a gap).
const SLOT: usize = 10;

/// The bars of one lane: `counts[i]` drawn against `max`. `label` names the
/// chart for screen readers; each bar has a tooltip with its time and count.
pub fn bars<K>(chart: &Chart<K>, counts: &[u64], max: u64, class: &str, label: &str) -> String {
    let width = counts.len() * SLOT;
    let mut svg = format!(
        "<svg class=\"bars {class}\" viewBox=\"0 0 {width} {HEIGHT}\" preserveAspectRatio=\"none\" role=\"img\" aria-label=\"{}\">",
        esc(label)
    );
    svg.push_str(&format!("<line class=\"base\" x1=\"0\" y1=\"{HEIGHT}\" x2=\"{width}\" y2=\"{HEIGHT}\"/>"));
    for (bar, &count) in counts.iter().enumerate() {
        if count == 0 {
            continue;
        }
        // Square-root scale would hide spikes; linear, but never under 3 units
        // so that a single occurrence next to thousands stays visible.
        let height = ((count as f64 / max.max(1) as f64) * f64::from(HEIGHT)).max(3.0);
        let start = Stamp { micros: chart.start + bar as i64 * chart.width.0 };
        let _ = write!(
            svg,
            "<rect x=\"{}\" y=\"{:.2}\" width=\"{}\" height=\"{height:.2}\"><title>{}: {count} line(s)</title></rect>",
            bar * SLOT + 1,
            f64::from(HEIGHT) - height,
            SLOT - 2,
            esc(&time_label(start, chart.width.0, true)),
        );
    }
    svg.push_str("</svg>");
    svg
}

/// The time axis under a chart: five labels from the first bar's start to the
/// last bar's end.
pub fn axis<K>(chart: &Chart<K>) -> String {
    let end = chart.start + chart.bars as i64 * chart.width.0;
    let span = end - chart.start;
    let mut html = String::from("<div class=\"axis\" aria-hidden=\"true\">");
    for tick in 0..5i64 {
        let micros = chart.start + span / 4 * tick;
        let _ = write!(html, "<span>{}</span>", esc(&time_label(Stamp { micros }, chart.width.0, tick == 0)));
    }
    html.push_str("</div>");
    html
}

/// A time as precise as bars of `width` need; `with_date` adds the date
/// (bars of a day or more always show it, and nothing finer).
pub fn time_label(time: Stamp, width: i64, with_date: bool) -> String {
    const MINUTE: i64 = 60_000_000;
    const DAY: i64 = 1440 * MINUTE;
    let full = time.display(true); // 2026-11-29 17:20:00.123456
    let (date, clock) = full.split_at(10);
    let clock = &clock[1..];
    let clock = if width >= DAY {
        return date.to_owned();
    } else if width >= MINUTE {
        &clock[..5]
    } else if width >= 1_000_000 {
        &clock[..8]
    } else {
        &clock[..12]
    };
    if with_date {
        format!("{date} {clock}")
    } else {
        clock.to_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;

    #[test]
    fn labels_are_as_precise_as_the_bars() {
        let time = Stamp { micros: 1_796_000_000_123_456 }; // 2026-11-29 ...
        let label = |width| time_label(time, width, false);
        assert_eq!(label(1_000), "00:53:20.123");
        assert_eq!(label(5_000_000), "00:53:20");
        assert_eq!(label(300_000_000), "00:53");
        assert_eq!(label(86_400_000_000), "2026-11-30");
        assert_eq!(time_label(time, 300_000_000, true), "2026-11-30 00:53");
    }

    #[test]
    fn bars_scale_to_the_maximum_and_skip_empty_buckets() {
        let chart = Chart { width: (60_000_000, "1 min"), start: 0, bars: 3, lanes: BTreeMap::<u8, _>::new() };
        let svg = bars(&chart, &[4, 0, 1000], 1000, "sev-error", "Name <x>");
        assert_eq!(svg.matches("<rect").count(), 2);
        assert!(svg.contains("height=\"40.00\""), "{svg}");
        assert!(svg.contains("height=\"3.00\""), "a small count stays visible: {svg}");
        assert!(svg.contains("aria-label=\"Name &lt;x&gt;\""));
        assert!(axis(&chart).contains("<span>00:03</span>"));
    }
}
