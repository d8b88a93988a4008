//! The compiled-catalog cache of [`Catalog::load_cached`]: the run-time
//! counterpart of what the `#[catalog]` macro precomputes at build time
//! (think Python's `__pycache__`).
//!
//! One file per dataset directory and filter, in the directory the caller
//! gives (the runtime has no default: errcat and the Python package choose
//! theirs). A file is [`MAGIC`], then a head, the entries' origins and the
//! records, each after its [`checksum`] (see [`read_hit`]). The head holds
//! two postcard-encoded parts: the [`Stamps`] of the load (the crate's
//! version, the directory, the filter, and the stat of every directory
//! walked, of every record file and of the names file); then the warnings
//! and the compiled entries without their records (in parts of
//! [`ENTRIES_PER_PART`], each a byte string, decoded in parallel). The
//! origins (every field's position: two thirds of what a start-up read
//! before they were moved out of the head) and the records (most of the
//! file) are read when the first one is asked for ([`Tail`]): matching
//! needs only the templates.
//!
//! A load reuses the file while every stat is the same (length,
//! modification time, inode): adding, removing or renaming a record file
//! changes its directory, an edit in place the file itself. Anything else
//! (no file, a short one or a damaged head, one that does not decode,
//! another version's, a stat that differs) is a miss: the records are read
//! and compiled, and the file written anew. Origins or records found damaged
//! when they are first read are taken from a load of the dataset instead,
//! and the file is removed. Nothing read from a cache file can make a load fail or
//! panic, or give other records than the dataset's.

use std::borrow::Cow;
use std::fs;
use std::io::{self, Read, Seek, SeekFrom};
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{mpsc, Arc, Mutex, OnceLock, PoisonError};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use serde::{Deserialize, Serialize};

use crate::build::Filter;
use crate::catalog::{Catalog, Compiled, LoadError, Origins};
use crate::dataset::{load_listed, record_files_and_dirs, Origin, NAMES_FILE};
use crate::diagnostic::Diagnostic;
use crate::entry::{EncodedRecord, Entry, RecordSource};
use crate::format::Template;
use crate::model::Record;

/// Starts every cache file. The last byte is the layout version: bump it when
/// the layout or a serialized type changes shape, so that older files are
/// never misread (they fail to decode or to pass the checksum anyway).
const MAGIC: &[u8; 8] = b"errcat\x00\x0b";

/// A file modified this recently may be modified again within the same mtime
/// tick without its stamp changing (git's "racily clean" problem), so a load
/// that saw one is not cached.
const RACY: Duration = Duration::from_secs(2);

/// The fewest record files worth a thread of their own to stat: a thread
/// costs tens of microseconds to start, a stat one or two.
const STATS_FOR_A_THREAD: usize = 256;

/// Record files stat'ed in one job: enough to pay for taking the job, few
/// enough that a thread turns to the entries' parts soon after the head is
/// read (a job takes about half a millisecond).
const STATS_PER_JOB: usize = 256;

/// The entries of a cache file are encoded in parts of this many, decoded
/// on every processor at once, beside the stats (decoding thousands of
/// entries is most of a start-up from the cache).
const ENTRIES_PER_PART: usize = 512;

/// What a cached load depends on, but for the record files' contents.
/// Paths are text: a dataset with a path that is not Unicode is not cached.
#[derive(Debug, PartialEq, Serialize, Deserialize)]
struct Stamps {
    /// The crate version: another version may compile records differently.
    version: String,
    /// The directory as given: the origins' paths are spelled with it.
    dir: String,
    /// The directory itself.
    canonical: String,
    filter: Filter,
    /// Every directory walked, the dataset's own first (path `""`).
    dirs: Vec<Stamp>,
    /// Every record file, by inode (see [`Stamps::new`]).
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

/// The origins of a cache hit, read from the file and decoded when first
/// asked for.
pub(crate) struct CachedOrigins {
    tail: Arc<Tail>,
    /// The number of entries.
    count: usize,
    decoded: OnceLock<Vec<Option<Origin>>>,
}

impl std::fmt::Debug for CachedOrigins {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CachedOrigins").field("count", &self.count).finish_non_exhaustive()
    }
}

impl CachedOrigins {
    /// The origin of entry `index`: from the file, or, when the file's
    /// origins cannot be read, are damaged or are not one per entry, from a
    /// load of the dataset.
    pub(crate) fn get(&self, index: usize) -> Option<&Origin> {
        let decoded = self.decoded.get_or_init(|| {
            let bytes = self.tail.origins.bytes(&self.tail.file);
            match bytes.map(postcard::take_from_bytes::<Vec<Origin>>) {
                Some(Ok((origins, []))) if origins.len() == self.count => origins.into_iter().map(Some).collect(),
                _ => {
                    let loaded = self.tail.loaded();
                    (0..loaded.len()).map(|index| loaded.origin(index).cloned()).collect()
                }
            }
        });
        decoded.get(index)?.as_ref()
    }
}

impl Catalog {
    /// [`Catalog::load_filtered`], with the compiled catalog cached in
    /// `cache_dir` (created if needed) and reused while no record file under
    /// `dir` has changed (same files, lengths, modification times and
    /// inodes; nor the names file). The results are those of
    /// `load_filtered`, warnings included: a problem with the cache (missing,
    /// damaged, stale, unreadable, unwritable) is never an error, only a
    /// load from the files.
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
        if let Some(hit) = read_hit(&path, dir, &canonical, filter) {
            return Ok(hit);
        }
        // The files are stat'ed before they are read: one that changes in
        // between is seen as changed by the next load.
        let mut dirs = Vec::new();
        let files = match record_files_and_dirs(dir, &mut dirs) {
            Ok(files) => files,
            Err(_) => return Catalog::load_filtered(dir, filter),
        };
        let paths: Vec<PathBuf> = files.iter().map(fs::DirEntry::path).collect();
        let stamps = Stamps::new(dir, &canonical, filter, &dirs, &files, &paths);
        let compiled = Compiled::new(load_listed(dir, Ok(paths)), filter)?;
        if let Ok(stamps) = stamps {
            if !stamps.racy(SystemTime::now()) {
                // Best effort: a cache that cannot be written is not a problem.
                let _ = write(cache_dir, &path, &stamps, &compiled);
            }
        }
        Ok(compiled.into_catalog())
    }
}

