//! The compiled-catalog cache of [`Catalog::load_cached`]: the run-time
//! counterpart of what the `#[catalog]` macro precomputes at build time
//! (think Python's `__pycache__`).
//!
//! One file per dataset directory and filter, in the directory the caller
//! gives (the runtime has no default: errcat and the Python package choose
//! theirs). A file is one sealed blob ([`seal`]): [`MAGIC`], the checksum of
//! the rest, the crate's version and sources' fingerprint, then postcard-encoded [`Stamps`] (the
//! directory, the filter, and the stat of every directory walked, of every
//! record file and of the names file) and the compiled catalog: the
//! warnings and the entries' names and templates, decoded at once, then
//! the records ([`record_bytes`]) and the origins
//! ([`CachedOrigins`]), each decoded when first asked for.
//!
//! A load reuses the file while every stat is the same (length,
//! modification time, inode): adding, removing or renaming a record file
//! changes its directory, an edit in place the file itself. Anything else
//! is a [`Miss`]: the records are read and compiled, the file written anew,
//! and, but for a first load, the warnings say why. Nothing read from a
//! cache file can make a load fail or panic, or give other records than
//! the dataset's.

use std::fs;
use std::io;
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use serde::{Deserialize, Serialize};
use xxhash_rust::xxh3::xxh3_64;

use crate::build::Filter;
use crate::catalog::{Catalog, Compiled, LoadError, Origins, Part};
use crate::dataset::{load_listed, record_files_and_dirs, Origin, NAMES_FILE};
use crate::diagnostic::Diagnostic;
use crate::entry::blob::{self, Blob, Frames, Source};
use crate::entry::head_bytes;
use crate::entry::record_bytes::{self, CachedRecord};
use crate::entry::Entry;
use crate::format::Template;
use crate::matcher::{Index, Matcher};
use crate::model::Text;

/// Starts every cache file. The last byte is the layout version: bump it when
/// the layout or a serialized type changes shape, so that older files are
/// told from damaged ones (they would fail to decode anyway).
const MAGIC: &[u8; 8] = b"errcat\x00\x0e";

/// Starts the bytes of [`Catalog::to_bytes`]; the last byte is their layout
/// version.
const PACKED_MAGIC: &[u8; 8] = b"errcatC\x09";

/// The compiler a cache file must have been written by: the crate's
/// version and a fingerprint of its sources (`build.rs`), since sources of
/// one version can differ (a git dependency, a checkout between releases)
/// and compile records by other rules.
const COMPILER: &str = concat!(env!("CARGO_PKG_VERSION"), "+", env!("CATALOG_RUNTIME_SOURCES"));

/// A file modified this recently may be modified again within the same mtime
/// tick without its stamp changing (git's "racily clean" problem), so a load
/// that saw one is not cached.
const RACY: Duration = Duration::from_secs(2);

/// What a cached load depends on, but for the record files' contents.
/// Paths are text: a dataset with a path that is not Unicode is not cached.
#[derive(Debug, PartialEq, Serialize, Deserialize)]
struct Stamps {
    /// The directory as given: the origins' paths are spelled with it.
    dir: String,
    /// The directory itself.
    canonical: String,
    filter: Filter,
    /// Every directory walked, the dataset's own first (path `""`).
    dirs: Vec<Stamp>,
    /// Every record file.
    files: Vec<Stamp>,
    /// The names file, if the dataset has one: it pins variant names.
    names: Option<Meta>,
}

/// A file or directory below the dataset's directory, as its stat shows it.
#[derive(Debug, PartialEq, Serialize, Deserialize)]
struct Stamp {
    path: String,
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

/// What a cache file holds after its [`Stamps`]: the warnings, the
/// entries, their records' bytes one after the other
/// ([`record_bytes`]), the origins
/// postcard-encoded (a `Vec<Origin>`), and the matcher's index
/// ([`PackedIndex`]): computing it was a third of a start-up at 5,110
/// records (measured).
type Contents<'a> = (Vec<Diagnostic>, Vec<CachedEntry>, &'a [u8], &'a [u8], PackedIndex);

/// An entry as a cache file holds it: its name, its compiled message and
/// the length of its record's bytes.
type CachedEntry = (Text, Template, usize);

/// The origins of a cache hit or of [`Catalog::to_bytes`], decoded when
/// first asked for.
#[derive(Debug)]
pub(crate) struct CachedOrigins {
    /// The whole file, shared with the entries' records.
    file: Blob,
    /// Where the origins are in `file`.
    range: Range<usize>,
    /// Whether they are compressed there ([`blob::compress`]).
    compressed: bool,
    /// The number of entries.
    count: usize,
    decoded: OnceLock<Vec<Option<Origin>>>,
}

impl CachedOrigins {
    /// The origin of entry `index`. The bytes passed the file's checksum,
    /// and were written by this version: they decode, one origin per
    /// entry, unless the checksum missed a change (then none is known).
    pub(crate) fn get(&self, index: usize) -> Option<&Origin> {
        let decoded = self.decoded.get_or_init(|| {
            let encoded = self.file.get(self.range.clone()).unwrap_or_default();
            let decompressed = if self.compressed { blob::decompress(encoded) } else { None };
            let encoded = decompressed.as_deref().unwrap_or(encoded);
            match postcard::from_bytes::<Vec<Origin>>(encoded) {
                Ok(origins) if origins.len() == self.count => origins.into_iter().map(Some).collect(),
                _ => vec![None; self.count],
            }
        });
        decoded.get(index)?.as_ref()
    }
}

/// Why a cache file was not used.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Miss {
    /// None could be read: a first load, or the cache was cleared.
    Absent,
    /// Short, or failing its checksum or its decoding.
    Damaged,
    /// Written by another version of the crate, or another layout.
    OtherVersion,
    /// Written for another dataset directory or filter.
    OtherLoad,
    /// A stamped file or directory is not as it was.
    Stale,
}

impl Miss {
    /// The warning that tells why the cache file at `path` was rebuilt;
    /// none for a first load.
    fn note(&self, path: &Path) -> Option<Diagnostic> {
        let why = match self {
            Miss::Absent => return None,
            Miss::Damaged => "the compiled-catalog cache is damaged (short, or fails its checksum or decoding)",
            Miss::OtherVersion => {
                "the compiled-catalog cache was written by another version (or build) of error-catalog"
            }
            Miss::OtherLoad => "the compiled-catalog cache was written for another dataset directory or filter",
            Miss::Stale => {
                "a record file, directory or the names file changed since the compiled-catalog cache was written"
            }
        };
        Some(Diagnostic::error(path, (1, 1), format!("{why}; rebuilt from the record files")).warning())
    }
}

impl Catalog {
    /// [`Catalog::load_filtered`], with the compiled catalog cached in
    /// `cache_dir` (created if needed) and reused while no record file under
    /// `dir` has changed (same files, lengths, modification times and
    /// inodes; nor the names file). The results are those of
    /// `load_filtered`: a problem with the cache (damaged, stale, of another
    /// version, unreadable, unwritable) is never an error, only a load from
    /// the files, with one more warning (at the cache file) that tells why.
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
        let miss = match read_hit(&path, dir, &canonical, filter) {
            Ok(hit) => return Ok(hit),
            Err(miss) => miss,
        };
        // The files are stat'ed before they are read: one that changes in
        // between is seen as changed by the next load.
        let mut dirs = Vec::new();
        let Ok(files) = record_files_and_dirs(dir, &mut dirs) else {
            return Catalog::load_filtered(dir, filter);
        };
        let paths: Vec<PathBuf> = files.iter().map(fs::DirEntry::path).collect();
        let stamps = Stamps::new(dir, &canonical, filter, &dirs, &paths);
        let (catalog, mut diagnostics) = Compiled::new(load_listed(dir, Ok(paths)), filter)?.into_catalog();
        if let Ok(stamps) = stamps {
            if !stamps.racy(SystemTime::now()) {
                // Best effort: a cache that cannot be written is not a problem.
                let _ = write(cache_dir, &path, &stamps, &catalog, &diagnostics);
            }
        }
        diagnostics.extend(miss.note(&path));
        Ok((catalog, diagnostics))
    }
}

