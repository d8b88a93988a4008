//! A compiled-catalog cache: the run-time counterpart of what the `#[catalog]`
//! macro precomputes at build time (think Python's `__pycache__`).
//!
//! Loading a dataset of thousands of records reads every file, parses its
//! JSON and compiles every message: far more than a command such as
//! `errcat explain` then spends on its work. [`Catalog::load_cached`] stores
//! the compiled entries, their origins, the warnings and the matcher's
//! [`Index`] in one file, and reuses them while the dataset is unchanged,
//! which it tells by a stat of each record file, of each directory walked
//! and of the names file, which decides the variant names (no record file
//! is opened, nor any directory listed, on a hit).
//!
//! A hit must not cost more than the few entries it uses: the file is
//! mapped, not read; its entries are encoded one by one, found by a table of
//! offsets, and decoded on first use (see [`Slots`]); the matcher is built
//! from the stored index without looking at any template. The stats, the
//! part that grows with the dataset and is the kernel's, run on several
//! threads while the catalog is set up.
//!
//! A cache file is [`MAGIC`], a checksum, the length of each section, then
//! the sections: the postcard-encoded [`Fingerprint`] (compared exactly: a
//! hash alone could collide), the record files' stamps and paths (see
//! [`FileTable`]), the warnings, the index, each entry's end offset and
//! checksum, the lookup orders (see [`order`]), the origins' checksum, then
//! the origins and the entries. The file's checksum covers everything
//! before the origins and is verified
//! before anything decoded from the file is used; the origins' own is
//! verified when they are first asked for, and each entry's when the entry
//! is first decoded (see [`Recovery`]), so that a hit reads no more than it
//! uses (checking all the entries took a sixth of the start-up at 20,000
//! records, the origins a thirtieth, measured). A truncated or damaged file is
//! never decoded into wrong entries. Whatever goes wrong with a cache
//! (missing, damaged, stale, unreadable, unwritable) only means that the
//! records are loaded as without one; an entry, or the origins, found
//! damaged once the catalog is in use are taken from the records loaded
//! again, and only if they changed in the meantime does the program panic,
//! saying so (see [`Recovery`]).

use std::borrow::Cow;
use std::fs;
use std::io::{self, Read};
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use serde::{Deserialize, Serialize};

use crate::build::Filter;
use crate::catalog::{Catalog, Compiled, Key, LoadError, Origins};
use crate::dataset::{load_listed, record_files_and_dirs, Origin, NAMES_FILE};
use crate::diagnostic::Diagnostic;
use crate::matcher::{Index, Lazy, Matcher, Slots};
use crate::model::Entry;

/// Starts every cache file. The last byte is the layout version: bump it when
/// the layout or a serialized type changes shape, or the order that
/// [`Key::order`] sorts by, so that older files are never misread.
const MAGIC: &[u8; 8] = b"errcat\x00\x08";

/// The sections of a cache file, in order.
const FINGERPRINT: usize = 0;
/// The record files' stamps (see [`FileTable`]), then their paths.
const FILES: usize = 1;
const FILE_PATHS: usize = 2;
const WARNINGS: usize = 3;
const INDEX: usize = 4;
/// The end of each entry in [`ENTRIES`] and the [`checksum`] of its bytes,
/// little-endian `u64`s: see [`ENTRY_ROW`].
const ENTRY_ENDS: usize = 5;
/// The entries' indexes sorted by id, by slug and by name: see [`order`].
const ORDERS: usize = 6;
/// The [`checksum`] of [`ORIGINS`], a little-endian `u64`.
const ORIGINS_CHECKSUM: usize = 7;
/// The first section the file's checksum does not cover (see [`LazyOrigins`]).
const ORIGINS: usize = 8;
const ENTRIES: usize = 9;
const SECTIONS: usize = 10;

/// The bytes of one entry's row in [`ENTRY_ENDS`].
const ENTRY_ROW: usize = 16;

/// The magic, the checksum, and the length of each section.
const HEADER: usize = MAGIC.len() + 8 + 8 * SECTIONS;

/// A file modified this recently may be modified again within the same mtime
/// tick without its stamp changing (git's "racily clean" problem), so a load
/// that saw one is not cached.
const RACY: Duration = Duration::from_secs(2);

/// The fewest record files worth a thread of their own to stat: a thread
/// costs tens of microseconds to start, a stat one or two.
const STATS_PER_THREAD: usize = 256;

/// The record files that a thread stats at a time (see [`hit`]).
const STATS_PER_BLOCK: usize = 64;

/// What a cached load depends on. Paths are text: a dataset with a path
/// that is not Unicode is not cached.
#[derive(Debug, PartialEq, Serialize, Deserialize)]
struct Fingerprint<'a> {
    /// The crate version: another version may compile records differently.
    #[serde(borrow)]
    version: Cow<'a, str>,
    /// The directory as given: the origins' paths are spelled with it.
    #[serde(borrow)]
    dir: Cow<'a, str>,
    /// The directory itself.
    #[serde(borrow)]
    canonical: Cow<'a, str>,
    filter: Filter,
    /// Every directory walked, the dataset's own first (path `""`). While
    /// none has changed, the record files are the ones in `files`: adding,
    /// removing or renaming an entry changes its directory.
    #[serde(borrow)]
    dirs: Vec<Stamp<'a>>,
    /// Every record file, in load order. Stored apart, in a table that is
    /// read where it lies (see [`FileTable`]): decoding thousands of stamps
    /// would delay the threads that stat them.
    #[serde(skip)]
    files: Vec<Stamp<'a>>,
    /// The names file, if the dataset has one: it pins variant names.
    #[serde(borrow)]
    names: Option<Stamp<'a>>,
}

/// A file or directory as its stat shows it.
#[derive(Debug, PartialEq, Serialize, Deserialize)]
struct Stamp<'a> {
    /// Below the dataset's directory.
    #[serde(borrow)]
    path: Cow<'a, str>,
    meta: Meta,
}

/// What a stat tells of a file's contents: a rewrite in place changes the
/// length or the modification time, a replacement the inode.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
struct Meta {
    len: u64,
    /// Nanoseconds since the Unix epoch.
    mtime: i64,
    /// 0 where the platform has no inodes.
    inode: u64,
}

/// A cache file's bytes: mapped, or read where mapping fails.
#[derive(Debug)]
enum Mapped {
    Map(memmap2::Mmap),
    Read(Vec<u8>),
}

impl std::ops::Deref for Mapped {
    type Target = [u8];

    fn deref(&self) -> &[u8] {
        match self {
            Mapped::Map(map) => map,
            Mapped::Read(bytes) => bytes,
        }
    }
}

/// A section of a cache file, kept to be decoded later.
#[derive(Debug)]
pub(crate) struct Bytes {
    file: Arc<Mapped>,
    range: Range<usize>,
}

impl AsRef<[u8]> for Bytes {
    fn as_ref(&self) -> &[u8] {
        &self.file[self.range.clone()]
    }
}

/// A cache file with its sections found, not yet checked against its
/// checksum.
struct CacheFile {
    bytes: Arc<Mapped>,
    checksum: u64,
    sections: [Range<usize>; SECTIONS],
}

impl CacheFile {
    /// The cache file at `path`, if it has this layout.
    fn open(path: &Path) -> Option<CacheFile> {
        let file = fs::File::open(path).ok()?;
        // SAFETY: the mapping is sound as long as the file is not changed
        // while it is mapped (its bytes would change under shared
        // references; a truncation would make reading them fault). A cache
        // file is never changed: it is written whole under a temporary name
        // and renamed into place (see `write`), so a new cache replaces the
        // file's name, not its contents, and this mapping keeps the old
        // file's bytes until it is dropped. (Only a user truncating or
        // editing the file in place, behind the cache's back, could.) Not
        // populated up front: the stats need only the first pages, the
        // checksum those before the origins, and the origins and each entry
        // are read when first used.
        let bytes = match unsafe { memmap2::MmapOptions::new().map(&file) } {
            Ok(map) => Mapped::Map(map),
            // An empty file cannot be mapped, nor can some file systems'.
            Err(_) => {
                let mut bytes = Vec::new();
                (&file).read_to_end(&mut bytes).ok()?;
                Mapped::Read(bytes)
            }
        };
        let header = bytes.get(..HEADER)?;
        if !header.starts_with(MAGIC) {
            return None;
        }
        let checksum = word(header, MAGIC.len())?;
        let mut end = HEADER;
        let mut sections = [0; SECTIONS].map(|_| 0..0);
        for (number, section) in sections.iter_mut().enumerate() {
            let len = usize::try_from(word(header, MAGIC.len() + 8 + 8 * number)?).ok()?;
            *section = end..end.checked_add(len)?;
            end = section.end;
        }
        (end == bytes.len()).then(|| CacheFile { bytes: Arc::new(bytes), checksum, sections })
    }

