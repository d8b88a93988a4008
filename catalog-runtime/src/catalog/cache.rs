//! A compiled-catalog cache: the run-time counterpart of what the `#[catalog]`
//! macro precomputes at build time (think Python's `__pycache__`).
//!
//! Loading a dataset of thousands of records reads every file, parses its
//! JSON and compiles every message: far more than a command such as
//! `errcat explain` then spends on its work. [`Catalog::load_cached`] stores
//! the compiled entries, their origins and the warnings in one file, and
//! reuses them while the dataset is unchanged, which it tells by a stat of
//! each record file and of the names file, which decides the variant names
//! (no file is opened on a hit).
//!
//! A cache file is [`MAGIC`], a postcard-encoded [`Header`], the entries and
//! warnings, then the origins (apart, as they are decoded only when asked
//! for). The header holds the whole [`Fingerprint`], compared exactly (a hash
//! alone could collide), and a checksum of the rest, so a truncated or
//! damaged file is never decoded into wrong entries. Whatever goes wrong with
//! a cache (missing, damaged, stale, unreadable, unwritable) only means that
//! the records are loaded as without one.

use std::fs;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use serde::{Deserialize, Serialize};

use crate::build::Filter;
use crate::catalog::{Catalog, Compiled, LoadError, Origins};
use crate::dataset::{load_listed, record_files, Origin, NAMES_FILE};
use crate::diagnostic::Diagnostic;
use crate::model::Entry;

/// Starts every cache file. The last byte is the layout version: bump it when
/// a serialized type changes shape, so that older files are never misread.
const MAGIC: &[u8; 8] = b"errcat\x00\x04";

/// A file modified this recently may be modified again within the same mtime
/// tick without its stamp changing (git's "racily clean" problem), so a load
/// that saw one is not cached.
const RACY: Duration = Duration::from_secs(2);

/// What a cached load depends on.
#[derive(Debug, PartialEq, Serialize, Deserialize)]
struct Fingerprint {
    /// The crate version: another version may compile records differently.
    version: String,
    /// The directory as given: the origins' paths are spelled with it.
    dir: PathBuf,
    /// The directory itself.
    canonical: PathBuf,
    filter: Filter,
    /// Every record file, in load order.
    files: Vec<Stamp>,
    /// The names file, if the dataset has one: it pins variant names.
    names: Option<Stamp>,
}

/// A record file as its stat shows it.
#[derive(Debug, PartialEq, Serialize, Deserialize)]
struct Stamp {
    /// Below the directory.
    path: PathBuf,
    len: u64,
    /// Nanoseconds since the Unix epoch.
    mtime: i64,
    /// 0 where the platform has no inodes.
    inode: u64,
}

/// Written with a borrowed fingerprint, read with an owned one.
#[derive(Serialize, Deserialize)]
struct Header<F> {
    fingerprint: F,
    /// Length of the entries-and-warnings section; the origins follow it.
    entries_len: u64,
    /// [`checksum`] of both sections.
    checksum: u64,
}

/// A sound cache file's contents (not yet compared with the dataset).
#[derive(Debug, PartialEq)]
struct Hit {
    fingerprint: Fingerprint,
    entries: Vec<Entry>,
    diagnostics: Vec<Diagnostic>,
    /// The origins, still encoded.
    origins: Vec<u8>,
}