/// The fixed start of a cache file: [`MAGIC`], then the head's checksum,
/// its length, the length of its first part (the stamps) and the length of
/// the origins.
const FIXED: usize = MAGIC.len() + 32;

/// The catalog and warnings that the cache file at `path` holds for the
/// load of `dir` (canonical: `canonical`) with `filter`, if its head is
/// whole, of this version and load, and nothing it stamped has changed.
///
/// A file is [`FIXED`], the head (stamps, warnings and entries), then the
/// origins and the records, each after its checksum: read only when the
/// first one is asked for ([`Tail`]), because most start-ups use only the
/// entries' templates. The
/// stamps are read first, so that the record files are stat'ed while the
/// rest of the head is read; nothing is taken from them before the head's
/// checksum vouches for them, but for which files to stat.
fn read_hit(path: &Path, dir: &Path, canonical: &Path, filter: &Filter) -> Option<(Catalog, Vec<Diagnostic>)> {
    let mut file = fs::File::open(path).ok()?;
    let len = file.metadata().ok()?.len();
    let mut fixed = [0; FIXED];
    file.read_exact(&mut fixed).ok()?;
    let words = fixed.strip_prefix(MAGIC)?;
    let word = |at: usize| Some(u64::from_le_bytes(words.get(at * 8..at * 8 + 8)?.try_into().ok()?));
    let (sum, head_len, stamps_len, origins_len) = (word(0)?, word(1)?, word(2)?, word(3)?);
    let origins_at = u64::try_from(FIXED).ok()?.checked_add(head_len)?;
    let records_at = origins_at.checked_add(8)?.checked_add(origins_len)?;
    let records_len = usize::try_from(len.checked_sub(records_at)?.checked_sub(8)?).ok()?;
    let origins_len = usize::try_from(origins_len).ok()?;
    let (head_len, stamps_len) = (usize::try_from(head_len).ok()?, usize::try_from(stamps_len).ok()?);
    if stamps_len > head_len {
        return None;
    }
    let mut head = Vec::with_capacity(head_len);
    head.resize(stamps_len, 0);
    file.read_exact(&mut head).ok()?;
    let Ok((stamps, [])) = postcard::take_from_bytes::<Stamps>(&head) else {
        return None;
    };
    let same_load = stamps.version == env!("CARGO_PKG_VERSION")
        && Some(&*stamps.dir) == dir.to_str()
        && Some(&*stamps.canonical) == canonical.to_str()
        && stamps.filter == *filter;
    let root = Root::open(dir).ok()?;
    if !same_load || !root.all_same(&stamps.dirs) || root.names()? != stamps.names {
        return None;
    }
    let (sender, decoded) = mpsc::channel();
    let pool = Pool {
        stats: stamps.files.chunks(STATS_PER_JOB).collect(),
        next_stat: AtomicUsize::new(0),
        parts: OnceLock::new(),
        next_part: AtomicUsize::new(0),
        failed: AtomicBool::new(false),
        decoded: sender,
    };
    let threads = if stamps.files.len() >= STATS_FOR_A_THREAD {
        std::thread::available_parallelism().map_or(1, usize::from)
    } else {
        1
    };
    let mut warnings = Vec::new();
    let mut catalog = None;
    std::thread::scope(|scope| {
        for _ in 1..threads {
            // A thread that cannot start leaves its jobs to the others.
            let _ = std::thread::Builder::new().spawn_scoped(scope, || pool.work(&root));
        }
        head.resize(head_len, 0);
        let whole = file.read_exact(&mut head[stamps_len..]).is_ok() && checksum(&head) == sum;
        let rest = whole.then(|| {
            let Ok(((found, slices), [])) =
                postcard::take_from_bytes::<(Vec<Diagnostic>, Vec<&[u8]>)>(&head[stamps_len..])
            else {
                return None;
            };
            warnings = found;
            let tail = Tail {
                file: Mutex::new(file),
                path: path.to_owned(),
                origins: Section::at(origins_at, origins_len),
                records: Section::at(records_at, records_len),
                dir: dir.to_owned(),
                filter: filter.clone(),
                loaded: OnceLock::new(),
            };
            Some(Parts { slices, tail: Arc::new(tail) })
        });
        // Set even when the head is bad: the other threads wait for it.
        let _ = pool.parts.set(rest.flatten());
        // The catalog is built while the other threads may still stat: it
        // is dropped if a file turns out to have changed.
        catalog = pool.catalog(&decoded);
        pool.work(&root);
    });
    if pool.failed.into_inner() {
        return None;
    }
    Some((catalog?, warnings))
}

/// The jobs of a cache hit, which every processor takes in turn: the
/// decoding of the entries' parts once the head is read (the catalog waits
/// for them), else the stats of the record files, in runs of
/// [`STATS_PER_JOB`].
struct Pool<'a> {
    stats: Vec<&'a [Stamp]>,
    next_stat: AtomicUsize,
    /// `None` when the head is bad.
    parts: OnceLock<Option<Parts<'a>>>,
    next_part: AtomicUsize,
    /// A file not as stamped, or a part that does not decode.
    failed: AtomicBool,
    /// Where the thread that took a part sends it, decoded: `None` when it
    /// does not decode.
    decoded: mpsc::Sender<(usize, Option<Vec<Entry>>)>,
}

