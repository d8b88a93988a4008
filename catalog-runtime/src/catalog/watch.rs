//! A watcher that vouches for a dataset between loads, so that a cached load
//! need not stat every record file (think git's `fsmonitor`).
//!
//! A cache hit is sound only if no record file changed since the cache was
//! written, which [`Catalog::load_cached`](crate::Catalog::load_cached) tells
//! by a stat of each file: 20,000 stats at 20,000 records, the kernel's work
//! and most of such a start-up. A [`Watcher`] keeps an inotify watch on every
//! directory of the dataset and counts what the kernel reports: any change
//! is a new *generation*. A load asks it, over a Unix socket in the cache
//! directory, for the generation and whether this cache file was found whole
//! by a load of that same generation; if so, nothing changed since those
//! stats, and this load makes none. Otherwise the load stats as without a
//! watcher and, on a hit, tells the watcher the generation it asked at.
//!
//! Why that is sound:
//! - the kernel queues an event before the call that made the change
//!   returns, and the watcher reads the queue before it answers, so a
//!   change made before a load asks is counted in the answer (if the queue
//!   holds too much to read at once, the answer counts a change anyway);
//! - a load's stats come after its answer, so files that match the cache
//!   then, with no event since, still match; an event still queued when the
//!   answer went is read by a later look, which moves the generation past
//!   the one vouched for;
//! - those stats are of the directory the load asked about: they go through
//!   one open directory, whose device and inode must be those the load sent
//!   (a load that read the records by their paths does not vouch);
//! - a directory is watched before it is listed, so nothing made in it is
//!   missed; a directory moved, or a lost event (the queue overflowed),
//!   makes the watcher walk the whole tree again;
//! - each record file has a watch of its own besides its directory's: a
//!   write through another hard link of the file, outside the dataset,
//!   reaches no watched directory;
//! - a load sends the device and inode of the directory it finds at the
//!   dataset's path: a directory above the dataset renamed moves it away
//!   with no event, and another may take its path;
//! - a vouch carries the watcher's random *epoch* with the generation: a
//!   load that asked a watcher since stopped cannot vouch to the next one,
//!   which counts its generations from 0 again;
//! - where a change could go unseen the watcher stops (its socket goes, and
//!   loads stat again): the dataset's directory removed, moved or replaced,
//!   or a symbolic link made in it (what it leads to changes where no watch
//!   is); it refuses to start on them, on a file system whose changes may
//!   come from elsewhere (network, FUSE), and with the cache directory inside
//!   the dataset (its own writes would be changes).
//!
//! What inotify never reports: writes through a shared writable memory map
//! of a record file (no editor or tool writes JSON that way), a file system
//! mounted over a directory of the dataset (which takes root), and changes
//! made to an overlay file system's layers rather than through it (which
//! the kernel's documentation leaves undefined). A load that cannot reach
//! the watcher at once, gets no answer within [`PATIENCE`], or finds another
//! user's socket, stats.

use std::collections::HashMap;
use std::ffi::{CString, OsStr};
use std::fs;
use std::io::{self, Read, Write};
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::MetadataExt;
use std::os::unix::net::{UnixListener, UnixStream};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use super::cache::CacheKey;
use crate::dataset::{is_hidden, is_record_file, NAMES_FILE};

/// The first byte of every message; a watcher and a load of different
/// versions do not understand each other, and the load stats.
const PROTOCOL: u8 = 1;
/// Asks for the generation and whether a cache file is vouched for.
const ASK: u8 = b'A';
/// Tells of a hit found by stats at a generation.
const VOUCH: u8 = b'V';
/// Asks for the counts of [`WatchStatus`].
const STATUS: u8 = b'S';
/// The answer to a request for another dataset.
const OTHER: u8 = b'X';
/// The bytes of the answer to [`STATUS`]: the protocol and the kind, the
/// process id, then five counts.
const STATUS_REPLY: usize = 2 + 4 + 5 * 8;

/// How long a load waits for the watcher's answer before it stats instead
/// (it answers in well under a millisecond, unless it is walking the
/// dataset after a directory was moved, or the machine is very busy); a
/// load never waits to connect.
const PATIENCE: Duration = Duration::from_millis(500);
/// How long the watcher waits for a whole request: a slow client delays
/// the loads behind it by no more.
const REQUEST_PATIENCE: Duration = Duration::from_millis(50);

/// The most reads of the event queue in one look (64 KiB each).
const LONGEST_LOOK: usize = 64;

/// The bytes of a Unix socket's path, its final NUL included (108).
const SOCKET_PATH_ROOM: usize =
    std::mem::size_of::<libc::sockaddr_un>() - std::mem::offset_of!(libc::sockaddr_un, sun_path);

/// The longest dataset path a request may carry.
const LONGEST_PATH: usize = 4096;

/// The cache files vouched for that a watcher remembers (one per load
/// filter and version of the program).
const REMEMBERED: usize = 64;

/// File systems whose every change is made through this kernel, so that
/// inotify sees it (`statfs`'s `f_type`): ext2/3/4, XFS, Btrfs, tmpfs,
/// ramfs, F2FS, ZFS, overlayfs, bcachefs.
const LOCAL_FILE_SYSTEMS: [u32; 9] =
    [0xEF53, 0x5846_5342, 0x9123_683E, 0x0102_1994, 0x8584_58F6, 0xF2F5_2010, 0x2FC1_2FC1, 0x794C_7630, 0xCA45_1A4E];

/// The watcher's answer to a load.
pub(crate) struct Answer {
    /// The watcher's own random number: a vouch for another watcher's
    /// generation (one that stopped since, its generations counted again
    /// from 0 by the next) is dropped.
    pub(crate) epoch: u64,
    /// The number of changes seen since the watcher started.
    pub(crate) generation: u64,
    /// The device and inode of the dataset's directory that the load asked
    /// about (found at the dataset's path).
    pub(crate) dir: (u64, u64),
    /// Whether a load of this generation found the cache file whole.
    pub(crate) vouched: bool,
}

/// The socket of the watcher of `canonical` (the dataset's real path),
/// in `cache_dir`.
fn socket_path(cache_dir: &Path, canonical: &Path) -> PathBuf {
    let sum = super::cache::checksum(canonical.as_os_str().as_bytes());
    cache_dir.join(format!("watch-{sum:016x}.sock"))
}

/// A request: the protocol, its kind, the dataset's real path, `payload`.
fn request(kind: u8, canonical: &Path, payload: &[u8]) -> Vec<u8> {
    let path = canonical.as_os_str().as_bytes();
    let mut bytes = vec![PROTOCOL, kind];
    bytes.extend((path.len() as u32).to_le_bytes());
    bytes.extend(path);
    bytes.extend(payload);
    bytes
}

