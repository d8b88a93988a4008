//! Micro-benchmarks of `parse` and `find` on single lines, with the seed
//! records and, when `../shared` is present, the 2,008-record corpus.
//!
//!     cargo bench -p catalog-runtime --bench matching

use std::hint::black_box;
use std::path::Path;

use catalog_runtime::Catalog;
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
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/corpus/nats-server");
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

criterion_group!(benches, seeds, corpus, hostile);
criterion_main!(benches);
