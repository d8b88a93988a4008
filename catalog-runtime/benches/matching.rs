//! Micro-benchmarks of `parse` and `find` on single lines, with the seed
//! records and, when `../shared` is present, the 2,008-record corpus; and
//! of choosing an input's envelope (`Envelope::detect`) beside a scan of
//! the same plain log, which detection precedes once per input.
//!
//!     cargo bench -p catalog-runtime --bench matching

use std::hint::black_box;
use std::path::Path;

use catalog_runtime::{Catalog, Envelope};
use criterion::{criterion_group, criterion_main, Criterion};

const MESSAGE: &str = r#"unable to persist session "Mj4n8x2Lq" (seq=1042): nats: timeout"#;
const PREFIX: &str = "[4127] 2026/11/29 17:21:20.959481 [ERR] 10.0.2.14:49152 - cid:17 - ";
const NOISE: &str = "[4127] 2026/11/29 17:21:20.959481 [INF] 10.0.2.14:49152 - cid:17 - Client connection created";

fn bench(c: &mut Criterion, name: &str, catalog: &Catalog, message: &str) {
    let line = format!("{PREFIX}{message}");
    // Compile the regexes involved before measuring.
    assert!(catalog.parse(message).is_some() && catalog.find(&line).is_some());
    let mut group = c.benchmark_group(name);
    group.bench_function("parse (message)", |b| b.iter(|| catalog.parse(black_box(message))));
    group.bench_function("find (log line with the message)", |b| b.iter(|| catalog.find(black_box(&line))));
    group.bench_function("find (log line with no message)", |b| b.iter(|| catalog.find(black_box(NOISE))));
    group.finish();
}

fn seeds(c: &mut Criterion) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../data/nats-io/nats-server");
    bench(c, "seeds", &Catalog::load(dir).expect("the seed records load"), MESSAGE);
}

fn corpus(c: &mut Criterion) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../datasets/nats-server");
    if !dir.is_dir() {
        eprintln!("note: corpus benchmarks skipped: {} is absent", dir.display());
        return;
    }
    let catalog = Catalog::load(&dir).expect("the corpus loads");
    // The seed message is not in the corpus; use a corpus message instead.
    let entry = &catalog.entries()[0];
    let values = entry.template.sample_values();
    let message = catalog.render(0, &values).expect("a value per field");
    bench(c, "corpus", &catalog, &message);
}

/// Lines made of the very literal text a template looks for, with all its
/// literals present in order but no match (the integer is missing): every
/// split is a candidate, and a backtracking matcher would take time cubic in
/// the length. The time per byte must stay the same as the lines grow.
fn hostile(c: &mut Criterion) {
    let template = catalog_runtime::Template::compile("x %v: %v: %v: %d end", catalog_runtime::Dialect::Go).unwrap();
    let matcher = catalog_runtime::Matcher::new([&template]);
    let mut group = c.benchmark_group("hostile");
    for size in [16 << 10, 128 << 10, 1 << 20] {
        let line = format!("x {}y end", ": ".repeat(size / 2));
        assert!(matcher.find(&line).is_none());
        group.throughput(criterion::Throughput::Bytes(line.len() as u64));
        group.bench_function(format!("find, no match ({} KiB)", size >> 10), |b| {
            b.iter(|| matcher.find(black_box(&line)))
        });
    }
    group.finish();
}

/// What `--envelope auto` adds to a plain input: one detection on its first
/// lines (the scan is then the same as with `--envelope none`), against the
/// scan of the example log it is taken from.
fn detect(c: &mut Criterion) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let log = std::fs::read_to_string(dir.join("examples/nats-server.log")).expect("the example log");
    let catalog = Catalog::load(dir.join("data/nats-io/nats-server")).expect("the seed records load");
    assert_eq!(Envelope::detect(log.lines()), Envelope::None);
    let mut group = c.benchmark_group("detect");
    group.bench_function("detect (first lines of the plain example log)", |b| {
        b.iter(|| Envelope::detect(black_box(&log).lines()))
    });
    group.throughput(criterion::Throughput::Bytes(log.len() as u64));
    group.bench_function(format!("find_lines (the whole example log, {} bytes)", log.len()), |b| {
        b.iter(|| catalog.matcher().find_lines(black_box(&log), |_, found| drop(black_box(found))))
    });
    group.finish();
}

criterion_group!(benches, seeds, corpus, hostile, detect);
criterion_main!(benches);