struct Parts<'a> {
    slices: Vec<&'a [u8]>,
    tail: Arc<Tail>,
}

impl Pool<'_> {
    fn failed(&self) -> bool {
        self.failed.load(Ordering::Relaxed)
    }

    fn fail(&self) {
        self.failed.store(true, Ordering::Relaxed);
    }

    /// Takes jobs until none is left.
    fn work(&self, root: &Root) {
        while !self.failed() {
            let decoded = match self.parts.get() {
                Some(Some(parts)) => self.decode_next(parts),
                Some(None) => return self.fail(),
                None => false,
            };
            if decoded || self.stat_next(root) {
                continue;
            }
            // Only parts are left, and the head is still being read.
            match self.parts.wait() {
                Some(parts) if self.decode_next(parts) => {}
                Some(_) => return,
                None => return self.fail(),
            }
        }
    }

    /// Stats the next run of files, if one is left.
    fn stat_next(&self, root: &Root) -> bool {
        let Some(stats) = self.stats.get(self.next_stat.fetch_add(1, Ordering::Relaxed)) else { return false };
        if !root.all_same(stats) {
            self.fail();
        }
        true
    }

    /// Decodes the next part, if one is left.
    fn decode_next(&self, parts: &Parts<'_>) -> bool {
        let part = self.next_part.fetch_add(1, Ordering::Relaxed);
        let Some(slice) = parts.slices.get(part) else { return false };
        let records: Arc<dyn RecordSource> = parts.tail.clone();
        let decoded = match postcard::take_from_bytes::<Vec<CachedEntry>>(slice) {
            Ok((entries, [])) => {
                let first = part * ENTRIES_PER_PART;
                let entries = entries.into_iter().enumerate();
                Some(entries.map(|(at, entry)| entry.into_entry(&records, first + at)).collect())
            }
            _ => None,
        };
        if decoded.is_none() {
            self.fail();
        }
        // The receiver lives as long as the pool.
        let _ = self.decoded.send((part, decoded));
        true
    }

    /// The catalog of the head's entries, once the head is read: this thread
    /// decodes the parts no other has taken, then waits for the others'
    /// (`decoded` receives them). `None` when the head is bad or the load
    /// failed.
    fn catalog(&self, decoded: &mpsc::Receiver<(usize, Option<Vec<Entry>>)>) -> Option<Catalog> {
        let parts = self.parts.wait().as_ref()?;
        while self.decode_next(parts) {}
        // Every part taken is sent, decoded or not.
        let mut in_order: Vec<Option<Vec<Entry>>> = parts.slices.iter().map(|_| None).collect();
        for _ in 0..parts.slices.len() {
            let (part, entries) = decoded.recv().ok()?;
            in_order[part] = Some(entries?);
        }
        let mut entries = Vec::with_capacity(parts.slices.len() * ENTRIES_PER_PART);
        for part in in_order {
            entries.extend(part?);
        }
        let origins = CachedOrigins { tail: Arc::clone(&parts.tail), count: entries.len(), decoded: OnceLock::new() };
        Some(Catalog::with(entries, Origins::Cached(origins)))
    }
}

/// An entry as a cache file's head holds it: its record is a range of the
/// file's records ([`Tail`]).
#[derive(Serialize, Deserialize)]
struct CachedEntry<'a> {
    #[serde(borrow)]
    name: Cow<'a, str>,
    #[serde(borrow)]
    template: Cow<'a, Template>,
    record: (usize, usize),
}

/// What follows a cache file's head: the origins and the records, each
/// read and checked when the first of them is asked for. The file stays
/// open until then: a newer cache file takes its place by a rename, which
/// leaves the open one as it was. What cannot be read or is damaged (the
/// file was changed in place) is taken from a load of the dataset instead,
/// and the file is removed.
struct Tail {
    /// Locked for each read: the origins and the records may be asked for
    /// from two threads at once, and a read is a seek then reads.
    file: Mutex<fs::File>,
    path: PathBuf,
    origins: Section,
    records: Section,
    /// What a load from the dataset needs.
    dir: PathBuf,
    filter: Filter,
    /// A load of the dataset, for what the file could not give.
    loaded: OnceLock<Catalog>,
}

/// A part of a cache file after the head: its checksum, then its bytes.
struct Section {
    /// Where the checksum starts.
    at: u64,
    len: usize,
    /// The bytes, once read; `None` when they could not be read or were
    /// damaged.
    bytes: OnceLock<Option<Vec<u8>>>,
}

impl Section {
    fn at(at: u64, len: usize) -> Section {
        Section { at, len, bytes: OnceLock::new() }
    }

    /// The bytes, read from `file` the first time.
    fn bytes(&self, file: &Mutex<fs::File>) -> Option<&[u8]> {
        self.bytes.get_or_init(|| self.read(&mut file.lock().unwrap_or_else(PoisonError::into_inner))).as_deref()
    }

    fn read(&self, file: &mut fs::File) -> Option<Vec<u8>> {
        file.seek(SeekFrom::Start(self.at)).ok()?;
        let mut sum = [0; 8];
        file.read_exact(&mut sum).ok()?;
        let mut bytes = vec![0; self.len];
        file.read_exact(&mut bytes).ok()?;
        (checksum(&bytes) == u64::from_le_bytes(sum)).then_some(bytes)
    }
}

