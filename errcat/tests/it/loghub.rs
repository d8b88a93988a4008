//! An envelope is a hint, not a filter: over the eight systems of Loghub-2k
//! (`../shared/loghub-2k`), with a record for each of a system's event
//! templates (made by `tools/loghub_records.py`), every line that `errcat
//! scan --envelope none` matches is matched, by the same record, in every
//! envelope reading: detected (`auto`) and each envelope some of the
//! system's lines are in; at once and, with `--unmatched` (which reads line
//! by line), line by line.

use std::collections::BTreeSet;
use std::path::Path;
use std::process::Command;

use assert_cmd::cargo::CommandCargoExt;
use error_catalog::Envelope;

const SYSTEMS: [&str; 8] = ["Android", "Apache", "BGL", "HealthApp", "Mac", "OpenStack", "Spark", "Windows"];

/// The lines (numbers) `errcat --data DATA scan --json ARGS LOG` matches, with their record ids.
fn matched(data: &Path, cache: &Path, log: &Path, args: &[&str]) -> BTreeSet<(u64, String)> {
    let mut command = Command::cargo_bin("errcat").unwrap();
    command.env("ERRCAT_CACHE_DIR", cache).arg("--data").arg(data).args(["scan", "--json"]).args(args).arg(log);
    let out = command.output().unwrap();
    assert!(out.status.code().is_some_and(|code| code < 2), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
    let objects = String::from_utf8(out.stdout).unwrap();
    objects
        .lines()
        .map(|line| serde_json::from_str::<serde_json::Value>(line).unwrap())
        .filter(|object| object["unmatched"].is_null())
        .map(|object| (object["line"].as_u64().unwrap(), object["id"].as_str().unwrap().to_owned()))
        .collect()
}

#[test]
fn every_line_matched_as_it_is_is_matched_in_every_envelope_reading() {
    let test = "every_line_matched_as_it_is_is_matched_in_every_envelope_reading";
    let Some(loghub) = super::support::shared("loghub-2k", test) else { return };
    let root = super::support::workspace_root();
    let dir = tempfile::tempdir().unwrap();
    let cache = dir.path().join("cache");
    let explicit = ["docker", "cri", "journald", "syslog", "logfmt", "json"];
    let mut readings_checked = 0;
    for system in SYSTEMS {
        let data = dir.path().join(system);
        let made = Command::new("python3")
            .arg(root.join("tools/loghub_records.py"))
            .args([system.as_ref(), data.as_os_str()])
            .arg("--loghub")
            .arg(&loghub)
            .output()
            .expect("python3 runs tools/loghub_records.py");
        assert!(made.status.success(), "{system}: {}", String::from_utf8_lossy(&made.stderr));
        let log = loghub.join(system).join(format!("{system}_2k.log"));
        let text = String::from_utf8_lossy(&std::fs::read(&log).unwrap()).into_owned();
        let plain = matched(&data, &cache, &log, &["--envelope", "none"]);
        assert!(plain.len() > 1000, "{system}: {} lines matched as they are", plain.len());
        // The envelopes that read some of the system's lines.
        let detected = explicit.into_iter().filter(|name| {
            let envelope = Envelope::from_name(name).unwrap();
            text.lines().any(|line| {
                envelope.unwrap(line.trim_end_matches('\r')).envelope() != error_catalog::EnvelopeKind::None
            })
        });
        for envelope in ["auto"].into_iter().chain(detected) {
            for line_by_line in [false, true] {
                let mut args = vec!["--envelope", envelope];
                if line_by_line {
                    args.extend(["--unmatched", "ERR,WRN,INF"]);
                }
                let wrapped = matched(&data, &cache, &log, &args);
                let lost: Vec<_> = plain.difference(&wrapped).take(5).collect();
                assert!(lost.is_empty(), "{system} {args:?}: lines matched only as they are, e.g. {lost:?}");
                readings_checked += 1;
            }
        }
    }
    // Mac's syslog lines, at least, are read in an envelope.
    assert!(readings_checked > SYSTEMS.len() * 2, "{readings_checked} readings");
}