/// A connection to the watcher of `canonical`, if one runs as this user.
fn connect(cache_dir: &Path, canonical: &Path) -> Option<UnixStream> {
    let stream = connect_now(&socket_path(cache_dir, canonical)).ok()?;
    // Another user's socket could answer anything.
    if !same_user(&stream) {
        return None;
    }
    stream.set_read_timeout(Some(PATIENCE)).ok()?;
    stream.set_write_timeout(Some(PATIENCE)).ok()?;
    Some(stream)
}

/// Connects to the socket at `path` without waiting: a watcher stopped with
/// its queue of connections full would keep a blocking `connect` waiting
/// for ever (`EAGAIN` then).
fn connect_now(path: &Path) -> io::Result<UnixStream> {
    // SAFETY: `socket` takes no pointer; the result is checked.
    let fd =
        unsafe { owned(libc::socket(libc::AF_UNIX, libc::SOCK_STREAM | libc::SOCK_CLOEXEC | libc::SOCK_NONBLOCK, 0)) }?;
    // SAFETY: all zeros is a valid `sockaddr_un` (an empty path).
    let mut address: libc::sockaddr_un = unsafe { std::mem::zeroed() };
    address.sun_family = libc::AF_UNIX as libc::sa_family_t;
    let path = path.as_os_str().as_bytes();
    if path.len() >= SOCKET_PATH_ROOM {
        return Err(io::Error::other("the socket's path is too long"));
    }
    for (to, &from) in address.sun_path.iter_mut().zip(path) {
        *to = from as libc::c_char;
    }
    let len = std::mem::offset_of!(libc::sockaddr_un, sun_path) + path.len() + 1;
    // SAFETY: `address` is a `sockaddr_un` whose first `len` bytes are set.
    let done = unsafe { libc::connect(fd.as_raw_fd(), (&raw const address).cast(), len as libc::socklen_t) };
    if done != 0 {
        return Err(io::Error::last_os_error());
    }
    let stream = UnixStream::from(fd);
    stream.set_nonblocking(false)?;
    Ok(stream)
}

/// Whether the other end of `stream` runs as this process's user.
fn same_user(stream: &UnixStream) -> bool {
    // SAFETY: geteuid cannot fail.
    peer_uid(stream).is_ok_and(|uid| uid == unsafe { libc::geteuid() })
}

fn peer_uid(stream: &UnixStream) -> io::Result<libc::uid_t> {
    let mut credentials = libc::ucred { pid: 0, uid: 0, gid: 0 };
    let mut len = std::mem::size_of::<libc::ucred>() as libc::socklen_t;
    // SAFETY: `credentials` is a buffer of the size passed in `len`.
    let done = unsafe {
        libc::getsockopt(
            stream.as_raw_fd(),
            libc::SOL_SOCKET,
            libc::SO_PEERCRED,
            (&raw mut credentials).cast(),
            &mut len,
        )
    };
    if done != 0 {
        return Err(io::Error::last_os_error());
    }
    Ok(credentials.uid)
}

/// Asks the watcher of `canonical`, if one runs, about the cache file `key`.
/// The request carries the directory's device and inode as the load finds
/// it: should the watched directory have left the path (a directory above it
/// renamed, which no watch hears of), the path's new directory is not the
/// one watched.
pub(crate) fn ask(cache_dir: &Path, canonical: &Path, key: &CacheKey) -> Option<Answer> {
    // Before connecting: the watcher waits for the request.
    let metadata = fs::metadata(canonical).ok()?;
    let dir = (metadata.dev(), metadata.ino());
    let mut stream = connect(cache_dir, canonical)?;
    stream.write_all(&request(ASK, canonical, &payload(key, [dir.0, dir.1]))).ok()?;
    let mut reply = [0; 19];
    stream.read_exact(&mut reply).ok()?;
    if reply[..2] != [PROTOCOL, ASK] {
        return None;
    }
    let word = |at: usize| reply[at..at + 8].try_into().ok().map(u64::from_le_bytes);
    Some(Answer { epoch: word(2)?, generation: word(10)?, dir, vouched: reply[18] == 1 })
}

/// Tells the watcher of `canonical` that a load told `answer` found the
/// cache file `key` whole. Best effort: the next load stats if it is lost.
pub(crate) fn vouch(cache_dir: &Path, canonical: &Path, key: &CacheKey, answer: &Answer) {
    if let Some(mut stream) = connect(cache_dir, canonical) {
        let _ = stream.write_all(&request(VOUCH, canonical, &payload(key, [answer.epoch, answer.generation])));
    }
}

/// What a running [`Watcher`] has done, as [`Watcher::status`] asks it.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct WatchStatus {
    /// The watcher's process.
    pub pid: u32,
    /// The directories watched.
    pub directories: u64,
    /// The record files watched (and the names file).
    pub files: u64,
    /// The looks at the kernel's queue of events that found a change (events
    /// read together count once): the generation loads are told.
    pub changes: u64,
    /// Loads told that nothing changed since a load found their cache
    /// whole: they made no stats.
    pub vouched: u64,
    /// Loads told to stat the files (a change since, or a new cache file).
    pub checked: u64,
}

/// Stops a [`Watcher`]'s [`serve`](Watcher::serve) from another thread
/// (e.g. on a signal).
#[derive(Clone, Debug)]
pub struct WatchStopper(Arc<OwnedFd>);

impl WatchStopper {
    /// Makes `serve` return `Ok(())` at once.
    pub fn stop(&self) {
        let one = 1u64.to_ne_bytes();
        // SAFETY: an eventfd takes an 8-byte write from a valid buffer. It
        // cannot fail short of the counter's overflow, which would take
        // 2^64 calls.
        unsafe { libc::write(self.0.as_raw_fd(), one.as_ptr().cast(), one.len()) };
    }
}

/// Watches a dataset for changes, so that cached loads of it
/// ([`Catalog::load_cached`](crate::Catalog::load_cached) with the same
/// cache directory) skip their stats while nothing changes. Linux only.
///
/// Start it with [`Watcher::new`], then [`serve`](Watcher::serve) loads until
/// stopped. A load finds it by a socket in the cache directory, so one
/// watcher serves every program that loads the dataset with that cache.
///
/// ```no_run
/// # use catalog_runtime::Watcher;
/// # use std::path::Path;
/// let watcher = Watcher::new("records", Path::new("/var/cache/error-catalog"))?;
/// let stopper = watcher.stopper();
/// let serving = std::thread::spawn(move || watcher.serve());
/// // ... cached loads of "records" make no stats while nothing changes ...
/// stopper.stop();
/// serving.join().unwrap()?;
/// # Ok::<(), std::io::Error>(())
/// ```
#[derive(Debug)]
pub struct Watcher {
    tree: Tree,
    socket: PathBuf,
    /// The socket file's device and inode, to remove it only if it is still
    /// this watcher's.
    socket_file: (u64, u64),
    listener: UnixListener,
    stop: Arc<OwnedFd>,
    /// See [`Answer::epoch`].
    epoch: u64,
    generation: u64,
    /// The generation at which each cache file was last found whole.
    vouched_at: HashMap<CacheKey, u64>,
    vouched: u64,
    checked: u64,
}

