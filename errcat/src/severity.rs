//! Record severities as errcat orders and reads them: one rank for the
//! text summary, `--min-severity` and the HTML report, one reading of the
//! names people type.

use error_catalog::Severity;

/// How severe a record severity is: 0 for the most severe. A severity this
/// version does not know counts as an error.
pub fn rank(severity: &Severity) -> u8 {
    match severity {
        Severity::Fatal | Severity::Critical => 0,
        Severity::Warning => 2,
        Severity::Info => 3,
        Severity::Debug => 4,
        Severity::Trace => 5,
        _ => 1,
    }
}

/// A severity as asked for on the command line: as the dataset writes it,
/// `warn` (in any case) read as `warning`.
pub fn asked(name: &str) -> Severity {
    Severity::from_text(if name.eq_ignore_ascii_case("warn") { "warning" } else { name })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranks_go_from_the_most_severe_and_unknown_ones_count_as_errors() {
        let names = ["fatal", "critical", "error", "warning", "info", "debug", "trace", "page-me"];
        let ranks: Vec<u8> = names.iter().map(|name| rank(&Severity::from_text(name))).collect();
        assert_eq!(ranks, [0, 0, 1, 2, 3, 4, 5, 1]);
    }

    #[test]
    fn warn_is_warning_and_other_names_are_as_written() {
        assert_eq!(asked("warn"), Severity::Warning);
        assert_eq!(asked("WARN"), Severity::Warning);
        assert_eq!(asked("error"), Severity::Error);
        assert_eq!(asked("Sev-2"), Severity::from_text("Sev-2"));
    }
}