    fn section(&self, number: usize) -> &[u8] {
        &self.bytes[self.sections[number].clone()]
    }

    /// Whether the file is as written, but for the origins and the entries
    /// (checked when first used): checked before anything decoded from it
    /// is used (the fingerprint may be compared first: a damaged one
    /// differs, or fails to decode, or names files that are stat'ed for
    /// nothing).
    fn sound(&self) -> bool {
        checksum(&self.bytes[MAGIC.len() + 8..self.sections[ORIGINS].start]) == self.checksum
    }

    /// The fingerprint, without its files: see [`files`](Self::files).
    fn fingerprint(&self) -> Option<Fingerprint<'_>> {
        postcard::from_bytes(self.section(FINGERPRINT)).ok()
    }

    fn files(&self) -> FileTable<'_> {
        FileTable { table: self.section(FILES), paths: self.section(FILE_PATHS) }
    }

    /// The catalog and the warnings, if the file is sound; entries are
    /// decoded on first use, through `recovery` if one is damaged.
    fn catalog(&self, recovery: Recovery) -> Option<(Catalog, Vec<Diagnostic>)> {
        if !self.sound() {
            return None;
        }
        let warnings: Vec<Diagnostic> = postcard::from_bytes(self.section(WARNINGS)).ok()?;
        let index: Index = postcard::from_bytes(self.section(INDEX)).ok()?;
        let ends = self.section(ENTRY_ENDS);
        let count = ends.len() / ENTRY_ROW;
        let mut start = 0;
        let ascending = (0..count).all(|entry| {
            let end = word(ends, entry * ENTRY_ROW).unwrap_or(u64::MAX);
            let ok = start <= end;
            start = end;
            ok
        });
        let entries_len = self.sections[ENTRIES].len() as u64;
        if !ends.len().is_multiple_of(ENTRY_ROW) || !ascending || start != entries_len || !index.fits(count) {
            return None;
        }
        let origins_checksum =
            Some(self.section(ORIGINS_CHECKSUM)).filter(|sum| sum.len() == 8).and_then(|sum| word(sum, 0))?;
        let recovery = Arc::new(recovery);
        let origins_recovery = Arc::clone(&recovery);
        let (bytes, ends, entries) =
            (Arc::clone(&self.bytes), self.sections[ENTRY_ENDS].clone(), self.sections[ENTRIES].clone());
        let decode = move |entry: usize| -> Entry {
            // The rows are sound (the file's checksum covers them) and
            // their ends ascend to the section's end (checked above).
            let row = |entry: usize, at: usize| word(&bytes[ends.clone()], entry * ENTRY_ROW + at).unwrap_or(0);
            let start = entry.checked_sub(1).map_or(0, |before| row(before, 0) as usize);
            let encoded = &bytes[entries.start + start..entries.start + row(entry, 0) as usize];
            if checksum(encoded) != row(entry, 8) {
                return recovery.entry(entry, count, row(entry, 8));
            }
            // An entry as written decodes (`write` wrote only entries that
            // it had decoded back to themselves), unless another build of
            // this version wrote it with another shape of `Entry`.
            postcard::from_bytes(encoded).unwrap_or_else(|_| recovery.entry(entry, count, row(entry, 8)))
        };
        let origins = LazyOrigins {
            bytes: Bytes { file: Arc::clone(&self.bytes), range: self.sections[ORIGINS].clone() },
            checksum: origins_checksum,
            count,
            recovery: origins_recovery,
            decoded: OnceLock::new(),
        };
        let matcher = Matcher::from_index(index, Slots::Lazy(Lazy::new(count, decode)));
        let mut catalog = Catalog::with_matcher(matcher, Origins::Encoded(origins));
        catalog.stored_orders = Some(Bytes { file: Arc::clone(&self.bytes), range: self.sections[ORDERS].clone() });
        Some((catalog, warnings))
    }
}

/// Where a damaged entry, or damaged origins, are found instead, once the
/// catalog is in use and the cache can no longer be given up: in the
/// dataset, loaded again without the cache (once), whose file is removed so
/// that the next load writes it anew. The files were unchanged when the
/// cache was found a hit, so the load normally gives what the cache holds,
/// which is checked (the same number of records, and an encoding with the
/// checksum the cache stored); should the load fail or the check not hold
/// (the dataset changed since), what was asked for cannot be had and the
/// program panics, saying why.
#[derive(Debug)]
struct Recovery {
    /// The dataset's directory, canonical: the working directory may have
    /// changed since.
    dir: PathBuf,
    /// The directory as the cached load was given it, which spells the
    /// origins' paths.
    given: PathBuf,
    filter: Filter,
    cache: PathBuf,
    fresh: OnceLock<Result<Catalog, String>>,
}

impl Recovery {
    /// The recovery of the load of `given` (canonical: `dir`) with `filter`,
    /// cached in the file `cache`.
    fn new(given: &Path, dir: &Path, filter: &Filter, cache: &Path) -> Recovery {
        Recovery {
            dir: dir.to_owned(),
            given: given.to_owned(),
            filter: filter.clone(),
            cache: cache.to_owned(),
            fresh: OnceLock::new(),
        }
    }

    /// Entry `index` of the dataset loaded again, which must have `count`
    /// records, and whose encoding must have the checksum `stored`.
    #[cold]
    fn entry(&self, index: usize, count: usize, stored: u64) -> Entry {
        self.in_fresh_load(count, |catalog| {
            let entry = catalog.entry(index);
            let encoded = postcard::to_allocvec(entry).map_err(|err| err.to_string())?;
            match checksum(&encoded) == stored {
                true => Ok(entry.clone()),
                false => Err(format!("its record {} now compiles to another entry", entry.record.id)),
            }
        })
    }

    /// The origins of the dataset loaded again, which must have `count`
    /// records, and whose encoding must have the checksum `stored`.
    #[cold]
    fn origins(&self, count: usize, stored: u64) -> Vec<Option<Origin>> {
        self.in_fresh_load(count, |catalog| {
            // Loaded from the canonical directory, the paths are spelled
            // with it: spelled again as the cached load spelled them.
            let respelled = |origin: &Origin| {
                let mut origin = origin.clone();
                if let Ok(below) = origin.path.strip_prefix(&self.dir) {
                    origin.path = self.given.join(below);
                }
                origin
            };
            let origins: Option<Vec<Origin>> = (0..count).map(|index| catalog.origin(index).map(respelled)).collect();
            let origins = origins.ok_or("a record's origin is unknown")?;
            let encoded = postcard::to_allocvec(&origins).map_err(|err| err.to_string())?;
            match checksum(&encoded) == stored {
                true => Ok(origins.into_iter().map(Some).collect()),
                false => Err("its records moved".to_owned()),
            }
        })
    }

    /// What `take` finds in the dataset loaded again (once), which must have
    /// `count` records; panics, saying why, where that cannot be had.
    fn in_fresh_load<T>(&self, count: usize, take: impl FnOnce(&Catalog) -> Result<T, String>) -> T {
        let fresh = self.fresh.get_or_init(|| {
            // Best effort: a cache file left in place is found damaged again.
            let _ = fs::remove_file(&self.cache);
            match Catalog::load_filtered(&self.dir, &self.filter) {
                Ok((catalog, _)) if catalog.len() == count => Ok(catalog),
                Ok((catalog, _)) => Err(format!("it now has {} records, not {count}", catalog.len())),
                Err(err) => Err(err.to_string()),
            }
        });
        match fresh.as_ref().map_err(String::clone).and_then(take) {
            Ok(found) => found,
            Err(why) => panic!(
                "the compiled-catalog cache file {} is damaged, and the dataset {} changed since the cache was checked \
                 ({why}): run the command again",
                self.cache.display(),
                self.dir.display()
            ),
        }
    }
}