impl Tail {
    /// A load of the dataset, for what the file could not give; the file is
    /// removed first. The stamps were checked when the cache was read: the
    /// load gives the same entries, unless the dataset changed since.
    fn loaded(&self) -> &Catalog {
        self.loaded.get_or_init(|| {
            if self.still_at_its_path() {
                let _ = fs::remove_file(&self.path);
            }
            let loaded = Catalog::load_filtered(&self.dir, &self.filter);
            loaded.map_or_else(|_| Catalog::from_entries(Vec::new()), |(catalog, _)| catalog)
        })
    }

    /// Whether the file at `path` is still the one open (not a newer one
    /// that replaced it).
    fn still_at_its_path(&self) -> bool {
        let open = self.file.lock().unwrap_or_else(PoisonError::into_inner).metadata();
        let (Ok(open), Ok(there)) = (open, fs::metadata(&self.path)) else {
            return false;
        };
        matches!((meta_of(&open), meta_of(&there)), (Ok(open), Ok(there)) if open == there)
    }
}

impl RecordSource for Tail {
    fn record(&self, index: usize, range: Range<usize>) -> Record {
        let bytes = self.records.bytes(&self.file);
        let decoded = bytes.and_then(|bytes| bytes.get(range)).and_then(|bytes| postcard::from_bytes(bytes).ok());
        let loaded = || self.loaded().entries().get(index).map(|entry| entry.record().clone());
        decoded.or_else(loaded).unwrap_or_default()
    }
}

impl CachedEntry<'_> {
    fn into_entry(self, records: &Arc<dyn RecordSource>, index: usize) -> Entry {
        let (start, end) = self.record;
        let record = EncodedRecord::new(Arc::clone(records), index, start..end);
        Entry::encoded(self.name.into_owned().into(), self.template.into_owned(), record)
    }
}

/// A part of a cache file, written as a byte string (which decodes as a
/// borrowed `&[u8]`).
struct Part(Vec<u8>);

impl Serialize for Part {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_bytes(&self.0)
    }
}

impl Stamps {
    /// The stamps of a load of `dir` with `filter` that lists these `dirs`
    /// and record `files` (at `paths`); an error when one cannot be stat'ed
    /// or a path is not Unicode.
    fn new(
        dir: &Path,
        canonical: &Path,
        filter: &Filter,
        dirs: &[(PathBuf, fs::Metadata)],
        files: &[fs::DirEntry],
        paths: &[PathBuf],
    ) -> io::Result<Stamps> {
        let text = |path: &Path| path.to_str().map(str::to_owned).ok_or_else(|| io::Error::other("not Unicode"));
        let stamp = |path: &Path, metadata: &fs::Metadata| -> io::Result<Stamp> {
            Ok(Stamp { path: text(path.strip_prefix(dir).unwrap_or(path))?, meta: meta_of(metadata)? })
        };
        let dirs = dirs.iter().map(|(path, metadata)| stamp(path, metadata)).collect::<io::Result<_>>()?;
        let mut files = (files.iter().zip(paths))
            .map(|(file, path)| {
                // The entry's own stat is relative to its open directory (no
                // path lookup), but does not follow a symbolic link.
                let metadata = if file.file_type()?.is_symlink() { fs::metadata(path)? } else { file.metadata()? };
                stamp(path, &metadata)
            })
            .collect::<io::Result<Vec<Stamp>>>()?;
        // Stat'ed by inode, so that the kernel's inodes are visited in about
        // the order they were allocated in: a twelfth less time than path
        // order at 20,000 files (measured).
        files.sort_unstable_by(|a, b| (a.meta.inode, &a.path).cmp(&(b.meta.inode, &b.path)));
        let names = match fs::metadata(dir.join(NAMES_FILE)) {
            Ok(metadata) if metadata.is_file() => Some(meta_of(&metadata)?),
            Ok(_) => None,
            Err(err) if err.kind() == io::ErrorKind::NotFound => None,
            Err(err) => return Err(err),
        };
        Ok(Stamps {
            version: env!("CARGO_PKG_VERSION").to_owned(),
            dir: text(dir)?,
            canonical: text(canonical)?,
            filter: filter.clone(),
            dirs,
            files,
            names,
        })
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

    /// Whether every one of `stamps` is as its stat shows it now.
    fn all_same(&self, stamps: &[Stamp]) -> bool {
        let mut buffer = Vec::new();
        stamps
            .iter()
            .all(|stamp| self.stat(stamp.path.as_bytes(), &mut buffer).is_ok_and(|(meta, _)| meta == stamp.meta))
    }

    /// The stamp of the names file, if there is one; `None` when it cannot
    /// be told.
    fn names(&self) -> Option<Option<Meta>> {
        match self.stat(NAMES_FILE.as_bytes(), &mut Vec::new()) {
            Ok((meta, true)) => Some(Some(meta)),
            Ok((_, false)) => Some(None),
            Err(err) if err.kind() == io::ErrorKind::NotFound => Some(None),
            Err(_) => None,
        }
    }

    /// The stamp of `path` below the directory (the directory itself when
    /// empty), following symbolic links as the loader does, and whether it
    /// is a regular file. `buffer` is where the path is spelled for the
    /// system, reused from call to call.
    #[cfg(unix)]
    fn stat(&self, path: &[u8], buffer: &mut Vec<u8>) -> io::Result<(Meta, bool)> {
        use std::os::fd::AsRawFd;
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

/// One file per dataset directory and filter, whatever its contents; a new
/// load of the same dataset replaces it.
fn file_name(dir: &Path, canonical: &Path, filter: &Filter) -> String {
    let key = (dir, canonical, filter);
    let bytes = postcard::to_allocvec(&key).unwrap_or_else(|_| format!("{key:?}").into_bytes());
    format!("catalog-{:016x}.bin", checksum(&bytes))
}

/// Writes the cache file of `compiled`, loaded as `stamps` says, through a
/// temporary file and a rename, so that a reader never sees half a file.
fn write(cache_dir: &Path, path: &Path, stamps: &Stamps, compiled: &Compiled) -> io::Result<()> {
    let mut records = Vec::new();
    let mut entries = Vec::with_capacity(compiled.entries.len());
    for entry in &compiled.entries {
        let start = records.len();
        records = postcard::to_extend(entry.record(), records).map_err(io::Error::other)?;
        let (name, template) = (Cow::Borrowed(&*entry.name), Cow::Borrowed(&entry.template));
        entries.push(CachedEntry { name, template, record: (start, records.len()) });
    }
    let parts = entries.chunks(ENTRIES_PER_PART).map(|part| postcard::to_allocvec(part).map(Part));
    let parts = parts.collect::<Result<Vec<Part>, _>>().map_err(io::Error::other)?;
    let head = postcard::to_allocvec(stamps).map_err(io::Error::other)?;
    let stamps_len = head.len();
    let head = postcard::to_extend(&(&compiled.diagnostics, parts), head).map_err(io::Error::other)?;
    let origins = postcard::to_allocvec(&compiled.origins).map_err(io::Error::other)?;
    let mut bytes = MAGIC.to_vec();
    bytes.extend(checksum(&head).to_le_bytes());
    bytes.extend((head.len() as u64).to_le_bytes());
    bytes.extend((stamps_len as u64).to_le_bytes());
    bytes.extend((origins.len() as u64).to_le_bytes());
    bytes.extend(head);
    for section in [origins, records] {
        bytes.extend(checksum(&section).to_le_bytes());
        bytes.extend(section);
    }
    fs::create_dir_all(cache_dir)?;
    let unique = SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |t| t.as_nanos());
    let temporary = cache_dir.join(format!(".tmp-{}-{unique}", std::process::id()));
    let written = fs::write(&temporary, &bytes).and_then(|()| fs::rename(&temporary, path));
    if written.is_err() {
        let _ = fs::remove_file(&temporary);
    }
    written
}

/// Starts the bytes of [`Catalog::to_bytes`]; the last byte is their layout
/// version.
const PACKED_MAGIC: &[u8; 8] = b"errcatC\x04";

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
        (origins.len() == entries.len()).then(|| Catalog::with_origins(entries, origins))
    }
}