impl Catalog {
    /// [`Catalog::load_filtered`], with the compiled catalog cached in
    /// `cache_dir` and reused while no record file under `dir` has changed
    /// (same files, lengths, modification times and inodes). The results are
    /// those of `load_filtered`, warnings included; a problem with the cache
    /// is never an error, only a load from the files.
    pub fn load_cached(
        dir: impl AsRef<Path>,
        filter: &Filter,
        cache_dir: &Path,
    ) -> Result<(Catalog, Vec<Diagnostic>), LoadError> {
        let dir = dir.as_ref();
        let Ok(canonical) = fs::canonicalize(dir) else {
            // The loader reports the problem.
            return Catalog::load_filtered(dir, filter);
        };
        let path = cache_dir.join(file_name(dir, &canonical, filter));
        // A hit's two halves of the work, listing and stat'ing thousands of
        // record files and reading the cache into a catalog, run side by
        // side; the catalog is used only if it was made from the files found.
        let (listing, cached) = std::thread::scope(|scope| {
            let listing = scope.spawn(|| list(dir, canonical, filter));
            let cached = read(&path).map(|hit| {
                let origins = Origins::Encoded { bytes: hit.origins, decoded: OnceLock::new() };
                (hit.fingerprint, Catalog::with_origins(hit.entries, origins), hit.diagnostics)
            });
            (listing.join(), cached)
        });
        let Ok(Ok((paths, fingerprint))) = listing else {
            return Catalog::load_filtered(dir, filter);
        };
        let Ok(fingerprint) = fingerprint else {
            return Compiled::new(load_listed(dir, Ok(paths)), filter).map(Compiled::into_catalog);
        };
        if let Some((cached, catalog, warnings)) = cached {
            if cached == fingerprint {
                return Ok((catalog, warnings));
            }
        }
        // The stamps were taken before the files are read: a file that
        // changes in between is seen as changed by the next run.
        let compiled = Compiled::new(load_listed(dir, Ok(paths)), filter)?;
        if !racy(&fingerprint, SystemTime::now()) {
            // Best effort: a cache that cannot be written is not a problem.
            let _ = write(cache_dir, &path, &fingerprint, &compiled);
        }
        Ok(compiled.into_catalog())
    }
}

/// Starts the bytes of [`Catalog::to_bytes`]; the last byte is their layout
/// version.
const PACKED_MAGIC: &[u8; 8] = b"errcatC\x02";

impl Catalog {
    /// The compiled catalog as bytes (entries and origins, with the crate's
    /// version and a checksum), to be turned back into the same catalog by
    /// [`Catalog::from_bytes`] in another process without reading or
    /// compiling any record: for example broadcast once to the workers of a
    /// cluster.
    ///
    /// ```
    /// # use catalog_runtime::Catalog;
    /// let catalog = Catalog::load("../data/nats-io/nats-server").unwrap();
    /// let copy = Catalog::from_bytes(&catalog.to_bytes()).unwrap();
    /// assert_eq!(copy.entries(), catalog.entries());
    /// assert!(Catalog::from_bytes(b"not a catalog").is_none());
    /// ```
    pub fn to_bytes(&self) -> Vec<u8> {
        let origins: Vec<Option<&Origin>> = (0..self.len()).map(|index| self.origin(index)).collect();
        // Serializing owned, well-formed values into memory cannot fail.
        let body = postcard::to_allocvec(&(self.entries(), origins)).expect("a catalog serializes");
        let header = (env!("CARGO_PKG_VERSION"), checksum(&body));
        let mut bytes = PACKED_MAGIC.to_vec();
        bytes.extend(postcard::to_allocvec(&header).expect("a header serializes"));
        bytes.extend(body);
        bytes
    }

    /// The catalog that [`Catalog::to_bytes`] gave these bytes for, if they
    /// are whole, undamaged, and written by this version of the crate
    /// (another version may compile records differently); `None` otherwise.
    pub fn from_bytes(bytes: &[u8]) -> Option<Catalog> {
        let rest = bytes.strip_prefix(PACKED_MAGIC)?;
        let ((version, sum), body) = postcard::take_from_bytes::<(&str, u64)>(rest).ok()?;
        if version != env!("CARGO_PKG_VERSION") || checksum(body) != sum {
            return None;
        }
        let Ok(((entries, origins), [])) = postcard::take_from_bytes::<(Vec<Entry>, Vec<Option<Origin>>)>(body) else {
            return None;
        };
        if origins.len() != entries.len() {
            return None;
        }
        Some(Catalog::with_origins(entries, Origins::Decoded(origins)))
    }
}

/// The origins of a cache hit, decoded. Cannot fail on bytes whose checksum
/// matched; if it did, the origins would be unknown rather than a panic.
pub(crate) fn decode_origins(bytes: &[u8]) -> Vec<Option<Origin>> {
    let origins: Vec<Origin> = postcard::from_bytes(bytes).unwrap_or_default();
    origins.into_iter().map(Some).collect()
}