/// The compiled catalog that the cache file at `path` holds for the load
/// of `dir` (canonical: `canonical`) with `filter`, if it is whole, of this
/// version and load, and nothing it stamped has changed. The file is read
/// in one piece: a load that writes it meanwhile replaces it by a rename,
/// so the bytes are all of the old file or all of the new.
fn read_hit(path: &Path, dir: &Path, canonical: &Path, filter: &Filter) -> Result<(Catalog, Vec<Diagnostic>), Miss> {
    let bytes = fs::read(path).map_err(|_| Miss::Absent)?;
    let payload = unseal(MAGIC, &bytes)?;
    let (stamps, contents) = postcard::take_from_bytes::<Stamps>(payload).map_err(|_| Miss::Damaged)?;
    let same_load = Some(&*stamps.dir) == dir.to_str()
        && Some(&*stamps.canonical) == canonical.to_str()
        && stamps.filter == *filter;
    if !same_load {
        return Err(Miss::OtherLoad);
    }
    // The stats (a system call per record file) run beside the decoding:
    // a quarter less wall time at 5,110 records (measured).
    let (current, decoded) = std::thread::scope(|scope| {
        // A thread that cannot start leaves the stats to this one.
        let stats = std::thread::Builder::new().spawn_scoped(scope, || stamps.current(dir));
        let decoded = postcard::take_from_bytes::<Contents>(contents);
        let current = match stats {
            Ok(stats) => stats.join().unwrap_or(false),
            Err(_) => stamps.current(dir),
        };
        (current, decoded)
    });
    if !current {
        return Err(Miss::Stale);
    }
    let Ok(((diagnostics, entries, records, origins, PackedIndex(index)), [])) = decoded else {
        return Err(Miss::Damaged);
    };
    let count = entries.len();
    let records = Records { frames: None, start: offset(&bytes, records).start };
    let origins = Some((offset(&bytes, origins), false));
    let run = Run { dataset: None, entries, count, records, origins };
    let (mut shared, mut parts) = (Vec::new(), Vec::new());
    share(&Blob::Shared(Arc::new(bytes)), run, &mut shared, &mut parts);
    Ok((Catalog::with_matcher(Matcher::with_index(shared, index), parts), diagnostics))
}

/// Where `part`, a slice borrowed from `blob`, is in it (postcard borrows byte
/// strings from what it decodes); the ranges are checked where they are
/// read.
fn offset(blob: &[u8], part: &[u8]) -> Range<usize> {
    let start = (part.as_ptr() as usize).wrapping_sub(blob.as_ptr() as usize);
    start..start.saturating_add(part.len())
}

/// A run of entries as a cache file or [`Catalog::to_bytes`] holds it:
/// its dataset's name, its entries (`count` of them), where their records
/// begin (they are one after the other) and where its origins are, if it
/// has origins, and whether they are compressed.
struct Run<E> {
    dataset: Option<Text>,
    entries: E,
    count: usize,
    records: Records,
    origins: Option<(Range<usize>, bool)>,
}

/// Where a run's records begin: at `start` of the blob, or of the
/// uncompressed bytes of `frames`.
struct Records {
    frames: Option<Arc<Frames>>,
    start: usize,
}

/// Appends `run`'s entries and its [`Part`] to `entries` and `parts`, as
/// [`Entry`]s and a part that share `blob`: each record and the run's
/// origins decoded when first asked for. Straight into the catalog's
/// vectors: a run's vector copied into them was one more write of every
/// entry's memory (page faults at start-up).
fn share(
    blob: &Blob,
    run: Run<impl IntoIterator<Item = CachedEntry>>,
    entries: &mut Vec<Entry>,
    parts: &mut Vec<Part>,
) {
    let Run { dataset, entries: run_entries, count, records, origins } = run;
    let origins = match origins {
        Some((range, compressed)) => {
            let file = blob.clone();
            Origins::Cached(CachedOrigins { file, range, compressed, count, decoded: OnceLock::new() })
        }
        None => Origins::Known(vec![None; count]),
    };
    parts.push(Part { start: entries.len(), dataset, origins });
    entries.reserve(count);
    let mut start = records.start;
    entries.extend(run_entries.into_iter().map(|(name, template, len)| {
        let range = start..start.saturating_add(len);
        start = range.end;
        let (source, range) = match &records.frames {
            Some(frames) => {
                let (frame, range) = frames.locate(range);
                (Source::Frame(frames.clone(), frame), range)
            }
            None => (Source::Blob(blob.clone()), range),
        };
        Entry::cached(name, CachedRecord::new(source, range), template)
    }));
}

/// `magic`, the checksum of what follows, [`COMPILER`], then
/// `payload` postcard-encoded: a cache file and [`Catalog::to_bytes`].
fn seal(magic: &[u8; 8], payload: &impl Serialize) -> postcard::Result<Vec<u8>> {
    let body = postcard::to_allocvec(COMPILER)?;
    let body = postcard::to_extend(payload, body)?;
    let mut bytes = Vec::with_capacity(magic.len() + 8 + body.len());
    bytes.extend(magic);
    bytes.extend(xxh3_64(&body).to_le_bytes());
    bytes.extend(body);
    Ok(bytes)
}

/// The payload of `bytes` sealed with `magic` by this version of the crate
/// (another version may compile records differently).
fn unseal<'a>(magic: &[u8; 8], bytes: &'a [u8]) -> Result<&'a [u8], Miss> {
    unseal_checked(magic, bytes, true)
}

/// [`unseal`], the checksum checked only if `check_sum`.
fn unseal_checked<'a>(magic: &[u8; 8], bytes: &'a [u8], check_sum: bool) -> Result<&'a [u8], Miss> {
    let (layout, rest) = bytes.split_at_checked(magic.len()).ok_or(Miss::Damaged)?;
    if layout != magic {
        let another_layout = layout[..magic.len() - 1] == magic[..magic.len() - 1];
        return Err(if another_layout { Miss::OtherVersion } else { Miss::Damaged });
    }
    let (sum, body) = rest.split_at_checked(8).ok_or(Miss::Damaged)?;
    if check_sum && xxh3_64(body).to_le_bytes() != sum {
        return Err(Miss::Damaged);
    }
    match postcard::take_from_bytes::<&str>(body) {
        Ok((COMPILER, payload)) => Ok(payload),
        Ok(_) => Err(Miss::OtherVersion),
        Err(_) => Err(Miss::Damaged),
    }
}

impl Stamps {
    /// The stamps of a load of `dir` with `filter` that lists these `dirs`
    /// and record files at `paths`; an error when one cannot be stat'ed or
    /// a path is not Unicode.
    fn new(
        dir: &Path,
        canonical: &Path,
        filter: &Filter,
        dirs: &[(PathBuf, fs::Metadata)],
        paths: &[PathBuf],
    ) -> io::Result<Stamps> {
        let text = |path: &Path| path.to_str().map(str::to_owned).ok_or_else(|| io::Error::other("not Unicode"));
        let stamp = |path: &Path, meta: Meta| -> io::Result<Stamp> {
            Ok(Stamp { path: text(path.strip_prefix(dir).unwrap_or(path))?, meta })
        };
        Ok(Stamps {
            dir: text(dir)?,
            canonical: text(canonical)?,
            filter: filter.clone(),
            dirs: dirs.iter().map(|(path, metadata)| stamp(path, Meta::of(metadata)?)).collect::<io::Result<_>>()?,
            files: paths.iter().map(|path| stamp(path, Meta::of(&fs::metadata(path)?)?)).collect::<io::Result<_>>()?,
            names: names_meta(dir)?,
        })
    }