/// A 64-bit hash of `bytes`, FNV-1a-like over 8-byte words: each round a
/// xor, a multiplication by xxHash's first prime (FNV's own spreads too
/// little) and a xor-shift that carries the high bits down. Four lanes, so
/// that the processor works on four words at once (megabytes are checked
/// at each start). Each round is a bijection of its lane's state, so a
/// change to one word always changes the hash. Stable across Rust versions and
/// platforms, unlike `DefaultHasher`. It catches damage, not tampering: the
/// cache directory is the user's own.
fn checksum(bytes: &[u8]) -> u64 {
    const OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
    const PRIME: u64 = 0x9e37_79b1_85eb_ca87;
    let round = |hash: u64, word: u64| {
        let mixed = (hash ^ word).wrapping_mul(PRIME);
        mixed ^ (mixed >> 32)
    };
    let word = |bytes: &[u8]| u64::from_le_bytes(bytes.try_into().unwrap_or_default());
    let mut lanes = [OFFSET, OFFSET ^ 1, OFFSET ^ 2, OFFSET ^ 3];
    let mut blocks = bytes.chunks_exact(32);
    for block in &mut blocks {
        for (lane, bytes) in lanes.iter_mut().zip(block.chunks_exact(8)) {
            *lane = round(*lane, word(bytes));
        }
    }
    let hash = lanes.into_iter().fold(bytes.len() as u64, round);
    blocks.remainder().iter().fold(hash, |hash, &byte| round(hash, u64::from(byte)))
}

#[cfg(test)]
mod tests {
    use std::fs::File;

    use super::*;
    use crate::model::Severity;
    use crate::test_support as support;

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
        age_dirs(&dir.0);
        dir
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

    /// What the cache file of `dir` loaded with `filter` gives as a hit, if
    /// it is one.
    fn hit_of(dir: &Path, filter: &Filter, cache: &Path) -> Option<(Catalog, Vec<Diagnostic>)> {
        read_hit(&cache_file(dir, filter, cache), dir, &fs::canonicalize(dir).unwrap(), filter)
    }

    /// Whether `dir`'s cache for the default filter is a hit after `change`,
    /// with the directories aged again (as if the change were an hour old,
    /// and the directories' mtimes moved by it).
    fn hit_after(dir: &Path, cache: &Path, change: impl FnOnce()) -> bool {
        change();
        age_dirs(dir);
        hit_of(dir, &Filter::default(), cache).is_some()
    }

    /// Loads `data` through `cache` and checks the result against a fresh
    /// load; then the cache is a hit.
    fn load_and_compare(data: &Path, cache: &Path) -> String {
        let cached = summary(Catalog::load_cached(data, &Filter::default(), cache));
        assert_eq!(cached, summary(Catalog::load_filtered(data, &Filter::default())));
        assert!(hit_of(data, &Filter::default(), cache).is_some(), "the load wrote the cache");
        cached
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
        assert!(hit_of(dir, &filter, &cache.0).is_some(), "the first load writes the cache");
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
        let Some(corpus) = support::corpus("nats-server", "a_hit_gives_what_a_fresh_load_gives_on_the_corpus") else {
            return;
        };
        assert_hit_equals_fresh(&corpus);
    }