/// The record files under `dir` (as the loader finds them), and their
/// fingerprint if every file could be stat'ed.
fn list(dir: &Path, canonical: PathBuf, filter: &Filter) -> Result<(Vec<PathBuf>, io::Result<Fingerprint>), String> {
    let files = record_files(dir)?;
    let stamps = files.iter().map(|file| stamp(dir, file)).collect::<io::Result<_>>();
    let fingerprint = stamps.and_then(|files| {
        Ok(Fingerprint {
            version: env!("CARGO_PKG_VERSION").to_owned(),
            dir: dir.to_owned(),
            canonical,
            filter: filter.clone(),
            files,
            names: names_stamp(dir)?,
        })
    });
    Ok((files.iter().map(fs::DirEntry::path).collect(), fingerprint))
}

fn stamp(dir: &Path, file: &fs::DirEntry) -> io::Result<Stamp> {
    let path = file.path();
    // The entry's own stat is relative to its open directory (no path
    // lookup), but does not follow a symbolic link.
    let metadata = if file.file_type()?.is_symlink() { fs::metadata(&path)? } else { file.metadata()? };
    stamp_of(dir, path, &metadata)
}

/// The names file's stamp, `None` when there is none (as the loader sees it:
/// a file by that name).
fn names_stamp(dir: &Path) -> io::Result<Option<Stamp>> {
    let path = dir.join(NAMES_FILE);
    match fs::metadata(&path) {
        Ok(metadata) if metadata.is_file() => stamp_of(dir, path, &metadata).map(Some),
        Ok(_) => Ok(None),
        Err(err) if err.kind() == io::ErrorKind::NotFound => Ok(None),
        Err(err) => Err(err),
    }
}

fn stamp_of(dir: &Path, path: PathBuf, metadata: &fs::Metadata) -> io::Result<Stamp> {
    let mtime = match metadata.modified()?.duration_since(UNIX_EPOCH) {
        Ok(after) => i64::try_from(after.as_nanos()),
        Err(before) => i64::try_from(before.duration().as_nanos()).map(|n| -n),
    }
    .map_err(io::Error::other)?;
    #[cfg(unix)]
    let inode = std::os::unix::fs::MetadataExt::ino(metadata);
    #[cfg(not(unix))]
    let inode = 0;
    let path = path.strip_prefix(dir).map_or_else(|_| path.clone(), Path::to_owned);
    Ok(Stamp { path, len: metadata.len(), mtime, inode })
}

/// Whether a file was modified within [`RACY`] of `now` (or after it).
fn racy(fingerprint: &Fingerprint, now: SystemTime) -> bool {
    let Ok(now) = now.duration_since(UNIX_EPOCH) else {
        return true;
    };
    let limit = i128::try_from(now.saturating_sub(RACY).as_nanos()).unwrap_or(i128::MAX);
    fingerprint.files.iter().chain(&fingerprint.names).any(|file| i128::from(file.mtime) >= limit)
}

/// One file per dataset directory and filter, whatever its contents; a new
/// load of the same dataset replaces it.
fn file_name(dir: &Path, canonical: &Path, filter: &Filter) -> String {
    let key = (dir, canonical, filter);
    let bytes = postcard::to_allocvec(&key).unwrap_or_else(|_| format!("{key:?}").into_bytes());
    format!("catalog-{:016x}.bin", checksum(&bytes))
}

/// The cache in `path`, if it is sound: whole, undamaged, of this layout.
fn read(path: &Path) -> Option<Hit> {
    let mut bytes = fs::read(path).ok()?;
    let rest = bytes.strip_prefix(MAGIC)?;
    let (header, rest) = postcard::take_from_bytes::<Header<Fingerprint>>(rest).ok()?;
    if checksum(rest) != header.checksum {
        return None;
    }
    let (entries, origins) = rest.split_at_checked(usize::try_from(header.entries_len).ok()?)?;
    let Ok(((entries, diagnostics), [])) = postcard::take_from_bytes::<(Vec<Entry>, Vec<Diagnostic>)>(entries) else {
        return None;
    };
    // The origins stay in the file's buffer, moved to its start.
    let origins_start = bytes.len() - origins.len();
    bytes.drain(..origins_start);
    Some(Hit { fingerprint: header.fingerprint, entries, diagnostics, origins: bytes })
}