    /// Whether every directory, record file and the names file under `dir`
    /// is as stamped.
    fn current(&self, dir: &Path) -> bool {
        // One path for every stat: a `join` each (an allocation in this
        // thread's new arena) cost more than the stat (measured).
        let mut path = PathBuf::new();
        let mut same = |stamp: &Stamp| {
            path.as_mut_os_string().clear();
            path.push(dir);
            path.push(&stamp.path);
            fs::metadata(&path).is_ok_and(|metadata| Meta::of(&metadata).is_ok_and(|m| m == stamp.meta))
        };
        self.dirs.iter().all(&mut same)
            && self.files.iter().all(&mut same)
            && names_meta(dir).is_ok_and(|names| names == self.names)
    }

    /// Whether a file or directory was modified within [`RACY`] of `now`
    /// (or after it).
    fn racy(&self, now: SystemTime) -> bool {
        let Ok(now) = now.duration_since(UNIX_EPOCH) else {
            return true;
        };
        let limit = i128::try_from(now.saturating_sub(RACY).as_nanos()).unwrap_or(i128::MAX);
        let stamps = self.files.iter().chain(&self.dirs).map(|stamp| &stamp.meta).chain(&self.names);
        stamps.into_iter().any(|meta| i128::from(meta.mtime) >= limit)
    }
}

/// The stamp of `dir`'s names file, if it has one.
fn names_meta(dir: &Path) -> io::Result<Option<Meta>> {
    match fs::metadata(dir.join(NAMES_FILE)) {
        Ok(metadata) if metadata.is_file() => Ok(Some(Meta::of(&metadata)?)),
        Ok(_) => Ok(None),
        Err(err) if err.kind() == io::ErrorKind::NotFound => Ok(None),
        Err(err) => Err(err),
    }
}

impl Meta {
    /// The stamp of a file or directory with this `metadata`.
    fn of(metadata: &fs::Metadata) -> io::Result<Meta> {
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
}

/// One file per dataset directory and filter, whatever its contents; a new
/// load of the same dataset replaces it.
fn file_name(dir: &Path, canonical: &Path, filter: &Filter) -> String {
    let key = (dir, canonical, filter);
    let bytes = postcard::to_allocvec(&key).unwrap_or_else(|_| format!("{key:?}").into_bytes());
    format!("catalog-{:016x}.bin", xxh3_64(&bytes))
}

/// Writes the cache file of `compiled`, loaded as `stamps` says, through a
/// temporary file and a rename, so that a reader never sees half a file.
fn write(
    cache_dir: &Path,
    path: &Path,
    stamps: &Stamps,
    catalog: &Catalog,
    diagnostics: &[Diagnostic],
) -> io::Result<()> {
    // A fresh load knows every origin.
    let origins: Vec<&Origin> = (0..catalog.len()).filter_map(|index| catalog.origin(index)).collect();
    let origins = postcard::to_allocvec(&origins).map_err(io::Error::other)?;
    let mut records = Vec::new();
    let entries: Vec<(&Text, &Template, usize)> = (catalog.entries().iter())
        .map(|entry| {
            let start = records.len();
            record_bytes::encode(entry.record(), &mut records);
            (&entry.name, &entry.template, records.len() - start)
        })
        .collect();
    let contents = (diagnostics, entries, Bytes(&records), Bytes(&origins), catalog.matcher().index());
    let bytes = seal(MAGIC, &(stamps, contents)).map_err(io::Error::other)?;
    fs::create_dir_all(cache_dir)?;
    // Unique to this write: two threads of a process may write at once.
    static WRITES: AtomicU64 = AtomicU64::new(0);
    let write = WRITES.fetch_add(1, Ordering::Relaxed);
    let temporary = cache_dir.join(format!(".tmp-{}-{write}", std::process::id()));
    let written = fs::write(&temporary, &bytes).and_then(|()| fs::rename(&temporary, path));
    if written.is_err() {
        let _ = fs::remove_file(&temporary);
    }
    written
}

/// Bytes written as a byte string, which decodes as a borrowed `&[u8]`.
struct Bytes<'a>(&'a [u8]);

impl Serialize for Bytes<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_bytes(self.0)
    }
}

/// What [`Catalog::to_bytes`] seals: the runs of entries of one dataset
/// ([`PackedRun`]), every record's bytes one after the other in entry
/// order ([`record_bytes`]) in compressed frames (the frames' lengths,
/// then the frames: [`blob::compress_frames`]), and the matcher's index
/// postcard-encoded ([`PackedIndex`]), which only the whole catalog uses.
type Packed<'a> = (Vec<PackedRun<'a>>, Vec<(usize, usize)>, &'a [u8], &'a [u8]);

/// A run of entries of one dataset in [`Packed`]: its name, its number of
/// entries, their names and templates ([`head_bytes`]: the skeleton, then
/// the texts), the length of their records' bytes, and their origins
/// postcard-encoded as a `Vec<Origin>` and compressed ([`blob::compress`];
/// none for ready entries). A run's
/// entries are bytes of their own so that a catalog of some of the
/// datasets decodes only theirs (`--dataset`).
type PackedRun<'a> = (Option<Text>, usize, &'a [u8], &'a [u8], usize, Option<&'a [u8]>);

/// The matcher's index as a cache file and [`Catalog::to_bytes`] hold it:
/// what building the matcher computes from the templates, taken as it is
/// when it is sound (see `Matcher::with_index`), else computed anew.
struct PackedIndex(Index);

impl<'de> Deserialize<'de> for PackedIndex {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        Index::deserialize_whole(deserializer).map(PackedIndex)
    }
}

impl Catalog {
    /// The compiled catalog as bytes (entries, origins and datasets' names,
    /// with the crate's version and a checksum; the records and origins
    /// LZ4-compressed), to be turned back into the same catalog by
    /// [`Catalog::from_bytes`] in another process without reading or
    /// compiling any record: for example broadcast once to the workers of
    /// a cluster, or compiled into a program by its build script
    /// ([`Catalog::from_static_bytes`]).
    ///
    /// ```
    /// # use catalog_runtime::Catalog;
    /// let catalog = Catalog::load("../data/nats-io/nats-server").unwrap().named("nats");
    /// let copy = Catalog::from_bytes(&catalog.to_bytes()).unwrap();
    /// assert_eq!(copy.entries(), catalog.entries());
    /// assert_eq!(copy.dataset(0), Some("nats"));
    /// assert!(Catalog::from_bytes(b"not a catalog").is_none());
    /// ```
    pub fn to_bytes(&self) -> Vec<u8> {
        // Serializing owned, well-formed values into memory cannot fail.
        let (mut records, mut record_ends) = (Vec::new(), Vec::with_capacity(self.len()));
        let runs: Vec<_> = (self.datasets())
            .map(|(name, range)| {
                let start = records.len();
                let (mut skeleton, mut texts) = (Vec::new(), String::new());
                for entry in &self.entries()[range.clone()] {
                    let record_start = records.len();
                    record_bytes::encode(entry.record(), &mut records);
                    record_ends.push(records.len());
                    let len = records.len() - record_start;
                    head_bytes::encode(&entry.name, &entry.template, len, &mut skeleton, &mut texts);
                }
                let count = range.len();
                let origins: Option<Vec<&Origin>> = range.map(|index| self.origin(index)).collect();
                let origins = origins.map(|origins| postcard::to_allocvec(&origins).expect("origins serialize"));
                (name, count, skeleton, texts, records.len() - start, origins.as_deref().map(blob::compress))
            })
            .collect();
        let (frames, table) = blob::compress_frames(&records, record_ends);
        let runs: Vec<_> = (runs.iter())
            .map(|(name, count, skeleton, texts, len, origins)| {
                (name, count, Bytes(skeleton), Bytes(texts.as_bytes()), len, origins.as_deref().map(Bytes))
            })
            .collect();
        let index = postcard::to_allocvec(self.matcher().index()).expect("the index serializes");
        seal(PACKED_MAGIC, &(runs, table, Bytes(&frames), Bytes(&index))).expect("a catalog serializes")
    }

