//! The published crates used as a user would: the attribute on a record
//! directory of this crate's own, the derive, the embedded catalog and the
//! run-time loader.

/// One variant per record under `data/` (relative to this crate's Cargo.toml).
#[error_catalog::catalog(path = "data")]
pub enum OwnError {}

/// A few records imported into an enum of one's own, with typed fields.
#[derive(Debug, PartialEq, error_catalog::Catalog)]
#[catalog(path = "data")]
pub enum Persist {
    #[catalog(slug = "unable-to-persist-session-q-seq-v-v")]
    Session { ps_id: String, seq: u64, err: String },
    #[catalog(other)]
    Unknown(String),
}

/// The directory of this crate's records, for the run-time loader.
pub fn data_dir() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("data")
}
