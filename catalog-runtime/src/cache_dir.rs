//! Where compiled catalogs are cached by default, for every program that
//! loads datasets at run time (`errcat --data`, Python's `Catalog.load`).

use std::path::PathBuf;

/// The cache directory of compiled catalogs: `$ERRCAT_CACHE_DIR`, else
/// `$XDG_CACHE_HOME/error-catalog` (an absolute `XDG_CACHE_HOME` only, as
/// the XDG specification says), else `~/.cache/error-catalog`; `None` when
/// none is set. Empty variables are unset.
pub fn default_cache_dir() -> Option<PathBuf> {
    let var = |name| std::env::var_os(name).filter(|value| !value.is_empty()).map(PathBuf::from);
    var("ERRCAT_CACHE_DIR")
        .or_else(|| var("XDG_CACHE_HOME").filter(|dir| dir.is_absolute()).map(|dir| dir.join("error-catalog")))
        .or_else(|| var("HOME").map(|home| home.join(".cache").join("error-catalog")))
}