    #[test]
    fn origins_and_records_read_at_once_from_two_threads_come_from_the_file() {
        let Some(corpus) =
            support::corpus("nats-server", "origins_and_records_read_at_once_from_two_threads_come_from_the_file")
        else {
            return;
        };
        let cache = TempDir::new("cache");
        let fresh = Catalog::load(&corpus).unwrap();
        Catalog::load_cached(&corpus, &Filter::default(), &cache.0).unwrap();
        let file = cache_file(&corpus, &Filter::default(), &cache.0);
        for round in 0..20 {
            let (catalog, _) = hit_of(&corpus, &Filter::default(), &cache.0).expect("a hit");
            std::thread::scope(|scope| {
                scope.spawn(|| assert_eq!(catalog.origin(7), fresh.origin(7)));
                scope.spawn(|| assert_eq!(catalog.entries()[7].record(), fresh.entries()[7].record()));
            });
            // Neither read saw the other's bytes: the file was not taken for damaged.
            assert!(file.exists(), "round {round}: the cache file was removed");
        }
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
        assert!(!hit_after(&data.0, &cache.0, longer));
        assert!(load_and_compare(&data.0, &cache.0).contains("limit %d reached!"));
        // Same length, another mtime.
        let later = an_hour_ago() + Duration::from_secs(1);
        let same_length = || write_at(&path, &record("b2", "limit %d REACHED!", "warning"), later);
        assert!(!hit_after(&data.0, &cache.0, same_length));
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
        assert!(!hit_after(&data.0, &cache.0, replace));
        assert!(load_and_compare(&data.0, &cache.0).contains("LIMIT %d reached"));
    }

    #[test]
    fn an_edit_of_any_file_is_seen_by_the_stat_thread() {
        // Enough files for the stats to run on a thread of their own, and
        // entries in two parts; the first, a middle and the last file in
        // stat order edited in turn (same length and inode, a later mtime).
        let data = TempDir::new("data");
        let files = ENTRIES_PER_PART + STATS_FOR_A_THREAD;
        for i in 0..files {
            write_at(&data.0.join(format!("r{i:04}.json")), &record(&format!("r{i}"), "n %d", "error"), an_hour_ago());
        }
        age_dirs(&data.0);
        let cache = TempDir::new("cache");
        load_and_compare(&data.0, &cache.0);
        let bytes = fs::read(cache_file(&data.0, &Filter::default(), &cache.0)).unwrap();
        let (stamps, _) = postcard::take_from_bytes::<Stamps>(&bytes[HEAD..]).unwrap();
        assert_eq!(stamps.files.len(), files);
        for (step, stamp) in [&stamps.files[0], &stamps.files[files / 2], &stamps.files[files - 1]].iter().enumerate() {
            assert!(hit_of(&data.0, &Filter::default(), &cache.0).is_some(), "a hit before step {step}");
            let path = data.0.join(&stamp.path);
            let text = fs::read_to_string(&path).unwrap().replace("n %d", "N %d");
            write_at(&path, &text, an_hour_ago() + Duration::from_secs(1 + step as u64));
            assert!(hit_of(&data.0, &Filter::default(), &cache.0).is_none(), "a miss after editing {}", stamp.path);
            assert!(load_and_compare(&data.0, &cache.0).contains("N %d"));
        }
    }

    #[test]
    fn an_added_or_removed_file_is_a_miss() {
        let (data, cache) = loaded_once();
        let add = || write_at(&data.0.join("sub/d.json"), &record("d4", "disk %s full", "fatal"), an_hour_ago());
        assert!(!hit_after(&data.0, &cache.0, add));
        assert!(load_and_compare(&data.0, &cache.0).contains("disk %s full"));
        assert!(!hit_after(&data.0, &cache.0, || fs::remove_file(data.0.join("a.json")).unwrap()));
        assert!(!load_and_compare(&data.0, &cache.0).contains("stream %s failed"));
    }

    #[test]
    fn a_file_renamed_is_a_miss() {
        let (data, cache) = loaded_once();
        // Same length, mtime and inode: only its directory tells.
        assert!(!hit_after(&data.0, &cache.0, || fs::rename(data.0.join("a.json"), data.0.join("z.json")).unwrap()));
        assert!(load_and_compare(&data.0, &cache.0).contains("z.json"));
    }

    #[test]
    fn a_change_in_a_subdirectory_is_a_miss() {
        let (data, cache) = loaded_once();
        // The root directory is unchanged; only `sub` tells.
        let sub = data.0.join("sub");
        assert!(!hit_after(&data.0, &cache.0, || fs::rename(sub.join("c.json"), sub.join("d.json")).unwrap()));
        assert!(load_and_compare(&data.0, &cache.0).contains("sub/d.json"));
        let nested = || {
            fs::create_dir(sub.join("deeper")).unwrap();
            write_at(&sub.join("deeper/f.json"), &record("f6", "deep %d", "error"), an_hour_ago());
        };
        assert!(!hit_after(&data.0, &cache.0, nested));
        assert!(load_and_compare(&data.0, &cache.0).contains("deep %d"));
        assert!(!hit_after(&data.0, &cache.0, || fs::remove_dir_all(sub.join("deeper")).unwrap()));
        assert!(!load_and_compare(&data.0, &cache.0).contains("deep %d"));
    }

    #[test]
    fn a_names_file_added_edited_or_removed_is_a_miss() {
        let data = dataset();
        let cache = TempDir::new("cache");
        let rule_names = load_and_compare(&data.0, &cache.0);
        assert!(rule_names.contains("name: \"Stream\","), "{rule_names}");
        let names = data.0.join(NAMES_FILE);
        assert!(!hit_after(&data.0, &cache.0, || write_at(&names, "a1 StreamBroke\n", an_hour_ago())));
        assert!(load_and_compare(&data.0, &cache.0).contains("\"StreamBroke\""));
        // Same length, a later mtime, in place.
        let later = an_hour_ago() + Duration::from_secs(1);
        assert!(!hit_after(&data.0, &cache.0, || write_at(&names, "a1 StreamFails\n", later)));
        assert!(load_and_compare(&data.0, &cache.0).contains("\"StreamFails\""));
        assert!(!hit_after(&data.0, &cache.0, || fs::remove_file(&names).unwrap()));
        assert_eq!(load_and_compare(&data.0, &cache.0), rule_names);
    }