/// Writes the cache through a temporary file and a rename, so that a reader
/// never sees half a file.
fn write(cache_dir: &Path, path: &Path, fingerprint: &Fingerprint, compiled: &Compiled) -> io::Result<()> {
    let mut sections = postcard::to_allocvec(&(&compiled.entries, &compiled.diagnostics)).map_err(io::Error::other)?;
    let entries_len = sections.len() as u64;
    sections.extend(postcard::to_allocvec(&compiled.origins).map_err(io::Error::other)?);
    let header = Header { fingerprint, entries_len, checksum: checksum(&sections) };
    let mut bytes = MAGIC.to_vec();
    bytes.extend(postcard::to_allocvec(&header).map_err(io::Error::other)?);
    bytes.extend(sections);
    fs::create_dir_all(cache_dir)?;
    let unique = SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |t| t.as_nanos());
    let temporary = cache_dir.join(format!(".tmp-{}-{unique}", std::process::id()));
    let written = fs::write(&temporary, &bytes).and_then(|()| fs::rename(&temporary, path));
    if written.is_err() {
        let _ = fs::remove_file(&temporary);
    }
    written
}

/// FNV-1a over 64-bit words (then the last bytes): stable across Rust
/// versions and platforms, unlike `DefaultHasher`, and fast enough to check
/// megabytes at every start. It catches damage, not tampering: the cache
/// directory is the user's own.
fn checksum(bytes: &[u8]) -> u64 {
    const PRIME: u64 = 0x0000_0100_0000_01b3;
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    let mut words = bytes.chunks_exact(8);
    for word in &mut words {
        let word = u64::from_le_bytes(word.try_into().expect("chunks of 8 bytes"));
        hash = (hash ^ word).wrapping_mul(PRIME);
    }
    for &byte in words.remainder() {
        hash = (hash ^ u64::from(byte)).wrapping_mul(PRIME);
    }
    hash
}

#[cfg(test)]
mod tests {
    use std::fs::File;

    use crate::test_support as support;

    use super::*;
    use crate::model::Severity;

    /// A directory under the system's temporary directory, removed on drop.
    struct TempDir(PathBuf);

    impl TempDir {
        fn new(name: &str) -> TempDir {
            let unique = SystemTime::now().duration_since(UNIX_EPOCH).unwrap().as_nanos();
            let dir = std::env::temp_dir().join(format!("catalog-cache-{name}-{}-{unique}", std::process::id()));
            fs::create_dir_all(&dir).unwrap();
            TempDir(dir)
        }
    }

    impl Drop for TempDir {
        fn drop(&mut self) {
            let _ = fs::remove_dir_all(&self.0);
        }
    }

    /// A long time ago, so that files are not racily clean.
    fn an_hour_ago() -> SystemTime {
        SystemTime::now() - Duration::from_secs(3600)
    }

    /// Writes `text` to `path` with `mtime`, in place (the inode stays).
    fn write_at(path: &Path, text: &str, mtime: SystemTime) {
        fs::write(path, text).unwrap();
        File::options().write(true).open(path).unwrap().set_modified(mtime).unwrap();
    }

    fn record(id: &str, message: &str, severity: &str) -> String {
        format!(
            r#"{{"record": {{"id": "{id}", "errorMessage": "{message}", "severity": "{severity}", "filePath": "server/x.go", "tags": ["t"]}}}}"#
        )
    }

    /// A dataset of three records (one in a subdirectory), all an hour old.
    fn dataset() -> TempDir {
        let dir = TempDir::new("data");
        fs::create_dir(dir.0.join("sub")).unwrap();
        write_at(&dir.0.join("a.json"), &record("a1", "stream %s failed: %v", "error"), an_hour_ago());
        write_at(&dir.0.join("b.json"), &record("b2", "limit %d reached", "warning"), an_hour_ago());
        write_at(&dir.0.join("sub/c.json"), &record("c3", "closed %q", "error"), an_hour_ago());
        dir
    }