/// The order of `which` [`Key`] among the stored orders (three runs of
/// `count` little-endian `u32`s, in [`Key::ALL`] order, each an order that
/// [`Key::order`] gave); `None` where the section is too short or an index
/// is not below `count` (the lookup then sorts). A lookup in a cached
/// catalog then decodes a few entries rather than all of them to sort them
/// (`errcat show` at 20,000 records, 97 ms before).
pub(crate) fn order(orders: &Bytes, which: usize, count: usize) -> Option<Box<[u32]>> {
    let run = orders.as_ref().get(which.checked_mul(count)?.checked_mul(4)?..)?.get(..count.checked_mul(4)?)?;
    let indexes = run.chunks_exact(4).map(|word| u32::from_le_bytes([word[0], word[1], word[2], word[3]]));
    indexes.map(|index| ((index as usize) < count).then_some(index)).collect()
}

/// The stored orders of `entries`, for [`order`].
fn encode_orders(entries: &[Entry]) -> Vec<u8> {
    let orders = Key::ALL.map(|key| key.order(entries.len(), |index| &entries[index]));
    orders.iter().flat_map(|order| order.iter().flat_map(|index| index.to_le_bytes())).collect()
}

/// The origins of a cache hit, checked against their checksum and decoded
/// when first asked for (few commands ask; checking them at every start
/// took a thirtieth of a 20,000-record start-up): damaged, they are taken
/// from the records through [`Recovery`], as a damaged entry is.
#[derive(Debug)]
pub(crate) struct LazyOrigins {
    bytes: Bytes,
    checksum: u64,
    /// The number of entries.
    count: usize,
    recovery: Arc<Recovery>,
    decoded: OnceLock<Vec<Option<Origin>>>,
}

impl LazyOrigins {
    /// Every entry's origin, in entry order.
    pub(crate) fn all(&self) -> &[Option<Origin>] {
        self.decoded.get_or_init(|| {
            let bytes = self.bytes.as_ref();
            let decoded = (checksum(bytes) == self.checksum).then(|| postcard::from_bytes::<Vec<Origin>>(bytes).ok());
            match decoded.flatten().filter(|origins| origins.len() == self.count) {
                Some(origins) => origins.into_iter().map(Some).collect(),
                None => self.recovery.origins(self.count, self.checksum),
            }
        })
    }
}

/// The record files of a cache, as stored: for each, the end of its path
/// in the paths section, its length, mtime and inode (little-endian 64-bit
/// words), in [`stat_order`].
struct FileTable<'a> {
    table: &'a [u8],
    paths: &'a [u8],
}

/// The bytes of one file's row in a [`FileTable`].
const FILE_ROW: usize = 32;

impl<'a> FileTable<'a> {
    fn len(&self) -> usize {
        self.table.len() / FILE_ROW
    }

    /// File `index`'s path and stamp; `None` where the table is damaged.
    fn get(&self, index: usize) -> Option<(&'a [u8], Meta)> {
        let row = self.table.get(index * FILE_ROW..(index + 1) * FILE_ROW)?;
        let start = if index == 0 { 0 } else { word(self.table, index * FILE_ROW - FILE_ROW)? };
        let path = self.paths.get(usize::try_from(start).ok()?..usize::try_from(word(row, 0)?).ok()?)?;
        let meta = Meta { len: word(row, 8)?, mtime: word(row, 16)? as i64, inode: word(row, 24)? };
        Some((path, meta))
    }

    /// Whether these are `files`.
    fn holds(&self, files: &[Stamp<'_>]) -> bool {
        self.len() == files.len()
            && stat_order(files).into_iter().enumerate().all(|(index, file)| {
                self.get(index).is_some_and(|(path, meta)| path == file.path.as_bytes() && meta == file.meta)
            })
    }

    /// The table of `files`, and their paths.
    fn encode(files: &[Stamp<'_>]) -> (Vec<u8>, Vec<u8>) {
        let mut table = Vec::with_capacity(files.len() * FILE_ROW);
        let mut paths = Vec::new();
        for file in stat_order(files) {
            paths.extend(file.path.as_bytes());
            let Meta { len, mtime, inode } = file.meta;
            for word in [paths.len() as u64, len, mtime as u64, inode] {
                table.extend(word.to_le_bytes());
            }
        }
        (table, paths)
    }
}

/// The order of a [`FileTable`], in which a hit stats the files: by inode,
/// so that the kernel's inodes, and the directory entries made with them,
/// are visited in about the order they were allocated in, which took a
/// twelfth less time than path order at 20,000 files (measured); then by
/// path (hard links, platforms without inodes).
fn stat_order<'f, 'a>(files: &'f [Stamp<'a>]) -> Vec<&'f Stamp<'a>> {
    let mut ordered: Vec<&Stamp<'a>> = files.iter().collect();
    ordered.sort_unstable_by(|a, b| stat_key(a).cmp(&stat_key(b)));
    ordered
}

/// What [`stat_order`] sorts by.
fn stat_key<'s>(stamp: &'s Stamp<'_>) -> (u64, &'s str) {
    (stamp.meta.inode, &stamp.path)
}

/// The little-endian `u64` at `at`, if the bytes are there.
fn word(bytes: &[u8], at: usize) -> Option<u64> {
    Some(u64::from_le_bytes(bytes.get(at..at.checked_add(8)?)?.try_into().ok()?))
}

impl Catalog {
    /// [`Catalog::load_filtered`], with the compiled catalog cached in
    /// `cache_dir` and reused while no record file under `dir` has changed
    /// (same files, lengths, modification times and inodes). The results are
    /// those of `load_filtered`, warnings included; a problem with the cache
    /// is never an error, only a load from the files (but for the case in
    /// the next paragraph).
    ///
    /// A catalog from the cache decodes each entry when it is first asked
    /// for, from the cache file, which stays mapped while the catalog lives.
    /// An entry found damaged then is taken from the records loaded again,
    /// and so are the origins ([`Catalog::origin`]); if the records changed
    /// since the load (so that what was asked for cannot be had as it was),
    /// asking for it panics with a message that says so.
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
        let cache = CacheFile::open(&path);
        let mut cached = None;
        if let Some(cache) = &cache {
            if let Some(fingerprint) = cache.fingerprint().filter(|cached| same_load(cached, dir, &canonical, filter)) {
                match hit(dir, &fingerprint, cache, &path) {
                    Hit::Fresh(catalog) => return Ok(*catalog),
                    Hit::Listed => cached = Some(fingerprint),
                    Hit::Stale => {}
                }
            }
        }
        let Ok((paths, listing)) = list(dir, &canonical, filter) else {
            return Catalog::load_filtered(dir, filter);
        };
        let Ok(listing) = listing else {
            return Compiled::new(load_listed(dir, Ok(paths)), filter).map(Compiled::into_catalog);
        };
        // A directory changed, but not the record files (a file of another
        // kind came or went): the cached catalog holds, and is stored again
        // with the new directories so that the next load need not list them.
        if let (Some(cache), Some(fingerprint)) = (&cache, cached) {
            if cache.files().holds(&listing.files) && listing.names == fingerprint.names {
                if let Some(catalog) = cache.catalog(Recovery::new(dir, &canonical, filter, &path)) {
                    if !racy(&listing, SystemTime::now()) {
                        let sections = [WARNINGS, INDEX, ENTRY_ENDS, ORDERS, ORIGINS_CHECKSUM, ORIGINS, ENTRIES]
                            .map(|n| cache.section(n));
                        let _ = write(cache_dir, &path, &listing, sections);
                    }
                    return Ok(catalog);
                }
            }
        }
        // The stamps were taken before the files are read: a file that
        // changes in between is seen as changed by the next run.
        let compiled = Compiled::new(load_listed(dir, Ok(paths)), filter)?;
        if !racy(&listing, SystemTime::now()) {
            // Best effort: a cache that cannot be written is not a problem.
            let _ = write_compiled(cache_dir, &path, &listing, &compiled);
        }
        Ok(compiled.into_catalog())
    }
}

/// Whether a cache with this fingerprint was made by this version of the
/// crate for this load.
fn same_load(cached: &Fingerprint<'_>, dir: &Path, canonical: &Path, filter: &Filter) -> bool {
    cached.version == env!("CARGO_PKG_VERSION")
        && Some(&*cached.dir) == dir.to_str()
        && Some(&*cached.canonical) == canonical.to_str()
        && cached.filter == *filter
}

/// What a look at the dataset tells of a cache made for the same load.
enum Hit {
    /// Nothing changed: the catalog and its warnings.
    Fresh(Box<(Catalog, Vec<Diagnostic>)>),
    /// A directory changed, so the record files must be listed to tell.
    Listed,
    /// A file changed, or the cache is damaged.
    Stale,
}

