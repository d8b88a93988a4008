//! The datasets `build.rs` compiled into the package: `Catalog.embedded()`
//! and `error_catalog.datasets()`, as `errcat`'s default catalog and `errcat
//! datasets` give them.

use catalog_runtime::embed::EmbeddedDataset;
use catalog_runtime::Catalog as Engine;

/// The embedded datasets, in catalog order.
pub const DATASETS: &[EmbeddedDataset] = include!(concat!(env!("OUT_DIR"), "/embedded-datasets.rs"));

/// The compiled catalog of every embedded dataset, each entry named after its dataset.
static CATALOG: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/embedded-catalog.bin"));

/// The catalog of the embedded datasets in `chosen` (all when `None`), in
/// catalog order; an unknown name is an error that lists the known ones.
pub fn catalog(chosen: Option<&[String]>) -> Result<Engine, String> {
    let Some(chosen) = chosen else {
        return Ok(Engine::from_static_bytes(CATALOG).expect("the embedded catalog is sound"));
    };
    if let Some(unknown) = chosen.iter().find(|name| !DATASETS.iter().any(|dataset| dataset.name == *name)) {
        let names: Vec<&str> = DATASETS.iter().map(|dataset| dataset.name).collect();
        return Err(format!("no dataset is called {unknown:?}; one of {}", names.join(", ")));
    }
    let keep = |name: Option<&str>| name.is_some_and(|name| chosen.iter().any(|chosen| chosen == name));
    // Written by this build's own runtime: nothing else can be in the blob.
    Ok(Engine::from_static_bytes_retaining(CATALOG, keep).expect("the embedded catalog is sound"))
}
