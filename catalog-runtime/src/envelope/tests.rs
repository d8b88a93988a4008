//! Detection, nesting and the issue's examples, through the public API.

use super::*;
use crate::Catalog;

fn catalog() -> Catalog {
    Catalog::load("../data/nats-io/nats-server").expect("the seed records load")
}

#[test]
fn each_envelope_is_detected_from_its_first_lines() {
    let cases: [(&[&str], Envelope); 8] = [
        (&["2026-11-29T17:20:35.1Z stderr F a", "2026-11-29T17:20:35.2Z stdout P b"], Envelope::Cri),
        (&[r#"{"log":"a\n","stream":"stderr","time":"t"}"#, ""], Envelope::Docker),
        (&[r#"{"__CURSOR":"s","PRIORITY":"3","MESSAGE":"a"}"#], Envelope::Journald),
        (&[r#"{"level":"error","msg":"a"}"#, "not json", r#"{"msg":"b"}"#], Envelope::Json(None)),
        (&["<11>1 2026-11-29T17:20:35Z h app 1 - - a", "<11>Nov 29 17:20:35 h app[1]: b"], Envelope::Syslog),
        (&["level=error msg=a", "level=info msg=\"b c\""], Envelope::Logfmt),
        (&["[1] 2026/11/29 17:20:35.000001 [ERR] a", "{\"msg\":\"b\"}", "plain"], Envelope::None),
        (&[], Envelope::None),
    ];
    for (lines, envelope) in cases {
        assert_eq!(Envelope::detect(lines.iter().copied()), envelope, "{lines:?}");
    }
}

#[test]
fn a_line_not_in_the_envelope_is_read_as_it_is() {
    let line = "[1] 2026/11/29 17:20:35.000001 [ERR] not json";
    for envelope in [Envelope::Docker, Envelope::Cri, Envelope::Journald, Envelope::Json(None), Envelope::Logfmt] {
        let unwrapped = envelope.unwrap(line);
        assert_eq!(
            (unwrapped.text(), unwrapped.envelope(), unwrapped.span_in_input()),
            (line, EnvelopeKind::None, 0..line.len())
        );
        assert_eq!(unwrapped.level(), Some(LogLevel::Error));
    }
}

#[test]
fn container_lines_holding_json_or_logfmt_are_unwrapped_twice() {
    let cri = r#"2026-11-29T17:20:35.1Z stderr F {"level":"warn","msg":"a \"b\""}"#;
    let unwrapped = Envelope::Cri.unwrap(cri);
    assert_eq!(
        (unwrapped.text(), unwrapped.level(), unwrapped.envelope()),
        ("a \"b\"", Some(LogLevel::Warning), EnvelopeKind::Cri)
    );
    assert_eq!(&cri[unwrapped.span_in_input()], r#"a \"b\""#);
    let docker = r#"{"log":"level=error msg=\"persist \\\"s7\\\"\"\n","stream":"stderr","time":"t"}"#;
    let unwrapped = Envelope::Docker.unwrap(docker);
    assert_eq!((unwrapped.text(), unwrapped.level()), ("persist \"s7\"", Some(LogLevel::Error)));
}

/// The examples of issue 28, with the seed nats-server records: each
/// classifies to the record and values of the bare message.
#[test]
fn the_issue_s_examples_classify_as_their_bare_lines() {
    let catalog = catalog();
    let bare = "[1] 2026/11/29 17:20:35.000001 [ERR] unable to persist session \"s7\" (seq=5): write tcp 10.0.0.7:4222: i/o timeout";
    let expected = catalog.find(bare).expect("the bare line matches");
    let escaped = serde_json::to_string(&format!("{bare}\n")).unwrap();
    let message = serde_json::to_string(&bare[37..]).unwrap();
    let wrapped = [
        (format!(r#"{{"log":{escaped},"stream":"stderr","time":"2026-11-29T17:20:35.000001Z"}}"#), Envelope::Docker),
        (format!(r#"{{"level":"error","ts":1764436835.0,"msg":{message}}}"#), Envelope::Json(None)),
        (format!("time=2026-11-29T17:20:35Z level=error msg={message}"), Envelope::Logfmt),
        (format!("<11>1 2026-11-29T17:20:35Z host-a nats-server 1035 - - {bare}"), Envelope::Syslog),
        (format!("2026-11-29T17:20:35.000001Z stderr F {bare}"), Envelope::Cri),
        (format!(r#"{{"__CURSOR":"s=1","PRIORITY":"3","MESSAGE":{escaped}}}"#), Envelope::Journald),
    ];
    for (line, envelope) in wrapped {
        assert_eq!(Envelope::detect([line.as_str()]), envelope, "{line}");
        let unwrapped = envelope.unwrap(&line);
        let found = catalog.find(unwrapped.text()).unwrap_or_else(|| panic!("{envelope}: {line}"));
        assert_eq!((found.index, &found.values), (expected.index, &expected.values), "{envelope}");
        assert_eq!(unwrapped.level(), Some(LogLevel::Error), "{envelope}");
    }
}