    /// Where a cache file's head starts.
    const HEAD: usize = FIXED;

    /// The head, the origins and the records (each after its checksum) of
    /// cache file `bytes`.
    fn sections(bytes: &[u8]) -> (&[u8], &[u8], &[u8]) {
        let word = |at: usize| u64::from_le_bytes(bytes[MAGIC.len() + at * 8..][..8].try_into().unwrap()) as usize;
        let (head_len, origins_len) = (word(1), word(3));
        let origins_at = HEAD + head_len + 8;
        let records_at = origins_at + origins_len + 8;
        (&bytes[HEAD..HEAD + head_len], &bytes[origins_at..records_at - 8], &bytes[records_at..])
    }

    /// The length of the stamps that start `head`.
    fn stamps_len_of(head: &[u8]) -> usize {
        let (_, body) = postcard::take_from_bytes::<Stamps>(head).unwrap();
        head.len() - body.len()
    }

    /// A cache file of this `head`, its stamps the first `stamps_len` bytes,
    /// these `origins` and `records`, every checksum right.
    fn sealed(head: &[u8], stamps_len: usize, origins: &[u8], records: &[u8]) -> Vec<u8> {
        let mut bytes = MAGIC.to_vec();
        bytes.extend(checksum(head).to_le_bytes());
        bytes.extend((head.len() as u64).to_le_bytes());
        bytes.extend((stamps_len as u64).to_le_bytes());
        bytes.extend((origins.len() as u64).to_le_bytes());
        bytes.extend(head);
        for section in [origins, records] {
            bytes.extend(checksum(section).to_le_bytes());
            bytes.extend(section);
        }
        bytes
    }

    #[test]
    fn a_damaged_short_or_foreign_cache_file_is_a_miss_and_written_anew() {
        let data = dataset();
        let cache = TempDir::new("cache");
        let expected = load_and_compare(&data.0, &cache.0);
        let file = cache_file(&data.0, &Filter::default(), &cache.0);
        let sound = fs::read(&file).unwrap();
        let (head, origins, records) = sections(&sound);
        let flipped = |at: usize| {
            let mut bytes = sound.clone();
            bytes[at] ^= 0x20;
            bytes
        };
        // Heads that pass the checksum but do not decode, and one with
        // another crate version.
        let (mut stamps, body) = postcard::take_from_bytes::<Stamps>(head).unwrap();
        let stamps_len = head.len() - body.len();
        stamps.version = "0.0.0-other".to_owned();
        let mut other_version = postcard::to_allocvec(&stamps).unwrap();
        other_version.extend(body);
        let damages = [
            flipped(HEAD + 3),
            flipped(HEAD + head.len() / 2),
            flipped(HEAD + head.len() - 1),
            flipped(MAGIC.len() - 1),
            flipped(MAGIC.len() + 8),
            flipped(MAGIC.len() + 15),
            flipped(MAGIC.len() + 16),
            flipped(MAGIC.len() + 23),
            flipped(MAGIC.len() + 31),
            sound[..HEAD + head.len() - 1].to_vec(),
            sound[..HEAD + head.len() + 7].to_vec(),
            sound[..MAGIC.len() + 4].to_vec(),
            MAGIC.to_vec(),
            Vec::new(),
            sealed(&[0xff; 64], 64, origins, records),
            sealed(&[0xff; 64], 0, origins, records),
            sealed(head, stamps_len - 1, origins, records),
            sealed(head, stamps_len + 1, origins, records),
            sealed(&head[..head.len() - 1], stamps_len, origins, records),
            sealed(&[head, &[0]].concat(), stamps_len, origins, records),
            sealed(&other_version, other_version.len() - body.len(), origins, records),
        ];
        for (number, damaged) in damages.iter().enumerate() {
            fs::write(&file, damaged).unwrap();
            assert!(hit_of(&data.0, &Filter::default(), &cache.0).is_none(), "damage {number}");
            assert_eq!(load_and_compare(&data.0, &cache.0), expected, "damage {number}");
            assert_eq!(fs::read(&file).unwrap(), sound, "damage {number}: the load writes the cache anew");
        }
    }

    /// The dataset, its cache, a fresh load of it, the cache file and its bytes.
    fn cached_dataset() -> (TempDir, TempDir, Catalog, PathBuf, Vec<u8>) {
        let data = dataset();
        let cache = TempDir::new("cache");
        load_and_compare(&data.0, &cache.0);
        let fresh = Catalog::load(&data.0).unwrap();
        let file = cache_file(&data.0, &Filter::default(), &cache.0);
        let sound = fs::read(&file).unwrap();
        (data, cache, fresh, file, sound)
    }

    #[test]
    fn damaged_records_are_loaded_from_the_dataset_and_the_file_removed() {
        let (data, cache, fresh, file, sound) = cached_dataset();
        let (head, origins, records) = sections(&sound);
        let mut flipped_sum = sound.clone();
        flipped_sum[HEAD + head.len() + 8 + origins.len()] ^= 1;
        let mut flipped_last = sound.clone();
        *flipped_last.last_mut().unwrap() ^= 0x20;
        let damages = [
            flipped_sum,
            flipped_last,
            sound[..sound.len() - 1].to_vec(),
            [&sound[..], b"x"].concat(),
            sealed(head, stamps_len_of(head), origins, &records[..records.len() / 2]),
        ];
        for (number, damaged) in damages.iter().enumerate() {
            fs::write(&file, damaged).unwrap();
            let (catalog, _) = hit_of(&data.0, &Filter::default(), &cache.0).expect("a sound head is a hit");
            assert!(file.exists(), "damage {number}: no record read yet");
            assert_eq!(catalog.entries(), fresh.entries(), "damage {number}");
            assert!(!file.exists(), "damage {number}: the damaged file is removed");
            load_and_compare(&data.0, &cache.0);
            assert_eq!(fs::read(&file).unwrap(), sound, "damage {number}: the next load writes the cache anew");
        }
    }