impl Watcher {
    /// Starts watching the dataset under `dir` for loads cached in
    /// `cache_dir`: every directory and record file below it (but hidden
    /// ones, which the loader skips) is watched, then the socket is made.
    /// Fails, saying why, where a change could go unseen (a symbolic link in
    /// the dataset, a network or FUSE file system, the cache directory inside
    /// the dataset), or if another watcher has the dataset.
    pub fn new(dir: impl AsRef<Path>, cache_dir: &Path) -> io::Result<Watcher> {
        let dir = dir.as_ref();
        let canonical = fs::canonicalize(dir).map_err(|err| explained("cannot open the dataset", dir, err))?;
        fs::create_dir_all(cache_dir).map_err(|err| explained("cannot make the cache directory", cache_dir, err))?;
        let cache = fs::canonicalize(cache_dir).map_err(|err| explained("cannot open", cache_dir, err))?;
        if cache.starts_with(&canonical) {
            return Err(io::Error::other(format!(
                "the cache directory `{}` is inside the dataset `{}`: its writes would look like changes; \
                 set ERRCAT_CACHE_DIR to a directory outside it",
                cache.display(),
                canonical.display()
            )));
        }
        let socket = socket_path(cache_dir, &canonical);
        if socket.as_os_str().len() >= SOCKET_PATH_ROOM {
            return Err(io::Error::other(format!(
                "the socket's path `{}` is longer than a Unix socket's path may be ({} bytes): set \
                 ERRCAT_CACHE_DIR to a shorter directory",
                socket.display(),
                SOCKET_PATH_ROOM - 1
            )));
        }
        let mut tree = Tree::new(canonical)?;
        tree.walk()?;
        // SAFETY: eventfd takes no pointer; the result is checked.
        let stop = unsafe { owned(libc::eventfd(0, libc::EFD_NONBLOCK | libc::EFD_CLOEXEC)) }?;
        let listener = bind(&socket)?;
        let made = fs::symlink_metadata(&socket)
            .map_err(|err| explained("cannot stat", &socket, err))
            .and_then(|metadata| listener.set_nonblocking(true).map(|()| metadata));
        let metadata = made.inspect_err(|_| {
            let _ = fs::remove_file(&socket);
        })?;
        Ok(Watcher {
            tree,
            socket,
            socket_file: (metadata.dev(), metadata.ino()),
            listener,
            stop: Arc::new(stop),
            epoch: random_u64(),
            generation: 0,
            vouched_at: HashMap::new(),
            vouched: 0,
            checked: 0,
        })
    }

    /// The dataset's directory, its real path.
    pub fn dir(&self) -> &Path {
        &self.tree.dir
    }

    /// The socket that loads ask.
    pub fn socket(&self) -> &Path {
        &self.socket
    }

    /// The directories watched.
    pub fn directories(&self) -> usize {
        self.tree.directories()
    }

    /// The record files watched (and the names file).
    pub fn files(&self) -> usize {
        self.tree.watched.len() - self.tree.directories()
    }

    /// A handle that stops [`serve`](Watcher::serve).
    pub fn stopper(&self) -> WatchStopper {
        WatchStopper(Arc::clone(&self.stop))
    }

    /// Answers loads until stopped (`Ok`), or until a change that inotify
    /// cannot follow (`Err`, saying which: the dataset's directory moved,
    /// removed or replaced, or a symbolic link made in it). The
    /// socket is removed when the watcher is dropped, so loads stat again.
    pub fn serve(mut self) -> io::Result<()> {
        let mut fds = [self.stop.as_raw_fd(), self.tree.inotify.as_raw_fd(), self.listener.as_raw_fd()]
            .map(|fd| libc::pollfd { fd, events: libc::POLLIN, revents: 0 });
        loop {
            // SAFETY: `fds` is an array of as many pollfds as passed.
            if unsafe { libc::poll(fds.as_mut_ptr(), fds.len() as libc::nfds_t, -1) } < 0 {
                let err = io::Error::last_os_error();
                if err.kind() == io::ErrorKind::Interrupted {
                    continue;
                }
                return Err(err);
            }
            if fds[0].revents != 0 {
                return Ok(());
            }
            // Read as events come, so that the kernel's queue (16,384 events
            // by default) seldom overflows.
            if fds[1].revents != 0 {
                self.look()?;
            }
            if fds[2].revents != 0 {
                loop {
                    match self.listener.accept() {
                        Ok((stream, _)) => self.answer(stream)?,
                        Err(err) if err.kind() == io::ErrorKind::WouldBlock => break,
                        Err(err) if err.kind() == io::ErrorKind::Interrupted => {}
                        Err(_) => {
                            // A connection gone before it was taken, or no
                            // descriptor left for it (which `poll` would
                            // report again at once): a pause, then on.
                            std::thread::sleep(Duration::from_millis(10));
                            break;
                        }
                    }
                }
            }
        }
    }

    /// Reads the events queued, and counts a change if there was any.
    fn look(&mut self) -> io::Result<()> {
        if self.tree.drain()? {
            self.generation += 1;
        }
        Ok(())
    }

    /// Answers one request; `Err` only where the watcher must stop. A
    /// request that is malformed, slow, or from another user gets nothing.
    fn answer(&mut self, mut stream: UnixStream) -> io::Result<()> {
        let Some((kind, payload)) = read_request(&mut stream, &self.tree.dir) else {
            return Ok(());
        };
        let reply = match kind {
            ASK => {
                let (key, [dev, ino]) = unpack(&payload);
                if (dev, ino) != self.tree.identity {
                    // The load found another directory at the path: if the
                    // path has it now, the watched one has left the path.
                    if !same_file(&self.tree.dir, self.tree.identity) {
                        return Err(replaced(&self.tree.dir));
                    }
                    let _ = stream.write_all(&[PROTOCOL, OTHER]);
                    return Ok(());
                }
                self.look()?;
                let vouched = self.vouched_at.get(&key) == Some(&self.generation);
                *if vouched { &mut self.vouched } else { &mut self.checked } += 1;
                let mut reply = vec![PROTOCOL, ASK];
                reply.extend(self.epoch.to_le_bytes());
                reply.extend(self.generation.to_le_bytes());
                reply.push(u8::from(vouched));
                reply
            }
            VOUCH => {
                let (key, [epoch, generation]) = unpack(&payload);
                // Only a generation this watcher told; a late vouch for an
                // older one than the file's last leaves that one.
                if epoch == self.epoch && generation <= self.generation {
                    if self.vouched_at.len() >= REMEMBERED && !self.vouched_at.contains_key(&key) {
                        let oldest = self.vouched_at.iter().min_by_key(|(_, at)| **at).map(|(key, _)| *key);
                        oldest.map(|oldest| self.vouched_at.remove(&oldest));
                    }
                    let at = self.vouched_at.entry(key).or_insert(generation);
                    *at = (*at).max(generation);
                }
                return Ok(());
            }
            STATUS => {
                self.look()?;
                let mut reply = vec![PROTOCOL, STATUS];
                reply.extend(std::process::id().to_le_bytes());
                let (directories, files) = (self.directories() as u64, self.files() as u64);
                for count in [directories, files, self.generation, self.vouched, self.checked] {
                    reply.extend(count.to_le_bytes());
                }
                reply
            }
            _ => vec![PROTOCOL, OTHER],
        };
        let _ = stream.write_all(&reply);
        Ok(())
    }