    /// Everything a load gives, comparable.
    fn summary(result: Result<(Catalog, Vec<Diagnostic>), LoadError>) -> String {
        let (catalog, diagnostics) = result.unwrap();
        let origins: Vec<_> = (0..catalog.len()).map(|i| catalog.origin(i).cloned()).collect();
        format!("{:#?}\n{origins:#?}\n{diagnostics:#?}", catalog.entries())
    }

    fn cache_files(cache: &Path) -> Vec<PathBuf> {
        let Ok(entries) = fs::read_dir(cache) else {
            return Vec::new();
        };
        let mut files: Vec<PathBuf> = entries.map(|e| e.unwrap().path()).collect();
        files.sort();
        files
    }

    fn fingerprint_of(dir: &Path, filter: &Filter) -> Fingerprint {
        list(dir, fs::canonicalize(dir).unwrap(), filter).unwrap().1.unwrap()
    }

    fn cache_file(dir: &Path, filter: &Filter, cache: &Path) -> PathBuf {
        cache.join(file_name(dir, &fs::canonicalize(dir).unwrap(), filter))
    }

    /// The cache file of `dir` loaded with `filter`, if it is a sound hit.
    fn cached(dir: &Path, filter: &Filter, cache: &Path) -> Option<Hit> {
        read(&cache_file(dir, filter, cache)).filter(|hit| hit.fingerprint == fingerprint_of(dir, filter))
    }

    /// Loads `dir` fresh and through the cache (twice: written, then read)
    /// and checks that all three agree and that the cache is a hit.
    fn assert_hit_equals_fresh(dir: &Path, filter: &Filter) {
        let cache = TempDir::new("cache");
        let fresh = summary(Catalog::load_filtered(dir, filter));
        let first = summary(Catalog::load_cached(dir, filter, &cache.0));
        assert!(cached(dir, filter, &cache.0).is_some(), "the first load writes the cache");
        let second = summary(Catalog::load_cached(dir, filter, &cache.0));
        assert_eq!(first, fresh);
        assert_eq!(second, fresh);
    }

    #[test]
    fn a_hit_gives_what_a_fresh_load_gives_on_the_seeds() {
        let seeds = Path::new(env!("CARGO_MANIFEST_DIR")).join("../data/nats-io/nats-server");
        // Copied with old mtimes: a fresh checkout's files are racily clean.
        let dir = TempDir::new("seeds");
        for entry in fs::read_dir(&seeds).unwrap() {
            let path = entry.unwrap().path();
            let text = fs::read_to_string(&path).unwrap();
            write_at(&dir.0.join(path.file_name().unwrap()), &text, an_hour_ago());
        }
        assert_hit_equals_fresh(&dir.0, &Filter::default());
    }

    #[test]
    fn a_hit_gives_what_a_fresh_load_gives_on_the_corpus() {
        let Some(corpus) = support::corpus("nats-server", "a_hit_gives_what_a_fresh_load_gives_on_the_corpus") else {
            return;
        };
        assert_hit_equals_fresh(&corpus, &Filter::default());
    }

    #[test]
    fn a_hit_reads_no_record_file() {
        let data = dataset();
        let cache = TempDir::new("cache");
        let before = summary(Catalog::load_cached(&data.0, &Filter::default(), &cache.0));
        // Same length, same mtime, same inode: only reading would tell.
        let path = data.0.join("a.json");
        let mtime = fs::metadata(&path).unwrap().modified().unwrap();
        write_at(&path, &record("a1", "stream %s FAILED: %v", "error"), mtime);
        let after = summary(Catalog::load_cached(&data.0, &Filter::default(), &cache.0));
        assert_eq!(after, before);
        assert!(!after.contains("FAILED"));
    }

    /// Loads `data` through `cache` and checks the result against a fresh load.
    fn load_and_compare(data: &Path, cache: &Path) -> String {
        let cached = summary(Catalog::load_cached(data, &Filter::default(), cache));
        assert_eq!(cached, summary(Catalog::load_filtered(data, &Filter::default())));
        cached
    }