/// Compares the dataset under `dir` with `fingerprint`, the cache's: the
/// directories first, then the names file, then the record files (on
/// several threads, while this one checks the cache and sets its catalog
/// up). The
/// cache file is at `cache_path` (see [`Recovery`]).
fn hit(dir: &Path, fingerprint: &Fingerprint<'_>, cache: &CacheFile, cache_path: &Path) -> Hit {
    let files = cache.files();
    let Ok(root) = Root::open(dir) else {
        return Hit::Stale;
    };
    let mut path = Vec::new();
    if !fingerprint
        .dirs
        .iter()
        .all(|stamp| root.stat(stamp.path.as_bytes(), &mut path).is_ok_and(|(meta, _)| meta == stamp.meta))
    {
        return Hit::Listed;
    }
    let names = match root.stat(NAMES_FILE.as_bytes(), &mut path) {
        Ok((meta, true)) => Some(meta),
        Ok((_, false)) => None,
        Err(err) if err.kind() == io::ErrorKind::NotFound => None,
        Err(_) => return Hit::Stale,
    };
    if names != fingerprint.names.as_ref().map(|stamp| stamp.meta) {
        return Hit::Stale;
    }
    // The stats are split into blocks taken in turn by the threads, this one
    // included once the catalog is set up: however busy each processor is,
    // all finish together.
    let helpers = std::thread::available_parallelism().map_or(1, usize::from).min(files.len() / STATS_PER_THREAD);
    let next = AtomicUsize::new(0);
    let changed = AtomicBool::new(false);
    let stat_blocks = || {
        let mut path = Vec::new();
        loop {
            let start = next.fetch_add(STATS_PER_BLOCK, Ordering::Relaxed);
            if start >= files.len() || changed.load(Ordering::Relaxed) {
                return;
            }
            let same = |index| {
                let Some((file, meta)) = files.get(index) else {
                    return false;
                };
                root.stat(file, &mut path).is_ok_and(|(now, _)| now == meta)
            };
            if !(start..files.len().min(start + STATS_PER_BLOCK)).all(same) {
                changed.store(true, Ordering::Relaxed);
            }
        }
    };
    let catalog = std::thread::scope(|scope| {
        for _ in 1..helpers {
            scope.spawn(stat_blocks);
        }
        let recovery = Recovery::new(
            Path::new(&*fingerprint.dir),
            Path::new(&*fingerprint.canonical),
            &fingerprint.filter,
            cache_path,
        );
        let catalog = cache.catalog(recovery);
        stat_blocks();
        catalog
    });
    match catalog {
        Some(catalog) if !changed.into_inner() => Hit::Fresh(Box::new(catalog)),
        _ => Hit::Stale,
    }
}

/// The dataset's directory, open, so that its files are stat'ed relative to
/// it: no path to allocate and look up from the root for each.
struct Root {
    #[cfg(unix)]
    dir: fs::File,
    #[cfg(not(unix))]
    dir: PathBuf,
}

impl Root {
    fn open(dir: &Path) -> io::Result<Root> {
        #[cfg(unix)]
        let dir = fs::File::open(dir)?;
        #[cfg(not(unix))]
        let dir = dir.to_owned();
        Ok(Root { dir })
    }

    /// The stamp of `path` below the directory (the directory itself when
    /// empty), following symbolic links as the loader does, and whether it
    /// is a regular file. `buffer` is where the path is spelled for the
    /// system, reused from call to call.
    #[cfg(unix)]
    fn stat(&self, path: &[u8], buffer: &mut Vec<u8>) -> io::Result<(Meta, bool)> {
        use std::os::fd::AsRawFd;
        #[cfg(test)]
        tests::STATS_MADE.with(|made| made.set(made.get() + 1));
        buffer.clear();
        buffer.extend_from_slice(path);
        buffer.push(0);
        let path = std::ffi::CStr::from_bytes_with_nul(buffer).map_err(io::Error::other)?;
        let mut stat = std::mem::MaybeUninit::<libc::stat>::uninit();
        let fd = self.dir.as_raw_fd();
        // SAFETY: `path` is a NUL-terminated string and `stat` a buffer of
        // the size the call writes; `fd` is open while `self` lives.
        let done = unsafe {
            if path.is_empty() {
                libc::fstat(fd, stat.as_mut_ptr())
            } else {
                libc::fstatat(fd, path.as_ptr(), stat.as_mut_ptr(), 0)
            }
        };
        if done != 0 {
            return Err(io::Error::last_os_error());
        }
        // SAFETY: the call succeeded, so it filled `stat` in.
        let stat = unsafe { stat.assume_init() };
        #[allow(clippy::unnecessary_cast, clippy::useless_conversion)] // The types differ between platforms.
        let (seconds, nanoseconds) = (i64::from(stat.st_mtime), i64::from(stat.st_mtime_nsec));
        let mtime = seconds.checked_mul(1_000_000_000).and_then(|n| n.checked_add(nanoseconds));
        let meta = Meta {
            len: u64::try_from(stat.st_size).map_err(io::Error::other)?,
            mtime: mtime.ok_or_else(|| io::Error::other("modification time out of range"))?,
            #[allow(clippy::useless_conversion)]
            inode: u64::from(stat.st_ino),
        };
        Ok((meta, stat.st_mode & libc::S_IFMT == libc::S_IFREG))
    }

    #[cfg(not(unix))]
    fn stat(&self, path: &[u8], _buffer: &mut Vec<u8>) -> io::Result<(Meta, bool)> {
        let path = std::str::from_utf8(path).map_err(io::Error::other)?;
        let metadata = fs::metadata(self.dir.join(path))?;
        Ok((meta_of(&metadata)?, metadata.is_file()))
    }
}

/// Starts the bytes of [`Catalog::to_bytes`]; the last byte is their layout
/// version.
const PACKED_MAGIC: &[u8; 8] = b"errcatC\x03";

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
        let entries: Vec<&Entry> = self.entries().iter().collect();
        // Serializing owned, well-formed values into memory cannot fail.
        let body = postcard::to_allocvec(&(entries, origins)).expect("a catalog serializes");
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

/// The record files under `dir` (as the loader finds them), and the
/// fingerprint of the load if every file and directory could be stat'ed.
fn list(
    dir: &Path,
    canonical: &Path,
    filter: &Filter,
) -> Result<(Vec<PathBuf>, io::Result<Fingerprint<'static>>), String> {
    let mut dirs = Vec::new();
    let files = record_files_and_dirs(dir, &mut dirs)?;
    let paths: Vec<PathBuf> = files.iter().map(fs::DirEntry::path).collect();
    let fingerprint = (|| {
        let text = |path: &Path| {
            path.to_str().map(|text| Cow::Owned(text.to_owned())).ok_or_else(|| io::Error::other("not Unicode"))
        };
        let stamp = |path: &Path, metadata: &fs::Metadata| -> io::Result<Stamp<'static>> {
            Ok(Stamp { path: text(path.strip_prefix(dir).unwrap_or(path))?, meta: meta_of(metadata)? })
        };
        let dirs = dirs.iter().map(|(path, metadata)| stamp(path, metadata)).collect::<io::Result<_>>()?;
        let files = files
            .iter()
            .zip(&paths)
            .map(|(file, path)| {
                // The entry's own stat is relative to its open directory (no
                // path lookup), but does not follow a symbolic link.
                let metadata = if file.file_type()?.is_symlink() { fs::metadata(path)? } else { file.metadata()? };
                stamp(path, &metadata)
            })
            .collect::<io::Result<_>>()?;
        let names_path = dir.join(NAMES_FILE);
        let names = match fs::metadata(&names_path) {
            Ok(metadata) if metadata.is_file() => Some(stamp(&names_path, &metadata)?),
            Ok(_) => None,
            Err(err) if err.kind() == io::ErrorKind::NotFound => None,
            Err(err) => return Err(err),
        };
        Ok(Fingerprint {
            version: Cow::Borrowed(env!("CARGO_PKG_VERSION")),
            dir: text(dir)?,
            canonical: text(canonical)?,
            filter: filter.clone(),
            dirs,
            files,
            names,
        })
    })();
    Ok((paths, fingerprint))
}