    /// What the watcher of the dataset under `dir`, for loads cached in
    /// `cache_dir`, has done; an error that says so if none runs.
    pub fn status(dir: impl AsRef<Path>, cache_dir: &Path) -> io::Result<WatchStatus> {
        let dir = dir.as_ref();
        // Not `NotFound`, which says that no watcher runs.
        let canonical = fs::canonicalize(dir)
            .map_err(|err| io::Error::other(format!("cannot open the dataset `{}`: {err}", dir.display())))?;
        let not_running = || {
            io::Error::new(
                io::ErrorKind::NotFound,
                format!("no watcher runs for `{}` with the cache in `{}`", canonical.display(), cache_dir.display()),
            )
        };
        let mut stream = connect(cache_dir, &canonical).ok_or_else(not_running)?;
        stream.write_all(&request(STATUS, &canonical, &[]))?;
        let mut reply = Vec::new();
        stream.read_to_end(&mut reply)?;
        if reply.len() != STATUS_REPLY || reply[..2] != [PROTOCOL, STATUS] {
            return Err(io::Error::other(
                "the watcher did not answer as this version does (another version of the program?)",
            ));
        }
        let mut counts = reply[6..].chunks_exact(8).map(|word| u64::from_le_bytes(word.try_into().expect("8 bytes")));
        let mut count = || counts.next().unwrap_or(0);
        Ok(WatchStatus {
            pid: u32::from_le_bytes(reply[2..6].try_into().expect("four bytes")),
            directories: count(),
            files: count(),
            changes: count(),
            vouched: count(),
            checked: count(),
        })
    }
}

impl Drop for Watcher {
    fn drop(&mut self) {
        // Another watcher may have taken the name since (this one's socket
        // then left for dead); its socket stays.
        if fs::symlink_metadata(&self.socket).is_ok_and(|now| (now.dev(), now.ino()) == self.socket_file) {
            let _ = fs::remove_file(&self.socket);
        }
    }
}

/// Binds the socket at `path`, in place of a dead watcher's.
fn bind(path: &Path) -> io::Result<UnixListener> {
    match UnixListener::bind(path) {
        Err(err) if err.kind() == io::ErrorKind::AddrInUse => {
            // Alive if it takes the connection, or is too busy to (`EAGAIN`).
            let alive = match connect_now(path) {
                Ok(_) => true,
                Err(err) => err.kind() == io::ErrorKind::WouldBlock,
            };
            if alive {
                return Err(io::Error::new(
                    io::ErrorKind::AddrInUse,
                    format!("another watcher has this dataset (its socket is `{}`)", path.display()),
                ));
            }
            fs::remove_file(path).map_err(|err| explained("cannot remove the dead socket", path, err))?;
            UnixListener::bind(path).map_err(|err| explained("cannot make the socket", path, err))
        }
        bound => bound.map_err(|err| explained("cannot make the socket", path, err)),
    }
}

/// Reads a request for the dataset `dir` from `stream`: its kind and the
/// rest; a request for another dataset is answered so, and gives `None`, as
/// does one from another user or one not whole within [`REQUEST_PATIENCE`].
fn read_request(stream: &mut UnixStream, dir: &Path) -> Option<(u8, Payload)> {
    if !same_user(stream) {
        return None;
    }
    stream.set_nonblocking(false).ok()?;
    stream.set_write_timeout(Some(REQUEST_PATIENCE)).ok()?;
    let deadline = Instant::now() + REQUEST_PATIENCE;
    let mut read_exact = |bytes: &mut [u8]| read_by(stream, bytes, deadline);
    let mut head = [0; 6];
    read_exact(&mut head)?;
    let len = u32::from_le_bytes(head[2..6].try_into().ok()?) as usize;
    if head[0] != PROTOCOL || len > LONGEST_PATH {
        let _ = stream.write_all(&[PROTOCOL, OTHER]);
        return None;
    }
    let mut path = vec![0; len];
    read_exact(&mut path)?;
    let mut payload = [0; 32];
    let wanted = match head[1] {
        ASK | VOUCH => payload.len(),
        _ => 0,
    };
    // Read whole before any answer: a socket closed with bytes unread
    // resets the connection, and the client would not read the answer.
    read_exact(&mut payload[..wanted])?;
    if path != dir.as_os_str().as_bytes() {
        let _ = stream.write_all(&[PROTOCOL, OTHER]);
        return None;
    }
    Some((head[1], payload))
}

/// Fills `bytes` from `stream` by `deadline`, however the bytes come.
fn read_by(stream: &mut UnixStream, bytes: &mut [u8], deadline: Instant) -> Option<()> {
    let mut done = 0;
    while done < bytes.len() {
        let left = deadline.checked_duration_since(Instant::now()).filter(|left| !left.is_zero())?;
        stream.set_read_timeout(Some(left)).ok()?;
        match stream.read(&mut bytes[done..]) {
            Ok(0) => return None,
            Ok(read) => done += read,
            Err(err) if err.kind() == io::ErrorKind::Interrupted => {}
            Err(_) => return None,
        }
    }
    Some(())
}

/// A random number from the kernel; the time and the process otherwise.
fn random_u64() -> u64 {
    let mut bytes = [0u8; 8];
    // SAFETY: `bytes` is writable for its length.
    let filled = unsafe { libc::getrandom(bytes.as_mut_ptr().cast(), bytes.len(), 0) };
    if filled == bytes.len() as isize {
        return u64::from_ne_bytes(bytes);
    }
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |t| t.as_nanos());
    (now as u64) ^ (u64::from(std::process::id()) << 32)
}

/// What follows the path in an ask or a vouch: a cache file's key and two
/// words (the dataset directory's device and inode; the watcher's epoch and
/// generation).
type Payload = [u8; 32];

fn payload(key: &CacheKey, words: [u64; 2]) -> Payload {
    let mut payload = [0; 32];
    payload[..16].copy_from_slice(key);
    payload[16..24].copy_from_slice(&words[0].to_le_bytes());
    payload[24..].copy_from_slice(&words[1].to_le_bytes());
    payload
}

fn unpack(payload: &Payload) -> (CacheKey, [u64; 2]) {
    let word = |at: usize| u64::from_le_bytes(payload[at..at + 8].try_into().expect("8 bytes"));
    (payload[..16].try_into().expect("16 bytes"), [word(16), word(24)])
}

/// `what` the file at `path` failed, and why.
fn explained(what: &str, path: &Path, err: io::Error) -> io::Error {
    io::Error::new(err.kind(), format!("{what} `{}`: {err}", path.display()))
}