    #[test]
    fn an_edited_file_invalidates_the_cache() {
        let data = dataset();
        let cache = TempDir::new("cache");
        load_and_compare(&data.0, &cache.0);
        let path = data.0.join("b.json");
        // Longer, with the same mtime.
        let mtime = fs::metadata(&path).unwrap().modified().unwrap();
        write_at(&path, &record("b2", "limit %d reached!", "warning"), mtime);
        assert!(load_and_compare(&data.0, &cache.0).contains("limit %d reached!"));
        // Same length, another mtime.
        write_at(&path, &record("b2", "limit %d REACHED!", "warning"), an_hour_ago() + Duration::from_secs(1));
        assert!(load_and_compare(&data.0, &cache.0).contains("limit %d REACHED!"));
    }

    #[test]
    fn an_added_or_removed_file_invalidates_the_cache() {
        let data = dataset();
        let cache = TempDir::new("cache");
        load_and_compare(&data.0, &cache.0);
        write_at(&data.0.join("sub/d.json"), &record("d4", "disk %s full", "fatal"), an_hour_ago());
        assert!(load_and_compare(&data.0, &cache.0).contains("disk %s full"));
        fs::remove_file(data.0.join("a.json")).unwrap();
        assert!(!load_and_compare(&data.0, &cache.0).contains("stream %s failed"));
    }

    #[test]
    fn a_names_file_added_edited_or_removed_invalidates_the_cache() {
        let data = dataset();
        let cache = TempDir::new("cache");
        let rule_names = load_and_compare(&data.0, &cache.0);
        assert!(rule_names.contains("name: \"Stream\","), "{rule_names}");
        let names = data.0.join(NAMES_FILE);
        write_at(&names, "a1 StreamBroke\n", an_hour_ago());
        assert!(load_and_compare(&data.0, &cache.0).contains("\"StreamBroke\""));
        // Same length, same mtime: only the inode or a read would tell, and a
        // rewrite in place keeps the inode, so the mtime moves here.
        write_at(&names, "a1 StreamFails\n", an_hour_ago() + Duration::from_secs(1));
        assert!(load_and_compare(&data.0, &cache.0).contains("\"StreamFails\""));
        fs::remove_file(&names).unwrap();
        assert_eq!(load_and_compare(&data.0, &cache.0), rule_names);
    }

    #[test]
    fn a_damaged_cache_file_is_ignored_and_replaced() {
        let data = dataset();
        let cache = TempDir::new("cache");
        let expected = load_and_compare(&data.0, &cache.0);
        let [file] = &cache_files(&cache.0)[..] else { panic!("one cache file") };
        let sound = fs::read(file).unwrap();
        let mut flipped = sound.clone();
        *flipped.last_mut().unwrap() ^= 0x20;
        let damages = [sound[..sound.len() / 2].to_vec(), flipped, b"errcat".to_vec(), Vec::new()];
        for damaged in damages {
            fs::write(file, &damaged).unwrap();
            assert!(cached(&data.0, &Filter::default(), &cache.0).is_none());
            assert_eq!(load_and_compare(&data.0, &cache.0), expected);
            assert_eq!(fs::read(file).unwrap(), sound, "the load writes the cache anew");
        }
    }

    #[test]
    fn a_recently_modified_file_prevents_writing() {
        let data = dataset();
        let cache = TempDir::new("cache");
        write_at(&data.0.join("b.json"), &record("b2", "limit %d reached", "warning"), SystemTime::now());
        load_and_compare(&data.0, &cache.0);
        assert!(cache_files(&cache.0).is_empty());
    }

    #[test]
    fn racy_means_within_two_seconds_of_now_or_later() {
        let now = UNIX_EPOCH + Duration::from_secs(1_000_000);
        let at = |millis_before: i64| Fingerprint {
            version: String::new(),
            dir: PathBuf::new(),
            canonical: PathBuf::new(),
            filter: Filter::default(),
            files: vec![Stamp {
                path: "a.json".into(),
                len: 1,
                mtime: 1_000_000 * 1_000_000_000 - millis_before * 1_000_000,
                inode: 1,
            }],
            names: None,
        };
        assert!(racy(&at(-5000), now));
        assert!(racy(&at(0), now));
        assert!(racy(&at(1999), now));
        assert!(!racy(&at(2001), now));
        assert!(!racy(&at(3_600_000), now));
    }