fn meta_of(metadata: &fs::Metadata) -> io::Result<Meta> {
    let mtime = match metadata.modified()?.duration_since(UNIX_EPOCH) {
        Ok(after) => i64::try_from(after.as_nanos()),
        Err(before) => i64::try_from(before.duration().as_nanos()).map(|n| -n),
    }
    .map_err(io::Error::other)?;
    #[cfg(unix)]
    let inode = std::os::unix::fs::MetadataExt::ino(metadata);
    #[cfg(not(unix))]
    let inode = 0;
    Ok(Meta { len: metadata.len(), mtime, inode })
}

/// Whether a file or directory was modified within [`RACY`] of `now` (or
/// after it).
fn racy(fingerprint: &Fingerprint<'_>, now: SystemTime) -> bool {
    let Ok(now) = now.duration_since(UNIX_EPOCH) else {
        return true;
    };
    let limit = i128::try_from(now.saturating_sub(RACY).as_nanos()).unwrap_or(i128::MAX);
    let stamps = fingerprint.files.iter().chain(&fingerprint.dirs).chain(&fingerprint.names);
    stamps.into_iter().any(|stamp| i128::from(stamp.meta.mtime) >= limit)
}

/// One file per dataset directory and filter, whatever its contents; a new
/// load of the same dataset replaces it.
fn file_name(dir: &Path, canonical: &Path, filter: &Filter) -> String {
    let key = (dir, canonical, filter);
    let bytes = postcard::to_allocvec(&key).unwrap_or_else(|_| format!("{key:?}").into_bytes());
    format!("catalog-{:016x}.bin", checksum(&bytes))
}

/// Writes the cache of `compiled`. Each entry is decoded back before it is
/// written, so that a sound cache file holds only entries that decode: a
/// catalog read from it decodes them long after the file was checked, when
/// a failure could no longer fall back to the record files.
fn write_compiled(cache_dir: &Path, path: &Path, fingerprint: &Fingerprint<'_>, compiled: &Compiled) -> io::Result<()> {
    let warnings = postcard::to_allocvec(&compiled.diagnostics).map_err(io::Error::other)?;
    let index = postcard::to_allocvec(&Index::of(&compiled.entries)).map_err(io::Error::other)?;
    let mut ends = Vec::with_capacity(ENTRY_ROW * compiled.entries.len());
    let mut entries = Vec::new();
    for entry in &compiled.entries {
        let start = entries.len();
        entries = postcard::to_extend(entry, entries).map_err(io::Error::other)?;
        if postcard::from_bytes::<Entry>(&entries[start..]).ok().as_ref() != Some(entry) {
            return Err(io::Error::other("an entry does not decode to itself"));
        }
        ends.extend((entries.len() as u64).to_le_bytes());
        ends.extend(checksum(&entries[start..]).to_le_bytes());
    }
    let origins = postcard::to_allocvec(&compiled.origins).map_err(io::Error::other)?;
    let origins_checksum = checksum(&origins).to_le_bytes();
    let orders = encode_orders(&compiled.entries);
    write(cache_dir, path, fingerprint, [&warnings, &index, &ends, &orders, &origins_checksum, &origins, &entries])
}

/// Writes a cache file of `fingerprint` and the other sections through a
/// temporary file and a rename, so that a reader never sees half a file,
/// and a mapped file is never changed.
fn write(cache_dir: &Path, path: &Path, fingerprint: &Fingerprint<'_>, rest: [&[u8]; SECTIONS - 3]) -> io::Result<()> {
    let encoded = postcard::to_allocvec(fingerprint).map_err(io::Error::other)?;
    let (files, paths) = FileTable::encode(&fingerprint.files);
    let sections: Vec<&[u8]> = [&encoded[..], &files, &paths].into_iter().chain(rest).collect();
    // The origins and the entries, last, are not covered: they have their
    // own checksums.
    let uncovered = sections[ORIGINS].len() + sections[ENTRIES].len();
    let mut bytes = Vec::with_capacity(HEADER + sections.iter().map(|s| s.len()).sum::<usize>());
    bytes.extend(MAGIC);
    bytes.extend([0; 8]);
    for section in &sections {
        bytes.extend((section.len() as u64).to_le_bytes());
    }
    for section in sections {
        bytes.extend(section);
    }
    let sum = checksum(&bytes[MAGIC.len() + 8..bytes.len() - uncovered]);
    bytes[MAGIC.len()..MAGIC.len() + 8].copy_from_slice(&sum.to_le_bytes());
    fs::create_dir_all(cache_dir)?;
    let unique = SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |t| t.as_nanos());
    let temporary = cache_dir.join(format!(".tmp-{}-{unique}", std::process::id()));
    let written = fs::write(&temporary, &bytes).and_then(|()| fs::rename(&temporary, path));
    if written.is_err() {
        let _ = fs::remove_file(&temporary);
    }
    written
}

/// A 64-bit hash of `bytes` in eight independent lanes of 64-bit words, so
/// that the processor works on eight words at once: megabytes of a cache
/// file are checked at a start (the sections before the origins), at close to the speed memory is read
/// (one multiplication a word: xxHash64's rounds of two took a quarter
/// longer on a 35 MB cache). Each round is a bijection of its lane's state
/// (a xor, an odd multiplier, a xor-shift that carries the high bits back
/// down: with a rotation instead, a flip of a word's top bit leaves a
/// one-bit difference that a flip in the lane's next word cancels), so a
/// change to one word always changes the lane, and the final mix spreads
/// every bit of every lane over the hash. Stable
/// across Rust versions and platforms, unlike `DefaultHasher`. It catches
/// damage, not tampering: the cache directory is the user's own.
pub(super) fn checksum(bytes: &[u8]) -> u64 {
    const P1: u64 = 0x9e37_79b1_85eb_ca87;
    const P2: u64 = 0xc2b2_ae3d_27d4_eb4f;
    const P3: u64 = 0x1656_67b1_9e37_79f9;
    let round = |lane: u64, word: u64| {
        let mixed = (lane ^ word).wrapping_mul(P1);
        mixed ^ (mixed >> 32)
    };
    let word_at = |chunk: &[u8]| u64::from_le_bytes(chunk.try_into().expect("chunks of 8 bytes"));
    let mut lanes: [u64; 8] = std::array::from_fn(|lane| P2.wrapping_mul(lane as u64 + 1));
    let mut blocks = bytes.chunks_exact(64);
    for block in &mut blocks {
        for (lane, word) in lanes.iter_mut().zip(block.chunks_exact(8)) {
            *lane = round(*lane, word_at(word));
        }
    }
    let mut hash = lanes.iter().fold(bytes.len() as u64, |hash, &lane| round(hash ^ P3, lane).wrapping_mul(P2));
    let mut words = blocks.remainder().chunks_exact(8);
    for word in &mut words {
        hash = round(hash, word_at(word)).wrapping_mul(P2);
    }
    for &byte in words.remainder() {
        hash = round(hash, u64::from(byte).wrapping_mul(P3));
    }
    // The final mix: every bit of the state reaches every bit of the hash.
    hash ^= hash >> 33;
    hash = hash.wrapping_mul(P2);
    hash ^= hash >> 29;
    hash = hash.wrapping_mul(P3);
    hash ^ (hash >> 32)
}

#[cfg(test)]
pub(crate) mod tests {
    use std::fs::File;

    use crate::test_support as support;

    use super::*;
    use crate::model::Severity;

    /// A directory under the system's temporary directory, removed on drop.
    pub(crate) struct TempDir(pub(crate) PathBuf);

