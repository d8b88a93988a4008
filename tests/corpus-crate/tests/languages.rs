#![cfg_attr(not(any(has_nodejs_node, has_django, has_cargo, has_kafka)), allow(dead_code, unused_imports))]
//! The macro applied to the JavaScript, Python, Rust and Java corpora: each
//! generated enum has the entries the run-time loader builds (same names,
//! same templates), and every variant's `Display` of its sample values
//! parses back through the generated `parse` to a record at least as
//! specific that renders the same message.

#[path = "../../support/corpus.rs"]
mod corpus;

use error_catalog::{Catalog, CatalogEnum};

fn check<E: CatalogEnum + std::fmt::Display>(name: &str, test: &str) {
    let Some(dir) = corpus::corpus(name, test) else {
        return;
    };
    let catalog = Catalog::load(&dir).expect("the corpus loads without errors");
    assert_eq!(catalog.len(), E::COUNT, "{name}: one variant per record");
    for (loaded, compiled) in catalog.entries().iter().zip(E::entries()) {
        assert_eq!(loaded.name, compiled.name);
        assert_eq!(loaded.template, compiled.template, "{}", compiled.name);
    }
    let entries = E::entries();
    let rank = |index: usize| (std::cmp::Reverse(entries[index].template.literal_len), index);
    let mut failures = Vec::new();
    for (index, entry) in entries.iter().enumerate() {
        let error = E::from_values(index, entry.template.sample_values()).expect("sample values fit the variant");
        let message = error.to_string();
        match E::parse(&message) {
            Some(parsed) if rank(parsed.index()) <= rank(index) && parsed.to_string() == message => {}
            Some(parsed) => failures.push(format!("{}: {message:?} parsed as {}", entry.name, parsed.metadata().name)),
            None => failures.push(format!("{}: {message:?} does not parse", entry.name)),
        }
    }
    assert!(failures.is_empty(), "{name}: {} record(s) failed:\n{}", failures.len(), failures.join("\n"));
}

#[test]
#[cfg_attr(not(has_nodejs_node), ignore = "the nodejs-node corpus was absent when this crate was built")]
fn nodejs_node() {
    #[cfg(has_nodejs_node)]
    check::<corpus_crate::languages::NodeError>("nodejs-node", "nodejs_node");
}

#[test]
#[cfg_attr(not(has_django), ignore = "the django corpus was absent when this crate was built")]
fn django() {
    #[cfg(has_django)]
    check::<corpus_crate::languages::DjangoError>("django", "django");
}

#[test]
#[cfg_attr(not(has_cargo), ignore = "the cargo corpus was absent when this crate was built")]
fn cargo() {
    #[cfg(has_cargo)]
    check::<corpus_crate::languages::CargoError>("cargo", "cargo");
}

#[test]
#[cfg_attr(not(has_kafka), ignore = "the kafka corpus was absent when this crate was built")]
fn kafka() {
    #[cfg(has_kafka)]
    check::<corpus_crate::languages::KafkaError>("kafka", "kafka");
}