    #[test]
    fn records_are_read_when_first_asked_for_from_the_file_as_it_was_open() {
        let (data, cache, fresh, file, sound) = cached_dataset();
        // Replaced by a rename, as a load writes it: the open file is read.
        let (catalog, _) = hit_of(&data.0, &Filter::default(), &cache.0).unwrap();
        let other = cache.0.join("other");
        fs::write(&other, b"newer").unwrap();
        fs::rename(&other, &file).unwrap();
        assert_eq!(catalog.entries(), fresh.entries());
        assert_eq!(fs::read(&file).unwrap(), b"newer", "a newer file is left alone");
        // Cut short in place before any record is read: taken from the dataset.
        fs::write(&file, &sound).unwrap();
        let (catalog, _) = hit_of(&data.0, &Filter::default(), &cache.0).unwrap();
        let (head, origins, _) = sections(&sound);
        File::options()
            .write(true)
            .open(&file)
            .unwrap()
            .set_len((HEAD + head.len() + 8 + origins.len() + 3) as u64)
            .unwrap();
        assert_eq!(catalog.entries(), fresh.entries());
        assert!(!file.exists());
    }

    #[test]
    fn a_cache_file_of_another_load_is_a_miss() {
        let (data, cache) = loaded_once();
        // The dataset's file under another dataset's name: same files, but
        // spelled from elsewhere.
        let other = data.0.join("sub");
        fs::copy(cache_file(&data.0, &Filter::default(), &cache.0), cache_file(&other, &Filter::default(), &cache.0))
            .unwrap();
        assert!(hit_of(&other, &Filter::default(), &cache.0).is_none());
        let from_sub = summary(Catalog::load_cached(&other, &Filter::default(), &cache.0));
        assert_eq!(from_sub, summary(Catalog::load_filtered(&other, &Filter::default())));
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
            version: String::new(),
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
            let cached = summary(Catalog::load_cached(&data.0, &filter, &cache.0));
            assert_eq!(cached, summary(Catalog::load_filtered(&data.0, &filter)));
            assert!(hit_of(&data.0, &filter, &cache.0).is_some());
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
        let stamps = Stamps::new(&data.0, &canonical, &Filter::default(), &dirs, &files, &paths).unwrap();
        let mut compiled = Compiled::new(crate::dataset::load_dir(&data.0), &Filter::default()).unwrap();
        let warning = |field: &str| compiled.origins[0].error(field, "odd").warning();
        compiled.diagnostics = vec![warning("tags"), warning("id"), warning("severity")];
        write(&cache.0, &cache_file(&data.0, &Filter::default(), &cache.0), &stamps, &compiled).unwrap();
        let warnings = compiled.diagnostics.clone();
        let expected = summary(Ok(compiled.into_catalog()));
        let (catalog, cached) = hit_of(&data.0, &Filter::default(), &cache.0).unwrap();
        assert_eq!(cached, warnings);
        assert_eq!(summary(Ok((catalog, cached))), expected);
    }

    #[test]
    fn damaged_origins_are_loaded_from_the_dataset_and_the_file_removed() {
        let (data, cache, fresh, file, sound) = cached_dataset();
        let (head, origins, records) = sections(&sound);
        let fresh_origins: Vec<Origin> = (0..fresh.len()).map(|index| fresh.origin(index).unwrap().clone()).collect();
        let two = postcard::to_allocvec(&fresh_origins[..2]).unwrap();
        let mut flipped_sum = sound.clone();
        flipped_sum[HEAD + head.len()] ^= 1;
        let mut flipped = sound.clone();
        flipped[HEAD + head.len() + 8 + origins.len() / 2] ^= 0x20;
        let stamps_len = stamps_len_of(head);
        let damages = [
            flipped_sum,
            flipped,
            // Sound checksums, but not one origin per entry, or not origins.
            sealed(head, stamps_len, &two, records),
            sealed(head, stamps_len, &[origins, &[0]].concat(), records),
            sealed(head, stamps_len, &[0xff; 9], records),
        ];
        for (number, damaged) in damages.iter().enumerate() {
            fs::write(&file, damaged).unwrap();
            let (catalog, _) = hit_of(&data.0, &Filter::default(), &cache.0).expect("a sound head is a hit");
            assert!(file.exists(), "damage {number}: no origin read yet");
            let cached: Vec<Origin> = (0..catalog.len()).map(|index| catalog.origin(index).unwrap().clone()).collect();
            assert_eq!(cached, fresh_origins, "damage {number}");
            assert_eq!(catalog.origin(catalog.len()), None);
            assert!(!file.exists(), "damage {number}: the damaged file is removed");
            load_and_compare(&data.0, &cache.0);
            assert_eq!(fs::read(&file).unwrap(), sound, "damage {number}: the next load writes the cache anew");
        }
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
        // 107 bytes: three blocks of four lanes, a tail of bytes.
        let bytes: Vec<u8> = (0..107u32).map(|i| (i * 37 % 251) as u8).collect();
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
        assert_ne!(checksum(&[0; 32]), checksum(&[0; 40]));
    }
}