/// `fd` owned, or the call's error.
///
/// # Safety
/// `fd` must be a descriptor just returned to the caller, or -1.
unsafe fn owned(fd: i32) -> io::Result<OwnedFd> {
    if fd < 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: the caller's promise.
    Ok(unsafe { OwnedFd::from_raw_fd(fd) })
}

/// The dataset's directories and record files, each with an inotify watch.
///
/// A directory's watch tells of its entries made, removed, renamed, and of
/// its files written through it. A record file has a watch of its own too:
/// the file may have another hard link, outside the dataset, and a write
/// through that name reaches the file's watch but no watched directory.
#[derive(Debug)]
struct Tree {
    /// The dataset's real path.
    dir: PathBuf,
    /// Its device and inode: the directory the watcher was started on.
    identity: (u64, u64),
    inotify: OwnedFd,
    /// The watched directories and files, by watch descriptor.
    watched: HashMap<i32, Watched>,
    /// The watch descriptor of `dir`.
    root: i32,
}

/// What a watch descriptor watches.
#[derive(Debug)]
struct Watched {
    path: PathBuf,
    is_dir: bool,
}

/// What a directory's watch hears of: its entries, and writes through them.
/// Not reads: a load's own reads must not count as changes.
const DIR_EVENTS: u32 = libc::IN_MODIFY
    | libc::IN_ATTRIB
    | libc::IN_CLOSE_WRITE
    | libc::IN_CREATE
    | libc::IN_DELETE
    | libc::IN_DELETE_SELF
    | libc::IN_MOVE_SELF
    | libc::IN_MOVED_FROM
    | libc::IN_MOVED_TO
    | libc::IN_DONT_FOLLOW
    | libc::IN_ONLYDIR;

/// What a record file's watch hears of: writes, through any of its names.
const FILE_EVENTS: u32 = libc::IN_MODIFY
    | libc::IN_ATTRIB
    | libc::IN_CLOSE_WRITE
    | libc::IN_DELETE_SELF
    | libc::IN_MOVE_SELF
    | libc::IN_DONT_FOLLOW;

impl Tree {
    fn new(dir: PathBuf) -> io::Result<Tree> {
        let metadata = fs::metadata(&dir).map_err(|err| explained("cannot open the dataset", &dir, err))?;
        // SAFETY: inotify_init1 takes no pointer; the result is checked.
        let inotify = unsafe { owned(libc::inotify_init1(libc::IN_NONBLOCK | libc::IN_CLOEXEC)) }?;
        Ok(Tree { dir, identity: (metadata.dev(), metadata.ino()), inotify, watched: HashMap::new(), root: -1 })
    }

    /// The directories watched.
    fn directories(&self) -> usize {
        self.watched.values().filter(|watched| watched.is_dir).count()
    }

    /// Watches every directory and record file of the dataset (a directory
    /// before it is listed, so that nothing made in it after is missed), and
    /// checks for what inotify could not follow; drops the watches of what
    /// is no longer there.
    fn walk(&mut self) -> io::Result<()> {
        let mut watched = HashMap::new();
        let dir = self.dir.clone();
        self.root = self.watch_below(&dir, &mut watched, &mut Vec::new())?.unwrap_or(-1);
        if self.root < 0 || !same_file(&self.dir, self.identity) {
            return Err(replaced(&self.dir));
        }
        for gone in self.watched.keys().filter(|wd| !watched.contains_key(wd)) {
            // SAFETY: plain system call on a descriptor this tree owns.
            unsafe { libc::inotify_rm_watch(self.inotify.as_raw_fd(), *gone) };
        }
        self.watched = watched;
        Ok(())
    }

    /// Adds a watch on `path` (`events`: [`DIR_EVENTS`] or [`FILE_EVENTS`]);
    /// `None` where it is gone, or no longer a directory (an event tells,
    /// and the next look sees what is there).
    fn watch(&self, path: &Path, events: u32) -> io::Result<Option<i32>> {
        let c_path = CString::new(path.as_os_str().as_bytes()).map_err(io::Error::other)?;
        // SAFETY: `c_path` is NUL-terminated; the descriptor is this tree's.
        let wd = unsafe { libc::inotify_add_watch(self.inotify.as_raw_fd(), c_path.as_ptr(), events) };
        if wd >= 0 {
            return Ok(Some(wd));
        }
        let err = io::Error::last_os_error();
        match err.raw_os_error() {
            Some(libc::ENOENT | libc::ENOTDIR) => Ok(None),
            Some(libc::ENOSPC) => Err(io::Error::other(format!(
                "cannot watch `{}`: the limit of inotify watches is reached (one a directory and one a record \
                 file; raise it with `sysctl fs.inotify.max_user_watches=N`)",
                path.display()
            ))),
            _ => Err(explained("cannot watch", path, err)),
        }
    }

    /// Watches `dir`, and what is below it, into `watched`; `ancestors` are
    /// the directories being walked (device, inode), to stop at a bind mount
    /// that leads back into one. `None` where `dir` is gone.
    fn watch_below(
        &self,
        dir: &Path,
        watched: &mut HashMap<i32, Watched>,
        ancestors: &mut Vec<(u64, u64)>,
    ) -> io::Result<Option<i32>> {
        let gone = |err: &io::Error| err.kind() == io::ErrorKind::NotFound;
        check_file_system(dir)?;
        let Some(wd) = self.watch(dir, DIR_EVENTS)? else {
            return Ok(None);
        };
        // Recorded at once, so that a walk removes it if `dir` goes.
        watched.insert(wd, Watched { path: dir.to_owned(), is_dir: true });
        let metadata = match fs::metadata(dir) {
            Ok(metadata) => metadata,
            Err(err) if gone(&err) => return Ok(None),
            Err(err) => return Err(explained("cannot stat", dir, err)),
        };
        if ancestors.contains(&(metadata.dev(), metadata.ino())) {
            return Err(io::Error::other(format!("`{}` leads back into a directory above it", dir.display())));
        }
        let entries = match fs::read_dir(dir) {
            Ok(entries) => entries,
            Err(err) if gone(&err) => return Ok(Some(wd)),
            Err(err) => return Err(explained("cannot list", dir, err)),
        };
        ancestors.push((metadata.dev(), metadata.ino()));
        for entry in entries {
            let entry = entry.map_err(|err| explained("cannot list", dir, err))?;
            if is_hidden(&entry.file_name()) {
                continue;
            }
            let path = entry.path();
            match entry.file_type() {
                Ok(kind) if kind.is_dir() => {
                    self.watch_below(&path, watched, ancestors)?;
                }
                Ok(_) => self.watch_entry(&path, watched)?,
                Err(err) if gone(&err) => {}
                Err(err) => return Err(explained("cannot stat", &path, err)),
            }
        }
        ancestors.pop();
        Ok(Some(wd))
    }

