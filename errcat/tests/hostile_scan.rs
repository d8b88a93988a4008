//! `errcat scan` on hostile input: a 100 MB line, NUL bytes, invalid UTF-8,
//! and megabyte lines made of the very literals the patterns look for, so
//! that every position is a candidate and a backtracking matcher would never
//! finish. The results must be those of the library on each line, and the
//! scanner's memory must stay far below the size of the input. One test in
//! its own binary: the peak memory read is that of the children it waited for.

use std::fs;
use std::io::Write;
use std::path::Path;
use std::process::Command;

use error_catalog::Catalog;
use serde_json::Value;

/// The repository's root: errcat runs there, on its files (the examples,
/// the seed dataset, the test data).
const ROOT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/..");

const PREFIX: &str = "[7] 2026/11/29 17:20:00.123456 [ERR] ";
const PERSIST: &str = "unable to persist session \"s1\" (seq=3): nats: timeout";

/// A record whose message invites backtracking: lazy placeholders separated
/// by the same short literal.
const BACKTRACKING: &str = r#"{"record":{"id":"b000000000000001","repo":"example/app","slug":"colons","errorMessage":"a %v: %v: %v: %v: end","severity":"error","filePath":"x.go"}}"#;

fn dataset(dir: &Path) -> std::path::PathBuf {
    let data = dir.join("data");
    fs::create_dir_all(&data).unwrap();
    let seeds = Path::new(ROOT).join("data/nats-io/nats-server");
    for entry in fs::read_dir(seeds).unwrap() {
        let path = entry.unwrap().path();
        fs::copy(&path, data.join(path.file_name().unwrap())).unwrap();
    }
    fs::write(data.join("b000000000000001.json"), BACKTRACKING).unwrap();
    data
}

/// The hostile log's lines (the 100 MB one written apart, as line 1).
fn lines() -> Vec<Vec<u8>> {
    let colons = ": ".repeat(2 << 20);
    vec![
        format!("a {colons}: end").into_bytes(),
        format!("a {colons}").into_bytes(),
        "create QoS2 incoming messages stream for account \"a\": ".repeat(50_000).into_bytes(),
        format!("\0\0 {PREFIX}{PERSIST} \0").into_bytes(),
        [b"\xff\xfe ".as_slice(), PREFIX.as_bytes(), PERSIST.as_bytes()].concat(),
        format!("{PREFIX}{PERSIST}").into_bytes(),
    ]
}

fn max_rss_of_children_kib() -> i64 {
    let mut usage = std::mem::MaybeUninit::<libc::rusage>::zeroed();
    // SAFETY: getrusage writes the struct it is given; RUSAGE_CHILDREN is valid.
    let usage = unsafe {
        assert_eq!(libc::getrusage(libc::RUSAGE_CHILDREN, usage.as_mut_ptr()), 0);
        usage.assume_init()
    };
    usage.ru_maxrss
}

#[test]
fn hostile_lines_give_the_librarys_results_in_bounded_memory() {
    let dir = tempfile::tempdir().unwrap();
    let data = dataset(dir.path());
    let log = dir.path().join("hostile.log");
    let mut file = std::io::BufWriter::new(fs::File::create(&log).unwrap());
    let run = "unable to persist session ".repeat(1 << 12).into_bytes();
    for _ in 0..(100 << 20) / run.len() {
        file.write_all(&run).unwrap();
    }
    file.write_all(b"\n").unwrap();
    let lines = lines();
    for line in &lines {
        file.write_all(line).unwrap();
        file.write_all(b"\n").unwrap();
    }
    file.into_inner().unwrap().sync_all().unwrap();

    let output = Command::new(env!("CARGO_BIN_EXE_errcat"))
        .env("ERRCAT_CACHE_DIR", dir.path().join("cache"))
        .args(["--data".as_ref(), data.as_os_str(), "scan".as_ref(), "--json".as_ref(), log.as_os_str()])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    // 2: the skipped line is an error, reported at the end.
    assert_eq!(output.status.code(), Some(2), "{stderr}");

    // What the library finds in each line, read as the scanner reads it.
    let catalog = Catalog::load(&data).unwrap();
    let mut expected = Vec::new();
    for (index, bytes) in lines.iter().enumerate() {
        let line = String::from_utf8_lossy(bytes);
        if let Some(found) = catalog.find(&line) {
            let fields = &catalog.entries()[found.index].template.fields;
            let mut named: Vec<(String, String)> =
                fields.iter().zip(&found.values).map(|(f, v)| (f.name.to_string(), v.to_string())).collect();
            named.sort();
            let values: Vec<String> = named.into_iter().map(|(_, value)| value).collect();
            expected.push((index as u64 + 2, catalog.entries()[found.index].record().id.to_string(), values));
        }
    }
    let found: Vec<(u64, String, Vec<String>)> = String::from_utf8(output.stdout)
        .unwrap()
        .lines()
        .map(|line| serde_json::from_str::<Value>(line).unwrap())
        .filter(|object| object["line"].is_u64())
        .map(|object| {
            let fields = object["fields"].as_object().unwrap();
            // Sorted by field name, as the expected values are.
            let mut named: Vec<(&String, String)> =
                fields.iter().map(|(k, v)| (k, v.as_str().map_or_else(|| v.to_string(), str::to_owned))).collect();
            named.sort();
            let values = named.into_iter().map(|(_, value)| value).collect();
            (object["line"].as_u64().unwrap(), object["id"].as_str().unwrap().to_owned(), values)
        })
        .collect();
    let lines_found: Vec<u64> = found.iter().map(|(line, _, _)| *line).collect();
    // The colons record is found where the line ends in `: end`, not where it
    // does not; the long QoS2 run matches its first occurrence; the seeds'
    // message is found after NUL bytes and after invalid UTF-8.
    assert_eq!(lines_found, [2, 4, 5, 6, 7]);
    assert_eq!(found.len(), expected.len());
    for ((line, id, values), (e_line, e_id, e_values)) in found.iter().zip(&expected) {
        assert_eq!((line, id), (e_line, e_id));
        assert_eq!(values.len(), e_values.len());
        for (value, e_value) in values.iter().zip(e_values) {
            assert!(value == e_value || format!("{value:?}") == *e_value, "line {line}: {value:.80} vs {e_value:.80}");
        }
    }
    assert!(stderr.contains(":1: line longer than 16 MiB; skipped"), "{stderr}");
    assert!(stderr.contains(":6: invalid UTF-8"), "{stderr}");

    // Far below the 110 MB of input: the long line was never held whole.
    let peak_mib = max_rss_of_children_kib() / 1024;
    eprintln!("errcat peaked at {peak_mib} MiB");
    assert!(peak_mib < 80, "errcat peaked at {peak_mib} MiB");
}
