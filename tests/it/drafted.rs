//! Drafts compile: `errcat/tests/data/draft/drafts` holds the draft records
//! that `errcat draft --out` wrote for `errcat/tests/data/draft/server.log`
//! (errcat's test `the_fixture_log_drafts_to_the_checked_in_golden_files`
//! drafts the log again and requires the same bytes), compiled here by the
//! macro into an enum whose variants read the log's lines back.

#[error_catalog::catalog(path = "errcat/tests/data/draft/drafts")]
pub enum Drafted {}

const LOG: &str = include_str!("../../errcat/tests/data/draft/server.log");

#[test]
fn the_drafts_of_a_log_compile_to_one_variant_per_group() {
    let names: Vec<(&str, &str)> = DraftedKind::ALL.iter().map(|k| (k.id(), k.name())).collect();
    assert_eq!(
        names,
        [
            ("104fc6d45b1a22f9", "UserSignedOutFrom"),
            ("9999ca4c1e724272", "Replica"),
            ("9f1db15d4ffb7f4e", "Cache"),
            ("c0b99756a432b418", "Feature"),
            ("f2a272c3da32ef3c", "UserSignedInFrom"),
        ]
    );
    let replica = Drafted::parse("replica ζeta lost its lease after 3 ms: connection reset by peer");
    assert_eq!(
        replica,
        Some(Drafted::Replica { arg0: "ζeta".into(), arg1: "3".into(), arg2: "connection reset by peer".into() })
    );
    // Events that differ in one word are variants of their own.
    let signed_in = Drafted::parse("user bob signed in from 10.0.0.2").map(|e| e.kind());
    let signed_out = Drafted::parse("user bob signed out from [::1]:4222").map(|e| e.kind());
    assert_eq!((signed_in, signed_out), (Some(DraftedKind::UserSignedInFrom), Some(DraftedKind::UserSignedOutFrom)));
    // A value seen empty may be empty; a quoted one keeps its quotes.
    assert_eq!(
        Drafted::parse("feature `` of package `web` is unknown"),
        Some(Drafted::Feature { arg0: String::new(), arg1: "web".into() })
    );
    assert_eq!(
        Drafted::parse(r#"cache "日本語 🎉" evicted 0 entries (limit=8)"#),
        Some(Drafted::Cache { arg0: r#""日本語 🎉""#.into(), arg1: "0".into(), arg2: "8".into() })
    );
    assert_eq!(Drafted::parse("replica east lost its lease after soon ms: timeout"), None, "not a number");
}

#[test]
fn every_drafted_line_of_the_log_is_found_and_renders_back() {
    let mut kinds = Vec::new();
    for line in LOG.lines() {
        let Some((error, span)) = Drafted::find_span(line) else {
            // The lines the seed catalog explains were not drafted.
            assert!(line.contains("unable to persist session"), "{line}");
            continue;
        };
        assert_eq!(error.to_string(), line[span].to_owned(), "{line}");
        kinds.push(error.kind().name());
    }
    kinds.sort_unstable();
    kinds.dedup_by(|a, b| a == b);
    assert_eq!(kinds, ["Cache", "Feature", "Replica", "UserSignedInFrom", "UserSignedOutFrom"]);
    assert_eq!(LOG.lines().filter(|line| Drafted::find(line).is_some()).count(), 17);
}
