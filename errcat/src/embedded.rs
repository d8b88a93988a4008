//! The datasets compiled into errcat by `build.rs`: what it uses when no
//! `--data` is given.

use catalog_runtime::embed::EmbeddedDataset;
use error_catalog::Catalog;

/// The embedded datasets, in catalog order (see `build.rs`).
pub const DATASETS: &[EmbeddedDataset] = include!(concat!(env!("OUT_DIR"), "/embedded-datasets.rs"));

/// The compiled catalog of every embedded dataset, each entry named after
/// its dataset ([`Catalog::to_bytes`] by `build.rs`).
static CATALOG: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/embedded-catalog.bin"));

/// The catalog of the embedded datasets that `keep` keeps (by name), in
/// catalog order.
pub fn catalog(keep: impl Fn(&str) -> bool) -> Catalog {
    // Written by this build's own runtime: nothing else can be in the blob.
    let catalog = if DATASETS.iter().all(|dataset| keep(dataset.name)) {
        Catalog::from_static_bytes(CATALOG)
    } else {
        Catalog::from_static_bytes_retaining(CATALOG, |name| name.is_some_and(&keep))
    };
    catalog.expect("the embedded catalog is sound")
}

/// The names of the embedded datasets.
pub fn names() -> impl Iterator<Item = &'static str> {
    DATASETS.iter().map(|dataset| dataset.name)
}