    #[test]
    fn each_filter_has_its_own_cache() {
        let data = dataset();
        let cache = TempDir::new("cache");
        let warnings = Filter { severities: vec![Severity::Warning], ..Filter::default() };
        for filter in [Filter::default(), warnings.clone(), Filter::default(), warnings] {
            let cached = summary(Catalog::load_cached(&data.0, &filter, &cache.0));
            assert_eq!(cached, summary(Catalog::load_filtered(&data.0, &filter)));
            assert!(cached.contains("limit %d reached"));
            assert_eq!(cached.contains("stream %s failed"), filter.severities.is_empty());
        }
        assert_eq!(cache_files(&cache.0).len(), 2);
    }

    #[test]
    fn errors_are_not_cached() {
        let data = dataset();
        let cache = TempDir::new("cache");
        write_at(&data.0.join("bad.json"), "{\"record\": {\"id\": 5}}", an_hour_ago());
        let err = Catalog::load_cached(&data.0, &Filter::default(), &cache.0).unwrap_err();
        assert_eq!(err.diagnostics, Catalog::load(&data.0).unwrap_err().diagnostics);
        assert!(cache_files(&cache.0).is_empty());
    }

    #[test]
    fn bytes_give_back_the_same_catalog() {
        let data = dataset();
        let (catalog, _) = Catalog::load_filtered(&data.0, &Filter::default()).unwrap();
        let bytes = catalog.to_bytes();
        let copy = Catalog::from_bytes(&bytes).unwrap();
        assert_eq!(copy.entries(), catalog.entries());
        for index in 0..catalog.len() {
            assert_eq!(copy.origin(index), catalog.origin(index));
        }
        let line = "[1] [ERR] stream orders failed: disk";
        assert_eq!(copy.find(line), catalog.find(line));
        // Ready entries have no origins, and keep none.
        let ready = Catalog::from_entries(catalog.entries().to_vec());
        let copy = Catalog::from_bytes(&ready.to_bytes()).unwrap();
        assert_eq!(copy.entries(), catalog.entries());
        assert!(copy.origin(0).is_none());
    }

    #[test]
    fn damaged_bytes_give_no_catalog() {
        let data = dataset();
        let bytes = Catalog::load(&data.0).unwrap().to_bytes();
        let mut flipped = bytes.clone();
        *flipped.last_mut().unwrap() ^= 0x01;
        let mut longer = bytes.clone();
        longer.push(0);
        for damaged in [&bytes[..bytes.len() / 2], &flipped[..], &longer[..], b"errcatC\x02", &[][..]] {
            assert!(Catalog::from_bytes(damaged).is_none());
        }
        // Another version's bytes are refused.
        let body = &bytes[PACKED_MAGIC.len()..];
        let ((_, sum), rest) = postcard::take_from_bytes::<(&str, u64)>(body).unwrap();
        let mut other = PACKED_MAGIC.to_vec();
        other.extend(postcard::to_allocvec(&("0.0.0-other", sum)).unwrap());
        other.extend(rest);
        assert!(Catalog::from_bytes(&other).is_none());
    }

    #[test]
    fn warnings_come_back_in_order() {
        // The loader makes no warnings today; the cache keeps them all the same.
        let data = dataset();
        let cache = TempDir::new("cache");
        let fingerprint = fingerprint_of(&data.0, &Filter::default());
        let mut compiled = Compiled::new(crate::dataset::load_dir(&data.0), &Filter::default()).unwrap();
        let warning = |field: &str| compiled.origins[0].error(field, "odd").warning();
        compiled.diagnostics = vec![warning("tags"), warning("id"), warning("severity")];
        let path = cache_file(&data.0, &Filter::default(), &cache.0);
        write(&cache.0, &path, &fingerprint, &compiled).unwrap();
        let hit = read(&path).unwrap();
        assert_eq!(hit.fingerprint, fingerprint);
        assert_eq!((&hit.entries, &hit.diagnostics), (&compiled.entries, &compiled.diagnostics));
        let origins: Vec<Option<Origin>> = compiled.origins.into_iter().map(Some).collect();
        assert_eq!(decode_origins(&hit.origins), origins);
    }
}