    impl TempDir {
        pub(crate) fn new(name: &str) -> TempDir {
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

    thread_local! {
        /// The stats a hit made on this thread (all of them, for a dataset
        /// of fewer than [`STATS_PER_THREAD`] files).
        pub(crate) static STATS_MADE: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
    }

    /// A long time ago, so that files are not racily clean. A later call
    /// gives a later time: a change then moves a directory's mtime, as it
    /// does when the change is made.
    pub(crate) fn an_hour_ago() -> SystemTime {
        SystemTime::now() - Duration::from_secs(3600)
    }

    /// Writes `text` to `path` with `mtime`, in place (the inode stays).
    pub(crate) fn write_at(path: &Path, text: &str, mtime: SystemTime) {
        fs::write(path, text).unwrap();
        File::options().write(true).open(path).unwrap().set_modified(mtime).unwrap();
    }

    pub(crate) fn record(id: &str, message: &str, severity: &str) -> String {
        format!(
            r#"{{"record": {{"id": "{id}", "errorMessage": "{message}", "severity": "{severity}", "filePath": "server/x.go", "tags": ["t"]}}}}"#
        )
    }

    /// A dataset of three records (one in a subdirectory), all an hour old.
    pub(crate) fn dataset() -> TempDir {
        let dir = TempDir::new("data");
        fs::create_dir(dir.0.join("sub")).unwrap();
        write_at(&dir.0.join("a.json"), &record("a1", "stream %s failed: %v", "error"), an_hour_ago());
        write_at(&dir.0.join("b.json"), &record("b2", "limit %d reached", "warning"), an_hour_ago());
        write_at(&dir.0.join("sub/c.json"), &record("c3", "closed %q", "error"), an_hour_ago());
        age_dirs(&dir.0);
        dir
    }

    /// Sets the modification time of `dir` and of its subdirectories that
    /// changed in the last minute to an hour ago: a directory just changed
    /// is racily clean, as a file is, and prevents writing the cache. The
    /// others are left as they are, so that only a changed one differs.
    pub(crate) fn age_dirs(dir: &Path) {
        for entry in fs::read_dir(dir).unwrap() {
            let entry = entry.unwrap();
            if entry.file_type().unwrap().is_dir() {
                age_dirs(&entry.path());
            }
        }
        let recent = SystemTime::now() - Duration::from_secs(60);
        if fs::metadata(dir).unwrap().modified().unwrap() > recent {
            File::open(dir).unwrap().set_modified(an_hour_ago()).unwrap();
        }
    }

    /// Whether `dir`'s cache for the default filter is a sound hit, after
    /// `change` and with the directories aged again (as if the change were
    /// an hour old, and the directories' mtimes moved by it).
    fn hit_after(dir: &Path, cache: &Path, change: impl FnOnce()) -> bool {
        change();
        age_dirs(dir);
        cached(dir, &Filter::default(), cache)
    }

    /// Everything a load gives, comparable.
    pub(crate) fn summary(result: Result<(Catalog, Vec<Diagnostic>), LoadError>) -> String {
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

    /// The fingerprint of a load of `dir`, its files in the table's order.
    fn fingerprint_of(dir: &Path, filter: &Filter) -> Fingerprint<'static> {
        let mut fingerprint = list(dir, &fs::canonicalize(dir).unwrap(), filter).unwrap().1.unwrap();
        fingerprint.files =
            stat_order(&fingerprint.files).into_iter().map(|s| Stamp { path: s.path.clone(), meta: s.meta }).collect();
        fingerprint
    }

    fn cache_file(dir: &Path, filter: &Filter, cache: &Path) -> PathBuf {
        cache.join(file_name(dir, &fs::canonicalize(dir).unwrap(), filter))
    }

    /// A sound cache file's contents: its fingerprint, its catalog and
    /// warnings (not yet compared with the dataset).
    fn read(path: &Path) -> Option<(Fingerprint<'static>, Catalog, Vec<Diagnostic>)> {
        let file = CacheFile::open(path)?;
        let fingerprint = file.fingerprint()?;
        let recovery =
            Recovery::new(Path::new(&*fingerprint.dir), Path::new(&*fingerprint.canonical), &fingerprint.filter, path);
        let (catalog, warnings) = file.catalog(recovery)?;
        let owned = |stamp: &Stamp<'_>| Stamp { path: Cow::Owned(stamp.path.to_string()), meta: stamp.meta };
        let fingerprint = Fingerprint {
            version: Cow::Owned(fingerprint.version.to_string()),
            dir: Cow::Owned(fingerprint.dir.to_string()),
            canonical: Cow::Owned(fingerprint.canonical.to_string()),
            filter: fingerprint.filter.clone(),
            dirs: fingerprint.dirs.iter().map(owned).collect(),
            files: (0..file.files().len())
                .map(|index| {
                    let (path, meta) = file.files().get(index).unwrap();
                    Stamp { path: Cow::Owned(String::from_utf8(path.to_vec()).unwrap()), meta }
                })
                .collect(),
            names: fingerprint.names.as_ref().map(owned),
        };
        Some((fingerprint, catalog, warnings))
    }

    /// Whether the cache file of `dir` loaded with `filter` is a sound hit.
    fn cached(dir: &Path, filter: &Filter, cache: &Path) -> bool {
        read(&cache_file(dir, filter, cache))
            .is_some_and(|(fingerprint, ..)| fingerprint == fingerprint_of(dir, filter))
    }

    /// Loads `dir` fresh and through the cache (twice: written, then read)
    /// and checks that all three agree and that the cache is a hit.
    fn assert_hit_equals_fresh(dir: &Path, filter: &Filter) {
        let cache = TempDir::new("cache");
        let (fresh, fresh_warnings) = Catalog::load_filtered(dir, filter).unwrap();
        let first = summary(Catalog::load_cached(dir, filter, &cache.0));
        assert!(cached(dir, filter, &cache.0), "the first load writes the cache");
        let (hit, hit_warnings) = Catalog::load_cached(dir, filter, &cache.0).unwrap();
        assert_eq!(hit.matcher().decoded(), 0, "a hit decodes no entry until asked");
        // Lookups by id, slug and name read the stored orders: a few entries
        // decoded for each, not all of them to sort them.
        let probe = fresh.entry(fresh.len() / 2);
        assert_eq!(hit.by_id(&probe.record.id), fresh.by_id(&probe.record.id));
        assert_eq!(hit.by_slug(&probe.record.slug), fresh.by_slug(&probe.record.slug));
        assert_eq!(hit.by_name(&probe.name), fresh.by_name(&probe.name));
        assert_eq!(hit.by_id("no such id"), None);
        if fresh.len() > 100 {
            assert!(hit.matcher().decoded() < 80, "{} entries decoded to look up", hit.matcher().decoded());
        }
        // Matching next, while most of the hit's entries are still encoded:
        // each is decoded as a candidate, and the matcher built from the cached
        // index must rank and find as one built from the entries.
        let lines = sample_lines(&fresh);
        for line in &lines {
            assert_eq!(hit.find(line), fresh.find(line), "{line}");
            assert_eq!(hit.parse(line), fresh.parse(line), "{line}");
        }
        let log = lines.join("\n");
        let found = |catalog: &Catalog| {
            let mut found = Vec::new();
            catalog.matcher().find_lines(&log, |range, m| found.push((range, m)));
            found
        };
        assert_eq!(found(&hit), found(&fresh));
        assert!(!found(&fresh).is_empty());
        if fresh.len() > 100 {
            assert!(hit.matcher().decoded() < hit.len(), "only candidates are decoded");
        }
        for line in lines.iter().step_by(7) {
            assert_eq!(hit.find_all(line), fresh.find_all(line), "{line}");
        }
        assert_eq!(hit.entries(), fresh.entries());
        for index in 0..fresh.len() {
            let entry = fresh.entry(index);
            assert_eq!(hit.entry(index), entry);
            assert_eq!(hit.by_id(&entry.record.id), fresh.by_id(&entry.record.id));
            assert_eq!(hit.by_slug(&entry.record.slug), fresh.by_slug(&entry.record.slug));
            assert_eq!(hit.by_name(&entry.name), fresh.by_name(&entry.name));
        }
        let fresh = summary(Ok((fresh, fresh_warnings)));
        assert_eq!(summary(Ok((hit, hit_warnings))), fresh);
        assert_eq!(first, fresh);
    }

    /// Lines to match: a third of the entries' messages rendered with
    /// made-up values (or as written, when they do not render), alone and
    /// after a log prefix, and a line of none.
    fn sample_lines(catalog: &Catalog) -> Vec<String> {
        use crate::format::ValueKind;
        use crate::model::Value;
        let mut lines = vec!["nothing to see here".to_owned()];
        for (index, entry) in catalog.entries().iter().enumerate().step_by(3) {
            let values: Vec<Value<'_>> = (entry.template.fields.iter())
                .map(|field| match field.kind {
                    ValueKind::Int => Value::Int(42),
                    ValueKind::Float => Value::Float(1.5),
                    ValueKind::Bool => Value::Bool(true),
                    ValueKind::Quoted | ValueKind::Text => Value::Str("orders".into()),
                })
                .collect();
            let message = catalog.render(index, &values).unwrap_or_else(|_| entry.record.error_message.to_string());
            let message = message.lines().next().unwrap_or_default().to_owned();
            lines.push(format!("[1] 2026/11/29 17:20:00.123456 [ERR] {message}"));
            lines.push(message);
        }
        lines
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
        age_dirs(&dir.0);
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
    fn an_edit_seen_by_any_stat_thread_in_any_block_invalidates_the_cache() {
        // Enough files for every thread to stat several blocks; each file
        // in turn edited in place (same length and inode, a later mtime).
        let data = TempDir::new("data");
        let files = 4 * STATS_PER_THREAD;
        for i in 0..files {
            write_at(&data.0.join(format!("r{i:04}.json")), &record(&format!("r{i}"), "n %d", "error"), an_hour_ago());
        }
        age_dirs(&data.0);
        let cache = TempDir::new("cache");
        load_and_compare(&data.0, &cache.0);
        let table_order: Vec<PathBuf> = {
            let file = CacheFile::open(&cache_files(&cache.0)[0]).unwrap();
            let table = file.files();
            (0..table.len()).map(|i| data.0.join(std::str::from_utf8(table.get(i).unwrap().0).unwrap())).collect()
        };
        assert_eq!(table_order.len(), files);
        for (step, path) in table_order.iter().enumerate().step_by(STATS_PER_BLOCK / 2) {
            assert!(cached(&data.0, &Filter::default(), &cache.0), "a hit before step {step}");
            let later = an_hour_ago() + Duration::from_secs(1 + step as u64);
            let bytes = fs::read(path).unwrap();
            fs::write(path, &bytes).unwrap();
            fs::File::open(path).unwrap().set_modified(later).unwrap();
            let (catalog, _) = Catalog::load_cached(&data.0, &Filter::default(), &cache.0).unwrap();
            assert_eq!(catalog.matcher().decoded(), catalog.len(), "file {step} in stat order: not a hit");
        }
    }

    #[test]
    fn an_edited_file_invalidates_the_cache() {
        let data = dataset();
        let cache = TempDir::new("cache");
        load_and_compare(&data.0, &cache.0);
        let path = data.0.join("b.json");
        // Edited in place: no directory changes, only the file's stat tells.
        // Longer, with the same mtime.
        let mtime = fs::metadata(&path).unwrap().modified().unwrap();
        assert!(!hit_after(&data.0, &cache.0, || write_at(
            &path,
            &record("b2", "limit %d reached!", "warning"),
            mtime
        )));
        assert!(load_and_compare(&data.0, &cache.0).contains("limit %d reached!"));
        // Same length, another mtime.
        let later = an_hour_ago() + Duration::from_secs(1);
        assert!(!hit_after(&data.0, &cache.0, || write_at(
            &path,
            &record("b2", "limit %d REACHED!", "warning"),
            later
        )));
        assert!(load_and_compare(&data.0, &cache.0).contains("limit %d REACHED!"));
    }

    #[test]
    fn an_added_or_removed_file_invalidates_the_cache() {
        let data = dataset();
        let cache = TempDir::new("cache");
        load_and_compare(&data.0, &cache.0);
        let add = || write_at(&data.0.join("sub/d.json"), &record("d4", "disk %s full", "fatal"), an_hour_ago());
        assert!(!hit_after(&data.0, &cache.0, add));
        assert!(load_and_compare(&data.0, &cache.0).contains("disk %s full"));
        assert!(!hit_after(&data.0, &cache.0, || fs::remove_file(data.0.join("a.json")).unwrap()));
        assert!(!load_and_compare(&data.0, &cache.0).contains("stream %s failed"));
    }

    #[test]
    fn a_file_renamed_invalidates_the_cache() {
        let data = dataset();
        let cache = TempDir::new("cache");
        load_and_compare(&data.0, &cache.0);
        // Same length, mtime and inode: only its directory tells.
        assert!(!hit_after(&data.0, &cache.0, || fs::rename(data.0.join("a.json"), data.0.join("z.json")).unwrap()));
        let renamed = load_and_compare(&data.0, &cache.0);
        assert!(renamed.contains("z.json"), "{renamed}");
        assert!(cached(&data.0, &Filter::default(), &cache.0), "the new listing is cached");
    }

    #[test]
    fn a_change_in_a_subdirectory_invalidates_the_cache() {
        let data = dataset();
        let cache = TempDir::new("cache");
        load_and_compare(&data.0, &cache.0);
        assert!(cached(&data.0, &Filter::default(), &cache.0));
        // The root directory is unchanged; only `sub` tells.
        let sub = data.0.join("sub");
        let rename = || fs::rename(sub.join("c.json"), sub.join("d.json")).unwrap();
        assert!(!hit_after(&data.0, &cache.0, rename));
        assert!(load_and_compare(&data.0, &cache.0).contains("sub/d.json"));
        let add = || write_at(&sub.join("e.json"), &record("e5", "queue %s full", "error"), an_hour_ago());
        assert!(!hit_after(&data.0, &cache.0, add));
        assert!(load_and_compare(&data.0, &cache.0).contains("queue %s full"));
        // A new subdirectory.
        let nested = || {
            fs::create_dir(sub.join("deeper")).unwrap();
            write_at(&sub.join("deeper/f.json"), &record("f6", "deep %d", "error"), an_hour_ago());
        };
        assert!(!hit_after(&data.0, &cache.0, nested));
        assert!(load_and_compare(&data.0, &cache.0).contains("deep %d"));
        assert!(!hit_after(&data.0, &cache.0, || fs::remove_dir_all(sub.join("deeper")).unwrap()));
        assert!(!load_and_compare(&data.0, &cache.0).contains("deep %d"));
    }

    /// A dataset loaded once through a new cache: the dataset, the cache,
    /// what the load gave, and the cache file with its bytes.
    fn loaded_once() -> (TempDir, TempDir, String, PathBuf, Vec<u8>) {
        loaded_once_as(Path::to_owned)
    }

    /// [`loaded_once`] with the dataset's directory spelled by `spelled`.
    fn loaded_once_as(spelled: fn(&Path) -> PathBuf) -> (TempDir, TempDir, String, PathBuf, Vec<u8>) {
        let data = dataset();
        let cache = TempDir::new("cache");
        let expected = load_and_compare(&spelled(&data.0), &cache.0);
        let [file] = &cache_files(&cache.0)[..] else { panic!("one cache file") };
        let bytes = fs::read(file).unwrap();
        (data, cache, expected, file.clone(), bytes)
    }

    #[test]
    fn another_kind_of_file_keeps_the_cached_catalog_and_stores_the_new_listing() {
        let (data, cache, expected, file, before) = loaded_once();
        // The directory changes, the record files do not.
        assert!(!hit_after(&data.0, &cache.0, || fs::write(data.0.join("notes.txt"), "x").unwrap()));
        // The cached catalog itself: nothing decoded, nothing compiled.
        let (kept, _) = Catalog::load_cached(&data.0, &Filter::default(), &cache.0).unwrap();
        assert_eq!(kept.matcher().decoded(), 0, "the cached catalog, not a new load");
        assert_eq!(load_and_compare(&data.0, &cache.0), expected);
        assert!(cached(&data.0, &Filter::default(), &cache.0), "stored with the new directory stamp");
        let after = fs::read(&file).unwrap();
        assert_ne!(after, before);
        // Only the fingerprint changed: the rest is the same bytes.
        let sections = |bytes: &[u8]| bytes[HEADER..].len() - word(bytes, MAGIC.len() + 8).unwrap() as usize;
        assert_eq!(before[before.len() - sections(&before)..], after[after.len() - sections(&after)..]);
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
        let (data, cache, expected, file, sound) = loaded_once();
        // A byte of the origins' checksum, the last section the file's
        // checksum covers.
        let mut flipped = sound.clone();
        let covered_end = CacheFile::open(&file).unwrap().sections[ORIGINS_CHECKSUM].end;
        flipped[covered_end - 1] ^= 0x20;
        let damages = [sound[..sound.len() / 2].to_vec(), flipped, b"errcat".to_vec(), Vec::new()];
        for damaged in damages {
            fs::write(&file, &damaged).unwrap();
            assert!(!cached(&data.0, &Filter::default(), &cache.0));
            assert_eq!(load_and_compare(&data.0, &cache.0), expected);
            assert_eq!(fs::read(&file).unwrap(), sound, "the load writes the cache anew");
        }
    }

    /// Writes the cache file `sound` to `file` with a bit flipped in the
    /// byte of section `section` that `at` picks from its range.
    fn damage(file: &Path, sound: &[u8], section: usize, at: impl FnOnce(Range<usize>) -> usize) {
        fs::write(file, sound).unwrap();
        let mut damaged = sound.to_vec();
        damaged[at(CacheFile::open(file).unwrap().sections[section].clone())] ^= 0x01;
        fs::write(file, &damaged).unwrap();
    }

    /// With a bit flipped at the start, middle and end of `section`, a
    /// catalog loaded through the cache (the dataset's directory spelled by
    /// `spelled`) is a hit, and gives what a fresh load gives (`compare`,
    /// which asks for the damaged part) from the records: the cache file is
    /// removed then, not before, and the next load writes it anew.
    fn assert_recovered_from_the_records(
        section: usize,
        spelled: fn(&Path) -> PathBuf,
        compare: impl Fn(&Catalog, &Catalog),
    ) {
        let (data, cache, expected, file, sound) = loaded_once_as(spelled);
        let dir = spelled(&data.0);
        let picks: [fn(Range<usize>) -> usize; 3] = [|r| r.start, |r| r.start + r.len() / 2, |r| r.end - 1];
        for pick in picks {
            damage(&file, &sound, section, pick);
            // Checked one by one, when first used.
            assert!(cached(&dir, &Filter::default(), &cache.0));
            let (hit, _) = Catalog::load_cached(&dir, &Filter::default(), &cache.0).unwrap();
            assert!(file.exists(), "nothing damaged used yet");
            let (fresh, _) = Catalog::load_filtered(&dir, &Filter::default()).unwrap();
            compare(&hit, &fresh);
            assert!(!file.exists(), "the damage found removes the cache file");
            assert_eq!(load_and_compare(&dir, &cache.0), expected);
            assert_eq!(fs::read(&file).unwrap(), sound, "the next load writes the cache anew");
        }
    }

    #[test]
    fn a_damaged_entry_is_loaded_from_the_records_and_the_cache_file_removed() {
        assert_recovered_from_the_records(ENTRIES, Path::to_owned, |hit, fresh| {
            assert_eq!(hit.entries(), fresh.entries())
        });
    }

    #[test]
    fn damaged_origins_are_loaded_from_the_records_and_the_cache_file_removed() {
        // The recovery loads the canonical directory: the origins' paths
        // are spelled as the load spelled them all the same.
        let spellings: [fn(&Path) -> PathBuf; 2] = [Path::to_owned, |dir| dir.join(".")];
        for spelled in spellings {
            assert_recovered_from_the_records(ORIGINS, spelled, |hit, fresh| {
                for index in 0..fresh.len() {
                    let (recovered, loaded) = (hit.origin(index).unwrap(), fresh.origin(index).unwrap());
                    assert_eq!(recovered.path.as_os_str(), loaded.path.as_os_str(), "spelled alike");
                    assert_eq!(recovered, loaded);
                }
            });
        }
    }

    #[test]
    fn damaged_origins_of_records_moved_since_panic_saying_why() {
        let (data, cache, _, file, sound) = loaded_once();
        damage(&file, &sound, ORIGINS, |origins| origins.start);
        let (hit, _) = Catalog::load_cached(&data.0, &Filter::default(), &cache.0).unwrap();
        // A record rewritten with a line more in front, after the cache was
        // found a hit: the same entries, another origin.
        let path = Catalog::load_filtered(&data.0, &Filter::default()).unwrap().0.origin(0).unwrap().path.clone();
        let text = fs::read_to_string(&path).unwrap();
        write_at(&path, &format!("\n{text}"), an_hour_ago());
        let panic = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| hit.origin(0).cloned())).unwrap_err();
        let message = panic.downcast_ref::<String>().unwrap();
        assert!(message.contains("is damaged") && message.contains("its records moved"), "{message}");
    }