    /// Watches the entry at `path` (not a directory when listed) into
    /// `watched` if it is a file the loader reads; a symbolic link is an
    /// error (a change to what it leads to would go unseen).
    fn watch_entry(&self, path: &Path, watched: &mut HashMap<i32, Watched>) -> io::Result<()> {
        let metadata = match fs::symlink_metadata(path) {
            Ok(metadata) => metadata,
            Err(err) if err.kind() == io::ErrorKind::NotFound => return Ok(()),
            Err(err) => return Err(explained("cannot stat", path, err)),
        };
        if metadata.file_type().is_symlink() {
            return Err(io::Error::other(format!(
                "`{}` is a symbolic link: a change to what it leads to would go unseen, so the dataset cannot be \
                 watched (copy the file or directory in instead)",
                path.display()
            )));
        }
        if metadata.is_file() && read_by_the_loader(path) {
            if let Some(wd) = self.watch(path, FILE_EVENTS)? {
                watched.insert(wd, Watched { path: path.to_owned(), is_dir: false });
            }
        }
        Ok(())
    }

    /// Reads the events queued (without waiting), and whether there was any
    /// change among them; `Err` where the watcher can no longer vouch for the
    /// dataset. Under a stream of writes that never lets the queue empty, it
    /// stops after [`LONGEST_LOOK`] reads: there was a change, so no load is
    /// vouched for, and the rest is read by the next look before any is.
    fn drain(&mut self) -> io::Result<bool> {
        // Room for many events of the longest name.
        let mut buffer = vec![0u8; 64 * 1024];
        let mut changed = false;
        let mut walk = false;
        let mut new_dirs = Vec::new();
        let mut new_entries = Vec::new();
        let mut emptied = false;
        for _ in 0..LONGEST_LOOK {
            // SAFETY: `buffer` is writable for its length.
            let read = unsafe { libc::read(self.inotify.as_raw_fd(), buffer.as_mut_ptr().cast(), buffer.len()) };
            if read < 0 {
                let err = io::Error::last_os_error();
                match err.kind() {
                    io::ErrorKind::WouldBlock => {
                        emptied = true;
                        break;
                    }
                    io::ErrorKind::Interrupted => continue,
                    _ => return Err(err),
                }
            }
            let mut events = &buffer[..read as usize];
            while let Some(event) = Event::take(&mut events) {
                let has = |mask: u32| event.mask & mask != 0;
                let name = OsStr::from_bytes(event.name);
                if has(libc::IN_Q_OVERFLOW) {
                    // Events were lost: what changed is known only by looking.
                    (changed, walk) = (true, true);
                    continue;
                }
                if event.wd == self.root && has(libc::IN_DELETE_SELF | libc::IN_MOVE_SELF | libc::IN_IGNORED) {
                    return Err(replaced(&self.dir));
                }
                let Some(watched) = self.watched.get(&event.wd) else {
                    // The last events of a watch that a walk removed, on
                    // something no longer in the dataset.
                    continue;
                };
                if !event.name.is_empty() && is_hidden(name) {
                    // An entry the loader skips (an editor's swap file, say).
                    continue;
                }
                changed = true;
                if has(libc::IN_IGNORED) {
                    // Removed, or moved out of the file system.
                    self.watched.remove(&event.wd);
                } else if has(libc::IN_MOVE_SELF | libc::IN_UNMOUNT) && watched.is_dir {
                    // The paths below it changed.
                    walk = true;
                } else if has(libc::IN_ISDIR) && has(libc::IN_MOVED_FROM | libc::IN_MOVED_TO) {
                    walk = true;
                } else if has(libc::IN_ISDIR) && has(libc::IN_CREATE) {
                    new_dirs.push(watched.path.join(name));
                } else if has(libc::IN_CREATE | libc::IN_MOVED_TO) && watched.is_dir {
                    new_entries.push(watched.path.join(name));
                }
            }
        }
        // Events left in the queue may be changes: none is vouched for
        // until a look empties it.
        changed |= !emptied;
        if walk {
            self.walk()?;
        } else if !new_dirs.is_empty() || !new_entries.is_empty() {
            // No directory in the dataset moved since the last walk, so the
            // paths hold, if the dataset is still at its own (a directory
            // above it renamed, which no watch hears of, would take it away).
            if !same_file(&self.dir, self.identity) {
                return Err(replaced(&self.dir));
            }
            let mut watched = HashMap::new();
            for path in new_entries {
                self.watch_entry(&path, &mut watched)?;
            }
            for dir in new_dirs {
                self.watch_below(&dir, &mut watched, &mut Vec::new())?;
            }
            self.watched.extend(watched);
        }
        Ok(changed)
    }
}

/// Whether `dir` is on a file system whose every change this kernel makes,
/// so that inotify sees it.
fn check_file_system(dir: &Path) -> io::Result<()> {
    let c_path = CString::new(dir.as_os_str().as_bytes()).map_err(io::Error::other)?;
    let mut stats = std::mem::MaybeUninit::<libc::statfs>::uninit();
    // SAFETY: `c_path` is NUL-terminated; `stats` is as large as the call writes.
    if unsafe { libc::statfs(c_path.as_ptr(), stats.as_mut_ptr()) } != 0 {
        let err = io::Error::last_os_error();
        // Gone: an event tells.
        return if err.kind() == io::ErrorKind::NotFound { Ok(()) } else { Err(explained("cannot stat", dir, err)) };
    }
    // SAFETY: the call succeeded, so it filled `stats` in.
    #[allow(clippy::unnecessary_cast)] // The field's type differs between platforms.
    let kind = unsafe { stats.assume_init() }.f_type as u32;
    if LOCAL_FILE_SYSTEMS.contains(&kind) {
        return Ok(());
    }
    Err(io::Error::other(format!(
        "`{}` is on a file system (type {kind:#x}) that may be changed without this kernel seeing it (network, \
         FUSE): only datasets on local file systems can be watched",
        dir.display()
    )))
}

/// One inotify event.
struct Event<'a> {
    wd: i32,
    mask: u32,
    /// The entry's name in the watched directory, if the event is about one.
    name: &'a [u8],
}

impl<'a> Event<'a> {
    /// The first event of `bytes`, which are moved past it.
    fn take(bytes: &mut &'a [u8]) -> Option<Event<'a>> {
        const HEAD: usize = std::mem::size_of::<libc::inotify_event>();
        let field = |at: usize| Some(u32::from_ne_bytes(bytes.get(at..at + 4)?.try_into().ok()?));
        let (wd, mask, len) = (field(0)? as i32, field(4)?, field(12)? as usize);
        let name = bytes.get(HEAD..HEAD + len)?;
        // The name is padded with NULs.
        let name = &name[..name.iter().position(|&b| b == 0).unwrap_or(name.len())];
        *bytes = &bytes[HEAD + len..];
        Some(Event { wd, mask, name })
    }
}

/// Whether the loader reads the file at `path`: a record file, or the names
/// file.
fn read_by_the_loader(path: &Path) -> bool {
    is_record_file(path) || path.file_name().is_some_and(|name| name == NAMES_FILE)
}

/// Whether `path` is the file of this device and inode.
fn same_file(path: &Path, identity: (u64, u64)) -> bool {
    fs::metadata(path).is_ok_and(|now| (now.dev(), now.ino()) == identity)
}

fn replaced(dir: &Path) -> io::Error {
    io::Error::other(format!(
        "the dataset's directory `{}` was removed, moved or replaced: start the watcher again",
        dir.display()
    ))
}

#[cfg(test)]
mod tests {
    use std::os::unix::fs::symlink;
    use std::thread::JoinHandle;