    /// The catalog that [`Catalog::to_bytes`] gave these bytes for, if they
    /// are whole, undamaged, and written by this version of the crate
    /// (another version may compile records differently); `None` otherwise.
    /// The records and origins are decoded from a copy of the bytes when
    /// first asked for.
    pub fn from_bytes(bytes: &[u8]) -> Option<Catalog> {
        Catalog::unpack(Blob::Shared(Arc::new(bytes.to_vec())), false, &mut |_| true)
    }

    /// [`Catalog::from_bytes`] of bytes that are part of the program
    /// (`include_bytes!` of what its build script wrote with
    /// [`Catalog::to_bytes`]): nothing is copied (the entries' names and
    /// templates borrow their texts from the bytes), the records and origins
    /// are decoded from them when first asked for, and the checksum is not
    /// checked (the bytes are as sound as the program's code; summing them
    /// was a seventh of a start-up at 9,829 records, measured), nor is the
    /// matcher's index computed again (half of what remained). Bytes of
    /// another version are still refused.
    pub fn from_static_bytes(bytes: &'static [u8]) -> Option<Catalog> {
        Catalog::unpack(Blob::Static(bytes), true, &mut |_| true)
    }

    /// [`Catalog::from_static_bytes`] of the datasets that `keep` keeps
    /// (by name, as [`Catalog::retain_datasets`] does): only their entries
    /// are decoded, and the matcher's index is computed for them.
    pub fn from_static_bytes_retaining(
        bytes: &'static [u8],
        mut keep: impl FnMut(Option<&str>) -> bool,
    ) -> Option<Catalog> {
        Catalog::unpack(Blob::Static(bytes), true, &mut keep)
    }

    /// The catalog of the datasets of `blob` that `keep` keeps; `trusted`:
    /// a part of the program, whose checksum is not checked and whose
    /// matcher index is taken as it is (when every dataset is kept).
    fn unpack(blob: Blob, trusted: bool, keep: &mut dyn FnMut(Option<&str>) -> bool) -> Option<Catalog> {
        let mut entries = Vec::new();
        let mut parts = Vec::new();
        let mut every_one = true;
        let index = {
            let payload = unseal_checked(PACKED_MAGIC, &blob, !trusted).ok()?;
            let Ok(((packed_runs, table, frames, index), [])) = postcard::take_from_bytes::<Packed>(payload) else {
                return None;
            };
            let frames = Arc::new(Frames::new(blob.clone(), offset(&blob, frames), &table)?);
            let mut start = 0usize;
            for (name, count, mut skeleton, texts, len, origins) in packed_runs {
                let run = start..start.checked_add(len)?;
                start = run.end;
                if !keep(name.as_deref()) {
                    every_one = false;
                    continue;
                }
                // Every entry takes a byte of the skeleton at least.
                if count > skeleton.len() {
                    return None;
                }
                let mut texts = blob.texts(offset(&blob, texts))?;
                let first = entries.len();
                // Stops at the first entry that does not decode.
                let decoded = std::iter::from_fn(|| head_bytes::decode(&mut skeleton, &mut texts)).take(count);
                let origins = origins.map(|origins| (offset(&blob, origins), true));
                let records = Records { frames: Some(frames.clone()), start: run.start };
                let run = Run { dataset: name, entries: decoded, count, records, origins };
                share(&blob, run, &mut entries, &mut parts);
                if entries.len() - first != count || !skeleton.is_empty() || !texts.is_empty() {
                    return None;
                }
            }
            if start != frames.len() {
                return None;
            }
            every_one.then_some(index)
        };
        let matcher = match index.map(postcard::from_bytes::<PackedIndex>) {
            Some(Ok(PackedIndex(index))) => Matcher::with_index(entries, index),
            Some(Err(_)) => return None,
            None => Matcher::from_items(entries),
        };
        Some(Catalog::with_matcher(matcher, parts))
    }
}