    #[test]
    fn a_damaged_entry_of_a_changed_dataset_panics_saying_why() {
        let (data, cache, _, file, sound) = loaded_once();
        damage(&file, &sound, ENTRIES, |entries| entries.start);
        let (hit, _) = Catalog::load_cached(&data.0, &Filter::default(), &cache.0).unwrap();
        // A record added after the cache was found a hit.
        write_at(&data.0.join("late.json"), &record("l9", "late %d", "error"), an_hour_ago());
        let panic = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| hit.entry(0).clone())).unwrap_err();
        let message = panic.downcast_ref::<String>().unwrap();
        assert!(message.contains("is damaged") && message.contains("records, not"), "{message}");
    }

    #[test]
    fn a_damaged_entry_whose_record_was_edited_since_panics_saying_why() {
        let (data, cache, _, file, sound) = loaded_once();
        damage(&file, &sound, ENTRIES, |entries| entries.start);
        let (hit, _) = Catalog::load_cached(&data.0, &Filter::default(), &cache.0).unwrap();
        // The record of that entry edited after the cache was found a hit:
        // as many records, another entry.
        let path = hit.origin(0).unwrap().path.clone();
        write_at(&path, &record("edited", "edited %d", "error"), an_hour_ago());
        let panic = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| hit.entry(0).clone())).unwrap_err();
        let message = panic.downcast_ref::<String>().unwrap();
        assert!(message.contains("is damaged") && message.contains("now compiles to another entry"), "{message}");
    }

    #[test]
    fn a_stored_order_is_read_only_when_whole_and_in_range() {
        let bytes = |words: &[u32]| {
            let bytes: Vec<u8> = words.iter().flat_map(|word| word.to_le_bytes()).collect();
            Bytes { range: 0..bytes.len(), file: Arc::new(Mapped::Read(bytes)) }
        };
        let stored = bytes(&[1, 0, 2, 2, 1, 0, 0, 1, 2]);
        assert_eq!(order(&stored, 0, 3).as_deref(), Some(&[1, 0, 2][..]));
        assert_eq!(order(&stored, 2, 3).as_deref(), Some(&[0, 1, 2][..]));
        assert_eq!(order(&stored, 3, 3), None, "past the section");
        assert_eq!(order(&bytes(&[1, 0, 2, 2, 1]), 1, 3), None, "cut short");
        assert_eq!(order(&bytes(&[0, 3, 1]), 0, 3), None, "an index out of range");
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
        let stamp = |millis_before: i64| Stamp {
            path: "a.json".into(),
            meta: Meta { len: 1, mtime: 1_000_000 * 1_000_000_000 - millis_before * 1_000_000, inode: 1 },
        };
        let with = |dirs: Vec<Stamp<'static>>, files: Vec<Stamp<'static>>| Fingerprint {
            version: "".into(),
            dir: "".into(),
            canonical: "".into(),
            filter: Filter::default(),
            dirs,
            files,
            names: None,
        };
        let at = |millis_before: i64| with(vec![stamp(3_600_000)], vec![stamp(millis_before)]);
        // A directory counts as a file does.
        assert!(racy(&with(vec![stamp(0)], vec![stamp(3_600_000)]), now));
        assert!(!racy(&with(vec![stamp(3_600_000)], vec![stamp(3_600_000)]), now));
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
        for damaged in [&bytes[..bytes.len() / 2], &flipped[..], &longer[..], b"errcatC\x03", &[][..]] {
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
    fn the_checksum_sees_every_bit_flipped_and_every_length() {
        // 203 bytes: three blocks of eight lanes, a word, then bytes.
        let bytes: Vec<u8> = (0..203u32).map(|i| (i * 37 % 251) as u8).collect();
        let sound = checksum(&bytes);
        let bits = bytes.len() * 8;
        let flipped = |flips: &[usize]| {
            let mut damaged = bytes.clone();
            for &bit in flips {
                damaged[bit / 8] ^= 1 << (bit % 8);
            }
            checksum(&damaged)
        };
        let mut seen = std::collections::HashSet::new();
        for bit in 0..bits {
            assert!(seen.insert(flipped(&[bit])), "bit {bit} collides");
        }
        assert!(!seen.contains(&sound));
        for first in 0..bits {
            for second in first + 1..bits {
                assert_ne!(flipped(&[first, second]), sound, "bits {first} and {second}");
            }
        }
        for len in 0..bytes.len() {
            assert_ne!(checksum(&bytes[..len]), sound, "{len}");
        }
        // Zeros of different lengths differ.
        assert_ne!(checksum(&[0; 64]), checksum(&[0; 72]));
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
        write_compiled(&cache.0, &path, &fingerprint, &compiled).unwrap();
        let (cached, catalog, warnings) = read(&path).unwrap();
        assert_eq!(cached, fingerprint);
        assert_eq!(warnings, compiled.diagnostics);
        assert_eq!(*catalog.entries(), compiled.entries);
        for (index, origin) in compiled.origins.iter().enumerate() {
            assert_eq!(catalog.origin(index), Some(origin));
        }
    }
}