    use super::*;
    use crate::catalog::cache::tests::{
        age_dirs, an_hour_ago, dataset, record, summary, write_at, TempDir, STATS_MADE,
    };
    use crate::{Catalog, Filter};

    /// A watcher serving on a thread of its own, stopped when dropped.
    struct Serving {
        stopper: WatchStopper,
        socket: PathBuf,
        thread: Option<JoinHandle<io::Result<()>>>,
    }

    impl Serving {
        fn start(dir: &Path, cache: &Path) -> Serving {
            let watcher = Watcher::new(dir, cache).unwrap();
            let (stopper, socket) = (watcher.stopper(), watcher.socket().to_owned());
            Serving { stopper, socket, thread: Some(std::thread::spawn(move || watcher.serve())) }
        }

        /// How `serve` ended, once it has (without stopping it).
        fn ended(mut self) -> io::Result<()> {
            self.thread.take().unwrap().join().unwrap()
        }

        fn stop(self) -> io::Result<()> {
            self.stopper.stop();
            self.ended()
        }
    }

    impl Drop for Serving {
        fn drop(&mut self) {
            if let Some(thread) = self.thread.take() {
                self.stopper.stop();
                let _ = thread.join();
            }
        }
    }

    /// Waits until the watcher's socket is gone (it reads events as they
    /// come), for as long as a very busy machine could take.
    fn await_gone(socket: &Path) {
        let deadline = std::time::Instant::now() + Duration::from_secs(20);
        while socket.exists() && std::time::Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(5));
        }
        assert!(!socket.exists(), "the watcher did not stop");
    }

    /// A cached load of `dir` (all it gives), and the stats it made.
    fn load(dir: &Path, cache: &Path) -> (String, usize) {
        STATS_MADE.with(|made| made.set(0));
        let loaded = summary(Catalog::load_cached(dir, &Filter::default(), cache));
        (loaded, STATS_MADE.with(std::cell::Cell::get))
    }

    fn fresh(dir: &Path) -> String {
        summary(Catalog::load_filtered(dir, &Filter::default()))
    }

    #[test]
    fn loads_stat_no_file_while_nothing_changed_and_see_every_change() {
        let data = dataset();
        let cache = TempDir::new("watch-cache");
        let dir = data.0.as_path();
        let outside = TempDir::new("outside");
        load(dir, &cache.0);
        let serving = Serving::start(dir, &cache.0);
        let (first, stats) = load(dir, &cache.0);
        assert_eq!(first, fresh(dir));
        assert!(stats > 0, "the first load with a watcher checks the files");
        let (second, stats) = load(dir, &cache.0);
        assert_eq!(second, fresh(dir));
        assert_eq!(stats, 0, "nothing changed since the first load checked the files");
        let status = Watcher::status(dir, &cache.0).unwrap();
        assert_eq!((status.directories, status.files, status.changes, status.vouched, status.checked), (2, 3, 0, 1, 1));
        assert_eq!(status.pid, std::process::id());

        type Change<'a> = (&'a str, Box<dyn Fn() + 'a>);
        let write = |path: &str, id: &str, message: &str| {
            write_at(&dir.join(path), &record(id, message, "error"), an_hour_ago())
        };
        let changes: Vec<Change<'_>> = vec![
            ("a record rewritten in place", Box::new(|| write("a.json", "a1", "stream %s gone: %v"))),
            ("a record rewritten to the same length", Box::new(|| write("b.json", "b2", "limit %d exceeds"))),
            (
                "only a modification time",
                Box::new(|| fs::File::open(dir.join("b.json")).unwrap().set_modified(an_hour_ago()).unwrap()),
            ),
            ("a record added in a subdirectory", Box::new(|| write("sub/d.json", "d4", "peer %s left"))),
            ("a record removed", Box::new(|| fs::remove_file(dir.join("b.json")).unwrap())),
            ("a record renamed", Box::new(|| fs::rename(dir.join("a.json"), dir.join("e.json")).unwrap())),
            (
                "a directory made, with a record",
                Box::new(|| {
                    fs::create_dir(dir.join("new")).unwrap();
                    write("new/f.json", "f6", "queue %s full");
                }),
            ),
            ("a directory renamed", Box::new(|| fs::rename(dir.join("sub"), dir.join("moved")).unwrap())),
            ("a record added in the renamed directory", Box::new(|| write("moved/g.json", "g7", "lost %d"))),
            (
                "a record added in a directory made in the renamed one",
                Box::new(|| {
                    fs::create_dir(dir.join("moved/deeper")).unwrap();
                    write("moved/deeper/h.json", "h8", "gone %q");
                }),
            ),
            (
                "a hidden directory made visible",
                Box::new(|| {
                    fs::create_dir(dir.join(".hidden")).unwrap();
                    write(".hidden/i.json", "i9", "hidden %d");
                    age_dirs(dir);
                    fs::rename(dir.join(".hidden"), dir.join("visible")).unwrap();
                }),
            ),
            (
                "a record rewritten in a directory made since",
                Box::new(|| write("moved/deeper/h.json", "h8", "went %q")),
            ),
            ("a directory removed", Box::new(|| fs::remove_dir_all(dir.join("new")).unwrap())),
            (
                "a hard link made outside",
                Box::new(|| fs::hard_link(dir.join("e.json"), outside.0.join("e.json")).unwrap()),
            ),
            (
                "a record written through its other name",
                Box::new(|| {
                    write_at(&outside.0.join("e.json"), &record("a1", "stream %s lost: %v", "error"), an_hour_ago());
                }),
            ),
        ];
        for (what, change) in changes {
            change();
            age_dirs(dir);
            let (after, stats) = load(dir, &cache.0);
            assert_eq!(after, fresh(dir), "{what}");
            assert!(stats > 0, "{what}: the load checks the files");
            // That load wrote the cache anew (where a stamp changed), and
            // the next one checks it and vouches for it.
            let (checked, _) = load(dir, &cache.0);
            assert_eq!(checked, fresh(dir), "{what}");
            let (again, stats) = load(dir, &cache.0);
            assert_eq!(again, fresh(dir), "{what}");
            assert_eq!(stats, 0, "{what}: nothing changed since");
        }
        let status = Watcher::status(dir, &cache.0).unwrap();
        assert_eq!(status.directories, 4, "the root, moved/, moved/deeper/ and visible/");
        assert_eq!(status.files, 6, "e.json, moved/c.json, d.json, g.json, deeper/h.json, visible/i.json");
        assert!(status.changes >= 14, "{status:?}");
        let socket = serving.socket.clone();
        assert!(socket.exists());
        serving.stop().unwrap();
        assert!(!socket.exists(), "a stopped watcher removes its socket");
        let (after, stats) = load(dir, &cache.0);
        assert_eq!(after, fresh(dir));
        assert!(stats > 0, "with no watcher, a load checks the files");
    }

    #[test]
    fn a_dataset_where_a_change_could_go_unseen_is_refused() {
        let refusal = |dir: &Path, cache: &Path| Watcher::new(dir, cache).unwrap_err().to_string();
        let cache = TempDir::new("watch-cache");
        let data = dataset();
        symlink(data.0.join("a.json"), data.0.join("sub/link.json")).unwrap();
        let said = refusal(&data.0, &cache.0);
        assert!(said.contains("sub/link.json` is a symbolic link"), "{said}");

        let data = dataset();
        let said = refusal(&data.0, &data.0.join("cache"));
        assert!(said.contains("is inside the dataset"), "{said}");
        let said = refusal(&data.0, &cache.0.join("a-cache-directory-with-a-long-name".repeat(3)));
        assert!(said.contains("set ERRCAT_CACHE_DIR to a shorter directory"), "{said}");

        let _serving = Serving::start(&data.0, &cache.0);
        let err = Watcher::new(&data.0, &cache.0).unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::AddrInUse);
        assert!(err.to_string().contains("another watcher has this dataset"), "{err}");
    }

    #[test]
    fn the_watcher_stops_where_a_change_could_go_unseen_and_loads_check_the_files() {
        let outside = TempDir::new("outside");
        // Each is given the dataset's directory and the watcher's socket.
        type Break<'a> = (&'a str, &'a dyn Fn(&Path, &Path));
        let breaks: [Break<'_>; 4] = [
            ("is a symbolic link", &|dir, _| {
                let target = outside.0.join("linked.json");
                write_at(&target, &record("l9", "linked %d", "error"), an_hour_ago());
                symlink(target, dir.join("sub/link.json")).unwrap();
            }),
            ("was removed, moved or replaced", &|dir, _| fs::rename(dir, outside.0.join("moved")).unwrap()),
            ("was removed, moved or replaced", &|dir, _| {
                // The directory above renamed (no watch hears of it), and
                // another dataset made at the path, its record changed.
                let parent = dir.parent().unwrap();
                fs::rename(parent, outside.0.join("parent")).unwrap();
                fs::create_dir_all(dir.join("sub")).unwrap();
                let moved = outside.0.join("parent").join(dir.file_name().unwrap());
                for file in ["b.json", "sub/c.json"] {
                    fs::copy(moved.join(file), dir.join(file)).unwrap();
                }
                write_at(&dir.join("a.json"), &record("a1", "stream %s left: %v", "error"), an_hour_ago());
                age_dirs(dir);
            }),
            ("was removed, moved or replaced", &|dir, socket| {
                // The directory above renamed, a directory made in the
                // dataset while it is away from its path (which the watcher
                // cannot watch by its path), the directory above renamed
                // back, and a record written in the new directory.
                let parent = dir.parent().unwrap();
                fs::rename(parent, outside.0.join("parent")).unwrap();
                let away = outside.0.join("parent").join(dir.file_name().unwrap());
                fs::create_dir(away.join("new")).unwrap();
                await_gone(socket);
                fs::rename(outside.0.join("parent"), parent).unwrap();
                write_at(&dir.join("new/n.json"), &record("n1", "node %s down", "error"), an_hour_ago());
                age_dirs(dir);
            }),
        ];
        for (said, break_it) in breaks {
            let parent = TempDir::new("parent");
            let data = TempDir(parent.0.join("data"));
            fs::rename(&dataset().0, &data.0).unwrap();
            age_dirs(&data.0);
            let cache = TempDir::new("watch-cache");
            load(&data.0, &cache.0);
            let serving = Serving::start(&data.0, &cache.0);
            load(&data.0, &cache.0);
            assert_eq!(load(&data.0, &cache.0).1, 0, "{said}: vouched for before");
            break_it(&data.0, &serving.socket);
            if data.0.exists() {
                let (after, stats) = load(&data.0, &cache.0);
                assert_eq!(after, fresh(&data.0), "{said}");
                assert!(stats > 0, "{said}: the load checks the files");
            }
            let socket = serving.socket.clone();
            let err = serving.ended().unwrap_err().to_string();
            assert!(err.contains(said), "{err}");
            assert!(!socket.exists(), "{said}: the socket is removed");
            let _ = fs::remove_dir_all(outside.0.join("moved"));
            let _ = fs::remove_dir_all(outside.0.join("parent"));
            let _ = fs::remove_file(outside.0.join("linked.json"));
        }
    }

    #[test]
    fn only_a_vouch_for_the_current_generation_of_this_watcher_counts() {
        let data = dataset();
        let cache = TempDir::new("watch-cache");
        let _serving = Serving::start(&data.0, &cache.0);
        let canonical = fs::canonicalize(&data.0).unwrap();
        let key = [7; 16];
        let asked = |key: &CacheKey| ask(&cache.0, &canonical, key).unwrap();
        let first = asked(&key);
        assert_eq!((first.generation, first.vouched), (0, false));
        let told = |epoch: u64, generation: u64| Answer { epoch, generation, dir: first.dir, vouched: false };
        vouch(&cache.0, &canonical, &key, &told(first.epoch, 5));
        assert!(!asked(&key).vouched, "a generation not reached yet");
        vouch(&cache.0, &canonical, &key, &told(first.epoch ^ 1, 0));
        assert!(!asked(&key).vouched, "another watcher's generation (one stopped since, say)");
        vouch(&cache.0, &canonical, &key, &first);
        assert!(asked(&key).vouched);
        assert!(!asked(&[8; 16]).vouched, "another cache file");
        fs::write(data.0.join("b.json"), "{}").unwrap();
        // Its events may be read in more than one look, each a change.
        let after = asked(&key);
        assert!(after.generation > 0 && !after.vouched, "a change since");
        fs::write(data.0.join(".b.json.swp"), "{}").unwrap();
        let hidden = asked(&key);
        assert_eq!(hidden.generation, after.generation, "a file the loader skips changes nothing");
        vouch(&cache.0, &canonical, &key, &hidden);
        vouch(&cache.0, &canonical, &key, &first);
        assert!(asked(&key).vouched, "a late vouch for an older generation leaves the newer one");
        // A request for another dataset, on this dataset's socket.
        let mut stream = connect(&cache.0, &canonical).unwrap();
        stream.write_all(&request(ASK, Path::new("/elsewhere"), &[0; 32])).unwrap();
        let mut reply = Vec::new();
        stream.read_to_end(&mut reply).unwrap();
        assert_eq!(reply, [PROTOCOL, OTHER]);
    }
}