#[cfg(test)]
mod tests {
    use std::fs::File;

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
            r#"{{"record": {{"id": "{id}", "errorMessage": "{message}", "severity": "{severity}", "filePath": "server/x.go", "tags": ["t"], "documentation": "What {id} means."}}}}"#
        )
    }

    /// A dataset of three records (one in a subdirectory), all an hour old.
    fn dataset() -> TempDir {
        let dir = TempDir::new("data");
        fs::create_dir(dir.0.join("sub")).unwrap();
        write_at(&dir.0.join("a.json"), &record("a1", "stream %s failed: %v", "error"), an_hour_ago());
        write_at(&dir.0.join("b.json"), &record("b2", "limit %d reached", "warning"), an_hour_ago());
        write_at(&dir.0.join("sub/c.json"), &record("c3", "closed %q", "error"), an_hour_ago());
        age_dirs(&dir.0);
        dir
    }

    /// A dataset of `count` records `r0` to `r{count - 1}`, all an hour old.
    fn dataset_of(count: usize) -> TempDir {
        let data = TempDir::new("data");
        for i in 0..count {
            let text = record(&format!("r{i}"), &format!("n{i} %d"), "error");
            write_at(&data.0.join(format!("r{i:04}.json")), &text, an_hour_ago());
        }
        age_dirs(&data.0);
        data
    }

    /// Sets the modification time of `dir` and of its subdirectories that
    /// changed in the last minute to an hour ago: a directory just changed
    /// is racily clean, as a file is, and prevents writing the cache. The
    /// others are left as they are, so that only a changed one differs.
    fn age_dirs(dir: &Path) {
        for entry in fs::read_dir(dir).unwrap() {
            let entry = entry.unwrap();
            if entry.file_type().unwrap().is_dir() {
                age_dirs(&entry.path());
            }
        }
        if fs::metadata(dir).unwrap().modified().unwrap() > SystemTime::now() - Duration::from_secs(60) {
            File::open(dir).unwrap().set_modified(an_hour_ago()).unwrap();
        }
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

    fn cache_file(dir: &Path, filter: &Filter, cache: &Path) -> PathBuf {
        cache.join(file_name(dir, &fs::canonicalize(dir).unwrap(), filter))
    }

    /// What the cache file of `dir` loaded with `filter` gives: a hit, or
    /// why not.
    fn hit_of(dir: &Path, filter: &Filter, cache: &Path) -> Result<(Catalog, Vec<Diagnostic>), Miss> {
        read_hit(&cache_file(dir, filter, cache), dir, &fs::canonicalize(dir).unwrap(), filter)
    }

    /// Why `dir`'s cache for the default filter is not a hit after
    /// `change`, with the directories aged again (as if the change were an
    /// hour old, and the directories' mtimes moved by it).
    fn miss_after(dir: &Path, cache: &Path, change: impl FnOnce()) -> Option<Miss> {
        change();
        age_dirs(dir);
        hit_of(dir, &Filter::default(), cache).err()
    }

    /// Loads `data` through `cache` with `filter` and checks the result
    /// against a fresh load: the same, with the note of what the cache file
    /// was beforehand (none if a hit or absent). Then the cache is a hit.
    fn load_filtered_and_compare(data: &Path, filter: &Filter, cache: &Path) -> String {
        let file = cache_file(data, filter, cache);
        let note = hit_of(data, filter, cache).err().and_then(|miss| miss.note(&file));
        let (catalog, mut warnings) = Catalog::load_cached(data, filter, cache).unwrap();
        let fresh = summary(Catalog::load_filtered(data, filter));
        if let Some(note) = note {
            assert_eq!(warnings.pop(), Some(note));
        }
        assert_eq!(summary(Ok((catalog, warnings))), fresh);
        assert!(hit_of(data, filter, cache).is_ok(), "the load wrote the cache");
        fresh
    }

    /// [`load_filtered_and_compare`] with the default filter.
    fn load_and_compare(data: &Path, cache: &Path) -> String {
        load_filtered_and_compare(data, &Filter::default(), cache)
    }

    /// [`dataset`], loaded once through a new cache (which it wrote).
    fn loaded_once() -> (TempDir, TempDir) {
        let (data, cache) = (dataset(), TempDir::new("cache"));
        load_and_compare(&data.0, &cache.0);
        (data, cache)
    }

    fn mtime_of(path: &Path) -> SystemTime {
        fs::metadata(path).unwrap().modified().unwrap()
    }

    /// Loads `dir` fresh and through the cache (twice: written, then read)
    /// and checks that all three agree, in entries, origins, warnings,
    /// lookups and matches.
    fn assert_hit_equals_fresh(dir: &Path) {
        let cache = TempDir::new("cache");
        let filter = Filter::default();
        let (fresh, fresh_warnings) = Catalog::load_filtered(dir, &filter).unwrap();
        let first = summary(Catalog::load_cached(dir, &filter, &cache.0));
        assert!(hit_of(dir, &filter, &cache.0).is_ok(), "the first load writes the cache");
        let (hit, hit_warnings) = Catalog::load_cached(dir, &filter, &cache.0).unwrap();
        assert_eq!(hit.entries(), fresh.entries());
        for (index, entry) in fresh.entries().iter().enumerate() {
            assert_eq!(hit.by_id(&entry.record().id), fresh.by_id(&entry.record().id));
            assert_eq!(hit.by_slug(&entry.record().slug), fresh.by_slug(&entry.record().slug));
            assert_eq!(hit.by_name(&entry.name), fresh.by_name(&entry.name));
            if index % 3 == 0 {
                let line = format!("[1] 2026/11/29 17:20:00.123456 [ERR] {}", entry.record().error_message);
                assert_eq!(hit.find(&line), fresh.find(&line), "{line}");
            }
        }
        let fresh = summary(Ok((fresh, fresh_warnings)));
        assert_eq!(summary(Ok((hit, hit_warnings))), fresh);
        assert_eq!(first, fresh);
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
        assert_hit_equals_fresh(&dir.0);
    }

    #[test]
    fn a_hit_gives_what_a_fresh_load_gives_on_the_corpus() {
        let test = "a_hit_gives_what_a_fresh_load_gives_on_the_corpus";
        let Some(corpus) = crate::test_support::corpus("nats-server", test) else {
            return;
        };
        assert_hit_equals_fresh(&corpus);
    }

    #[test]
    fn threads_reading_a_cache_while_it_is_written_never_take_it_for_damaged() {
        let data = dataset_of(200);
        let cache = TempDir::new("cache");
        load_and_compare(&data.0, &cache.0);
        let fresh = Catalog::load(&data.0).unwrap();
        let file = cache_file(&data.0, &Filter::default(), &cache.0);
        let canonical = fs::canonicalize(&data.0).unwrap();
        let mut dirs = Vec::new();
        let paths: Vec<PathBuf> =
            record_files_and_dirs(&data.0, &mut dirs).unwrap().iter().map(fs::DirEntry::path).collect();
        let stamps = Stamps::new(&data.0, &canonical, &Filter::default(), &dirs, &paths).unwrap();
        let (compiled, warnings) =
            Compiled::new(load_listed(&data.0, Ok(paths)), &Filter::default()).unwrap().into_catalog();
        std::thread::scope(|scope| {
            scope.spawn(|| {
                for _ in 0..50 {
                    write(&cache.0, &file, &stamps, &compiled, &warnings).unwrap();
                }
            });
            for _ in 0..2 {
                scope.spawn(|| {
                    for round in 0..50 {
                        let (catalog, warnings) = Catalog::load_cached(&data.0, &Filter::default(), &cache.0).unwrap();
                        assert_eq!(warnings, [], "round {round}");
                        assert_eq!(catalog.entries(), fresh.entries(), "round {round}");
                    }
                });
            }
        });
        assert!(hit_of(&data.0, &Filter::default(), &cache.0).is_ok());
    }

    #[test]
    fn a_hit_reads_no_record_file() {
        let data = dataset();
        let cache = TempDir::new("cache");
        let before = load_and_compare(&data.0, &cache.0);
        // Same length, same mtime, same inode: only reading would tell.
        let path = data.0.join("a.json");
        let mtime = mtime_of(&path);
        write_at(&path, &record("a1", "stream %s FAILED: %v", "error"), mtime);
        let after = summary(Catalog::load_cached(&data.0, &Filter::default(), &cache.0));
        assert_eq!(after, before);
        assert!(!after.contains("FAILED"));
    }

    #[test]
    fn an_edited_file_is_a_miss() {
        let (data, cache) = loaded_once();
        let path = data.0.join("b.json");
        // Edited in place: no directory changes, only the file's stat tells.
        // Longer, with the same mtime.
        let mtime = mtime_of(&path);
        let longer = || write_at(&path, &record("b2", "limit %d reached!", "warning"), mtime);
        assert_eq!(miss_after(&data.0, &cache.0, longer), Some(Miss::Stale));
        assert!(load_and_compare(&data.0, &cache.0).contains("limit %d reached!"));
        // Same length, another mtime.
        let later = an_hour_ago() + Duration::from_secs(1);
        let same_length = || write_at(&path, &record("b2", "limit %d REACHED!", "warning"), later);
        assert_eq!(miss_after(&data.0, &cache.0, same_length), Some(Miss::Stale));
        assert!(load_and_compare(&data.0, &cache.0).contains("limit %d REACHED!"));
    }

    #[test]
    fn a_replaced_file_is_a_miss() {
        let (data, cache) = loaded_once();
        // Same length and mtime, another inode (written aside, renamed over).
        let path = data.0.join("b.json");
        let mtime = mtime_of(&path);
        let replace = || {
            let aside = data.0.join(".b.json.new");
            write_at(&aside, &record("b2", "LIMIT %d reached", "warning"), mtime);
            fs::rename(&aside, &path).unwrap();
        };
        assert_eq!(miss_after(&data.0, &cache.0, replace), Some(Miss::Stale));
        assert!(load_and_compare(&data.0, &cache.0).contains("LIMIT %d reached"));
    }

    #[test]
    fn an_edit_of_any_file_is_a_miss() {
        // The first, a middle and the last file edited in turn (same length
        // and inode, a later mtime).
        let files = 30;
        let data = dataset_of(files);
        let cache = TempDir::new("cache");
        load_and_compare(&data.0, &cache.0);
        for (step, file) in [0, files / 2, files - 1].into_iter().enumerate() {
            assert!(hit_of(&data.0, &Filter::default(), &cache.0).is_ok(), "a hit before step {step}");
            let path = data.0.join(format!("r{file:04}.json"));
            let text = fs::read_to_string(&path).unwrap().replace(&format!("n{file} %d"), &format!("N{file} %d"));
            write_at(&path, &text, an_hour_ago() + Duration::from_secs(1 + step as u64));
            let miss = hit_of(&data.0, &Filter::default(), &cache.0).err();
            assert_eq!(miss, Some(Miss::Stale), "after editing {}", path.display());
            assert!(load_and_compare(&data.0, &cache.0).contains(&format!("N{file} %d")));
        }
    }

    #[test]
    fn an_added_or_removed_file_is_a_miss() {
        let (data, cache) = loaded_once();
        let add = || write_at(&data.0.join("sub/d.json"), &record("d4", "disk %s full", "fatal"), an_hour_ago());
        assert_eq!(miss_after(&data.0, &cache.0, add), Some(Miss::Stale));
        assert!(load_and_compare(&data.0, &cache.0).contains("disk %s full"));
        let remove = || fs::remove_file(data.0.join("a.json")).unwrap();
        assert_eq!(miss_after(&data.0, &cache.0, remove), Some(Miss::Stale));
        assert!(!load_and_compare(&data.0, &cache.0).contains("stream %s failed"));
    }

    #[test]
    fn a_file_renamed_is_a_miss() {
        let (data, cache) = loaded_once();
        // Same length, mtime and inode: only its directory tells.
        let rename = || fs::rename(data.0.join("a.json"), data.0.join("z.json")).unwrap();
        assert_eq!(miss_after(&data.0, &cache.0, rename), Some(Miss::Stale));
        assert!(load_and_compare(&data.0, &cache.0).contains("z.json"));
    }

    #[test]
    fn a_change_in_a_subdirectory_is_a_miss() {
        let (data, cache) = loaded_once();
        // The root directory is unchanged; only `sub` tells.
        let sub = data.0.join("sub");
        let rename = || fs::rename(sub.join("c.json"), sub.join("d.json")).unwrap();
        assert_eq!(miss_after(&data.0, &cache.0, rename), Some(Miss::Stale));
        assert!(load_and_compare(&data.0, &cache.0).contains("sub/d.json"));
        let nested = || {
            fs::create_dir(sub.join("deeper")).unwrap();
            write_at(&sub.join("deeper/f.json"), &record("f6", "deep %d", "error"), an_hour_ago());
        };
        assert_eq!(miss_after(&data.0, &cache.0, nested), Some(Miss::Stale));
        assert!(load_and_compare(&data.0, &cache.0).contains("deep %d"));
        let remove = || fs::remove_dir_all(sub.join("deeper")).unwrap();
        assert_eq!(miss_after(&data.0, &cache.0, remove), Some(Miss::Stale));
        assert!(!load_and_compare(&data.0, &cache.0).contains("deep %d"));
    }

    #[test]
    fn a_names_file_added_edited_or_removed_is_a_miss() {
        let data = dataset();
        let cache = TempDir::new("cache");
        let rule_names = load_and_compare(&data.0, &cache.0);
        assert!(rule_names.contains("name: \"Stream\","), "{rule_names}");
        let names = data.0.join(NAMES_FILE);
        let add = || write_at(&names, "a1 StreamBroke\n", an_hour_ago());
        assert_eq!(miss_after(&data.0, &cache.0, add), Some(Miss::Stale));
        assert!(load_and_compare(&data.0, &cache.0).contains("\"StreamBroke\""));
        // Same length, a later mtime, in place.
        let later = an_hour_ago() + Duration::from_secs(1);
        let edit = || write_at(&names, "a1 StreamFails\n", later);
        assert_eq!(miss_after(&data.0, &cache.0, edit), Some(Miss::Stale));
        assert!(load_and_compare(&data.0, &cache.0).contains("\"StreamFails\""));
        assert_eq!(miss_after(&data.0, &cache.0, || fs::remove_file(&names).unwrap()), Some(Miss::Stale));
        assert_eq!(load_and_compare(&data.0, &cache.0), rule_names);
    }

    /// A cache file's payload, its checksum right, as written by crate
    /// `version` with layout `magic`.
    fn sealed_as(magic: &[u8; 8], version: &str, payload: &[u8]) -> Vec<u8> {
        let body = [&postcard::to_allocvec(version).unwrap()[..], payload].concat();
        [&magic[..], &xxh3_64(&body).to_le_bytes(), &body].concat()
    }

    /// The payload of a sound cache file.
    fn payload_of(sound: &[u8]) -> &[u8] {
        let (_, payload) = postcard::take_from_bytes::<&str>(&sound[MAGIC.len() + 8..]).unwrap();
        payload
    }

    /// The path and the bytes of the sound cache file of `data`.
    fn sound_file(data: &Path, cache: &Path) -> (PathBuf, Vec<u8>) {
        let file = cache_file(data, &Filter::default(), cache);
        let sound = fs::read(&file).unwrap();
        (file, sound)
    }

    /// The stamps and contents of a sound cache file.
    fn parts_of(sound: &[u8]) -> (Stamps, Contents<'_>) {
        let (stamps, contents) = postcard::take_from_bytes::<Stamps>(payload_of(sound)).unwrap();
        (stamps, postcard::from_bytes::<Contents>(contents).unwrap())
    }

    /// Writes a cache file of `stamps` and `contents` at `file`, its
    /// checksum right: what only a change the checksum misses gives.
    fn write_sealed(file: &Path, stamps: &Stamps, contents: impl Serialize) {
        let payload = postcard::to_allocvec(&(stamps, contents)).unwrap();
        fs::write(file, sealed_as(MAGIC, COMPILER, &payload)).unwrap();
    }

    /// Writes each of `damages` over the cache file of `data` in turn and
    /// checks that it is the miss `why`: the load gives the records of a
    /// fresh load and the note of `why`, and writes the file anew.
    fn assert_rebuilt(data: &Path, cache: &Path, why: Miss, damages: &[Vec<u8>]) {
        let file = cache_file(data, &Filter::default(), cache);
        let sound = fs::read(&file).unwrap();
        let (fresh, fresh_warnings) = Catalog::load_filtered(data, &Filter::default()).unwrap();
        for (number, damaged) in damages.iter().enumerate() {
            fs::write(&file, damaged).unwrap();
            assert_eq!(hit_of(data, &Filter::default(), cache).err(), Some(why), "damage {number}");
            let (catalog, warnings) = Catalog::load_cached(data, &Filter::default(), cache).unwrap();
            assert_eq!(catalog.entries(), fresh.entries(), "damage {number}");
            let origins =
                |catalog: &Catalog| (0..catalog.len()).map(|i| catalog.origin(i).cloned()).collect::<Vec<_>>();
            assert_eq!(origins(&catalog), origins(&fresh), "damage {number}");
            let (note, warnings) = warnings.split_last().expect("a note");
            assert_eq!(warnings, fresh_warnings, "damage {number}");
            assert_eq!(Some(note), why.note(&file).as_ref(), "damage {number}");
            assert_eq!(fs::read(&file).unwrap(), sound, "damage {number}: the load writes the cache anew");
        }
    }

    #[test]
    fn a_damaged_cache_file_is_rebuilt_with_a_note_and_the_right_records() {
        let (data, cache) = loaded_once();
        let sound = fs::read(cache_file(&data.0, &Filter::default(), &cache.0)).unwrap();
        let flipped = |at: usize| {
            let mut bytes = sound.clone();
            bytes[at] ^= 0x20;
            bytes
        };
        // Every byte flipped but the layout version's (another layout), and
        // every length cut short.
        let mut damages: Vec<Vec<u8>> = (0..sound.len()).filter(|&at| at != MAGIC.len() - 1).map(flipped).collect();
        damages.extend((0..sound.len()).map(|len| sound[..len].to_vec()));
        damages.push([&sound[..], b"x"].concat());
        // Sound checksums, but not a catalog.
        let payload = payload_of(&sound);
        let version = COMPILER;
        damages.push(sealed_as(MAGIC, version, &[0xff; 64]));
        damages.push(sealed_as(MAGIC, version, &payload[..payload.len() - 1]));
        damages.push(sealed_as(MAGIC, version, &[payload, &[0]].concat()));
        assert_rebuilt(&data.0, &cache.0, Miss::Damaged, &damages);
    }

    #[test]
    fn origins_that_do_not_decode_are_unknown() {
        // Only a change that the checksum misses gives these.
        let (data, cache) = loaded_once();
        let (file, sound) = sound_file(&data.0, &cache.0);
        let (stamps, (warnings, entries, records, origins, PackedIndex(index))) = parts_of(&sound);
        let fresh = Catalog::load(&data.0).unwrap();
        let one_short = postcard::to_allocvec(&(0..entries.len() - 1).map(|i| fresh.origin(i)).collect::<Vec<_>>());
        for wrong in [&one_short.unwrap()[..], &origins[..origins.len() - 1], &[0xff; 9]] {
            write_sealed(&file, &stamps, (&warnings, &entries, Bytes(records), Bytes(wrong), &index));
            let (catalog, _) = Catalog::load_cached(&data.0, &Filter::default(), &cache.0).unwrap();
            assert_eq!(catalog.entries(), fresh.entries());
            assert!((0..catalog.len()).all(|index| catalog.origin(index).is_none()));
        }
    }

    #[test]
    fn damaged_record_bytes_neither_fail_the_load_nor_panic() {
        // Only a change that the checksum misses gives these: the records
        // decode to something (see `record_bytes`), never a panic.
        let (data, cache) = loaded_once();
        let (file, sound) = sound_file(&data.0, &cache.0);
        let (stamps, (warnings, entries, records, origins, PackedIndex(index))) = parts_of(&sound);
        let mut damages: Vec<(Vec<CachedEntry>, Vec<u8>)> = Vec::new();
        for at in 0..records.len() {
            for flip in [0x01, 0x80, 0xff] {
                let mut flipped = records.to_vec();
                flipped[at] ^= flip;
                damages.push((entries.clone(), flipped));
            }
        }
        for len in 0..records.len() {
            damages.push((entries.clone(), records[..len].to_vec()));
        }
        // Lengths that overlap, reach past the records, or past the file.
        for wrong_len in [0, 1, records.len(), usize::MAX] {
            let mut lengths = entries.clone();
            lengths[0].2 = wrong_len;
            damages.push((lengths, records.to_vec()));
        }
        for (number, (entries, records)) in damages.iter().enumerate() {
            write_sealed(&file, &stamps, (&warnings, entries, Bytes(records), Bytes(origins), &index));
            let (catalog, hit_warnings) = Catalog::load_cached(&data.0, &Filter::default(), &cache.0).unwrap();
            assert_eq!(hit_warnings, [], "damage {number}: a hit");
            assert_eq!(catalog.len(), entries.len(), "damage {number}");
            for entry in catalog.entries() {
                let _ = entry.record().id.len();
            }
            let _ = catalog.by_id("a1");
        }
    }

    #[test]
    fn an_index_of_other_templates_is_computed_anew() {
        // Only a change that the checksum misses gives this.
        let (data, cache) = loaded_once();
        let (file, sound) = sound_file(&data.0, &cache.0);
        let (stamps, (warnings, entries, records, origins, _)) = parts_of(&sound);
        let other = Catalog::load(&dataset_of(7).0).unwrap();
        write_sealed(&file, &stamps, (&warnings, &entries, Bytes(records), Bytes(origins), other.matcher().index()));
        let (catalog, hit_warnings) = Catalog::load_cached(&data.0, &Filter::default(), &cache.0).unwrap();
        assert_eq!(hit_warnings, []);
        let fresh = Catalog::load(&data.0).unwrap();
        for line in ["x stream s1 failed: boom", "limit 5 reached", r#"closed "c""#] {
            assert_eq!(catalog.find(line), fresh.find(line), "{line}");
            assert!(fresh.find(line).is_some(), "{line}");
        }
    }

    #[test]
    fn records_read_after_a_hit_are_those_of_a_fresh_load() {
        let test = "records_read_after_a_hit_are_those_of_a_fresh_load";
        let Some(corpus) = crate::test_support::corpus("kafka", test) else {
            return;
        };
        let cache = TempDir::new("cache");
        let filter = Filter::default();
        let (fresh, _) = Catalog::load_filtered(&corpus, &filter).unwrap();
        Catalog::load_cached(&corpus, &filter, &cache.0).unwrap();
        let (hit, warnings) = hit_of(&corpus, &filter, &cache.0).expect("a hit");
        assert_eq!(warnings, []);
        assert_eq!(hit.len(), 5110);
        for (index, (cached, loaded)) in hit.entries().iter().zip(fresh.entries()).enumerate() {
            assert_eq!(cached.record(), loaded.record(), "record {index}");
            assert_eq!((&cached.name, &cached.template), (&loaded.name, &loaded.template), "entry {index}");
        }
    }

    #[test]
    fn a_cache_file_of_another_version_is_rebuilt_with_a_note() {
        let (data, cache) = loaded_once();
        let sound = fs::read(cache_file(&data.0, &Filter::default(), &cache.0)).unwrap();
        let payload = payload_of(&sound);
        let mut other_layout = *MAGIC;
        other_layout[MAGIC.len() - 1] ^= 1;
        let damages = [
            sealed_as(MAGIC, "0.0.0-other", payload),
            sealed_as(&other_layout, COMPILER, payload),
            sealed_as(&other_layout, COMPILER, b"a layout to come"),
        ];
        assert_rebuilt(&data.0, &cache.0, Miss::OtherVersion, &damages);
    }

    #[test]
    fn a_cache_file_of_another_load_is_a_miss() {
        let (data, cache) = loaded_once();
        // The dataset's file under another dataset's name: same files, but
        // spelled from elsewhere.
        let other = data.0.join("sub");
        fs::copy(cache_file(&data.0, &Filter::default(), &cache.0), cache_file(&other, &Filter::default(), &cache.0))
            .unwrap();
        assert_eq!(hit_of(&other, &Filter::default(), &cache.0).err(), Some(Miss::OtherLoad));
        let from_sub = load_and_compare(&other, &cache.0);
        assert!(!from_sub.contains("limit %d reached"));
    }

    #[test]
    fn a_recently_modified_file_prevents_writing() {
        let data = dataset();
        let cache = TempDir::new("cache");
        write_at(&data.0.join("b.json"), &record("b2", "limit %d reached", "warning"), SystemTime::now());
        let cached = summary(Catalog::load_cached(&data.0, &Filter::default(), &cache.0));
        assert_eq!(cached, summary(Catalog::load_filtered(&data.0, &Filter::default())));
        assert!(cache_files(&cache.0).is_empty());
    }

    #[test]
    fn racy_means_within_two_seconds_of_now_or_later() {
        let now = UNIX_EPOCH + Duration::from_secs(1_000_000);
        let meta = |millis_before: i64| Meta {
            len: 1,
            mtime: 1_000_000 * 1_000_000_000 - millis_before * 1_000_000,
            inode: 1,
        };
        let stamp = |millis_before: i64| Stamp { path: "a.json".into(), meta: meta(millis_before) };
        let with = |dir: i64, file: i64, names: Option<i64>| Stamps {
            dir: String::new(),
            canonical: String::new(),
            filter: Filter::default(),
            dirs: vec![stamp(dir)],
            files: vec![stamp(file)],
            names: names.map(meta),
        };
        let hour = 3_600_000;
        // A directory and the names file count as a record file does.
        assert!(with(0, hour, None).racy(now));
        assert!(with(hour, hour, Some(1000)).racy(now));
        assert!(!with(hour, hour, Some(hour)).racy(now));
        for (file, racy) in [(-5000, true), (0, true), (1999, true), (2001, false), (hour, false)] {
            assert_eq!(with(hour, file, None).racy(now), racy, "{file} ms before");
        }
    }

    #[test]
    fn each_filter_has_its_own_cache() {
        let data = dataset();
        let cache = TempDir::new("cache");
        let warnings = Filter { severities: vec![Severity::Warning], ..Filter::default() };
        for filter in [Filter::default(), warnings.clone(), Filter::default(), warnings] {
            let cached = load_filtered_and_compare(&data.0, &filter, &cache.0);
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
    fn an_unwritable_cache_directory_is_no_error() {
        let data = dataset();
        // A file where the cache directory should be.
        let cache = TempDir::new("cache");
        let blocked = cache.0.join("blocked");
        fs::write(&blocked, "").unwrap();
        let cached = summary(Catalog::load_cached(&data.0, &Filter::default(), &blocked));
        assert_eq!(cached, summary(Catalog::load_filtered(&data.0, &Filter::default())));
    }

    #[test]
    fn warnings_come_back_in_order() {
        // The loader makes no warnings today; the cache keeps them all the same.
        let data = dataset();
        let cache = TempDir::new("cache");
        let canonical = fs::canonicalize(&data.0).unwrap();
        let mut dirs = Vec::new();
        let files = record_files_and_dirs(&data.0, &mut dirs).unwrap();
        let paths: Vec<PathBuf> = files.iter().map(fs::DirEntry::path).collect();
        let stamps = Stamps::new(&data.0, &canonical, &Filter::default(), &dirs, &paths).unwrap();
        let mut compiled = Compiled::new(crate::dataset::load_dir(&data.0), &Filter::default()).unwrap();
        let warning = |field: &str| compiled.origins[0].error(field, "odd").warning();
        compiled.diagnostics = vec![warning("tags"), warning("id"), warning("severity")];
        let warnings = compiled.diagnostics.clone();
        let (catalog, diagnostics) = compiled.into_catalog();
        write(&cache.0, &cache_file(&data.0, &Filter::default(), &cache.0), &stamps, &catalog, &diagnostics).unwrap();
        let expected = summary(Ok((catalog, diagnostics)));
        let (catalog, cached) = Catalog::load_cached(&data.0, &Filter::default(), &cache.0).unwrap();
        assert_eq!(cached, warnings);
        assert_eq!(summary(Ok((catalog, cached))), expected);
    }

    #[test]
    fn bytes_keep_each_datasets_name_and_origins() {
        let data = dataset();
        let loaded = || Catalog::load(&data.0).unwrap();
        let ready = Catalog::from_entries(loaded().entries().to_vec());
        let both = Catalog::concat(vec![loaded().named("a"), ready, loaded().named("b")]);
        let bytes: &'static [u8] = Vec::leak(both.to_bytes());
        for copy in [Catalog::from_static_bytes(bytes).unwrap(), Catalog::from_bytes(bytes).unwrap()] {
            assert_eq!(copy.entries(), both.entries());
            let runs: Vec<_> = copy.datasets().collect();
            assert_eq!(runs, [(Some("a"), 0..3), (None, 3..6), (Some("b"), 6..9)]);
            for index in 0..both.len() {
                assert_eq!((copy.dataset(index), copy.origin(index)), (both.dataset(index), both.origin(index)));
            }
            assert_eq!(copy.dataset(9), None);
            // The matcher's index, taken from the bytes or made anew, is the one of the entries.
            assert_eq!(copy.matcher().index(), both.matcher().index());
            assert_eq!(
                copy.find("[1] [ERR] stream orders failed: disk"),
                both.find("[1] [ERR] stream orders failed: disk")
            );
            let b = copy.retain_datasets(|name| name == Some("b"));
            assert_eq!((b.len(), b.dataset(0), b.origin(2)), (3, Some("b"), loaded().origin(2)));
            assert_eq!(b.find("[1] [ERR] stream orders failed: disk").map(|found| found.index), Some(0));
        }
        // Only some of the datasets: their entries, names and origins, as if retained after.
        let kept = Catalog::from_static_bytes_retaining(bytes, |name| name != Some("a")).unwrap();
        let retained = both.retain_datasets(|name| name != Some("a"));
        assert_eq!(kept.entries(), retained.entries());
        assert_eq!(kept.datasets().collect::<Vec<_>>(), [(None, 0..3), (Some("b"), 3..6)]);
        for index in 0..retained.len() {
            assert_eq!((kept.dataset(index), kept.origin(index)), (retained.dataset(index), retained.origin(index)));
            assert_eq!(kept.entries()[index].record(), retained.entries()[index].record());
        }
        assert_eq!(kept.matcher().index(), retained.matcher().index());
        assert!(Catalog::from_static_bytes_retaining(bytes, |_| false).unwrap().is_empty());
        // Another version's static bytes are refused too.
        let other = sealed_as(PACKED_MAGIC, "0.0.0-other", payload_of(bytes));
        assert!(Catalog::from_static_bytes(Vec::leak(other)).is_none());
    }

    #[test]
    fn bytes_of_datasets_of_many_frames_give_back_every_record_and_origin() {
        let test = "bytes_of_datasets_of_many_frames_give_back_every_record_and_origin";
        let (Some(nats), Some(kafka)) =
            (crate::test_support::corpus("nats-server", test), crate::test_support::corpus("kafka", test))
        else {
            return;
        };
        let both = || {
            let load = |dir: &Path, name: &str| Catalog::load(dir).unwrap().named(name.to_owned());
            Catalog::concat(vec![load(&nats, "nats-server"), load(&kafka, "kafka")])
        };
        let fresh = both();
        let bytes: &'static [u8] = Vec::leak(fresh.to_bytes());
        // The records and origins compressed (in about a hundred frames):
        // the whole catalog is smaller than its records alone.
        let plain: usize = fresh.entries().iter().map(|entry| record_bytes_len(entry.record())).sum();
        assert!(bytes.len() < plain, "{} bytes for {plain} of records", bytes.len());
        let copies = [Catalog::from_static_bytes(bytes).unwrap(), Catalog::from_bytes(bytes).unwrap()];
        for copy in &copies {
            assert_eq!(copy.len(), 2008 + 5110);
            // Read backwards: a frame's records need not be read in order.
            for index in (0..fresh.len()).rev() {
                assert_eq!(copy.entries()[index], fresh.entries()[index], "entry {index}");
                assert_eq!(copy.origin(index), fresh.origin(index), "origin {index}");
                assert_eq!(copy.dataset(index), fresh.dataset(index));
            }
        }
        // Kafka alone: its records begin within a frame of nats-server's.
        let kafka_only = Catalog::from_static_bytes_retaining(bytes, |name| name == Some("kafka")).unwrap();
        let retained = both().retain_datasets(|name| name == Some("kafka"));
        assert_eq!(kafka_only.entries(), retained.entries());
        assert_eq!(kafka_only.origin(5109), retained.origin(5109));
    }

    fn record_bytes_len(record: &crate::model::Record) -> usize {
        let mut bytes = Vec::new();
        record_bytes::encode(record, &mut bytes);
        bytes.len()
    }

    #[test]
    fn bytes_give_back_the_same_catalog() {
        let data = dataset();
        let (catalog, _) = Catalog::load_filtered(&data.0, &Filter::default()).unwrap();
        let copy = Catalog::from_bytes(&catalog.to_bytes()).unwrap();
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
        for damaged in [&bytes[..bytes.len() / 2], &flipped[..], &longer[..], PACKED_MAGIC, &[][..]] {
            assert!(Catalog::from_bytes(damaged).is_none());
        }
        // Another version's bytes are refused, and a cache file's.
        let payload = payload_of(&bytes);
        assert!(Catalog::from_bytes(&sealed_as(PACKED_MAGIC, COMPILER, payload)).is_some());
        assert!(Catalog::from_bytes(&sealed_as(PACKED_MAGIC, "0.0.0-other", payload)).is_none());
        assert!(Catalog::from_bytes(&sealed_as(MAGIC, COMPILER, payload)).is_none());
    }
}
