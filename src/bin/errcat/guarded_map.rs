//! Read-only mappings of files that a truncation cannot crash.
//!
//! When another process truncates a mapped file, the pages of the mapping
//! past the file's new end are taken away, and touching one raises SIGBUS,
//! whose default action kills the process (`read(2)` would just end early).
//! Logs are truncated in place (`logrotate`'s `copytruncate`), so errcat
//! catches it: a SIGBUS handler, installed with the first mapping, looks
//! the faulting address up among the live mappings. If one holds it, the
//! rest of that mapping, from the faulting page on, is replaced by zero
//! pages and the mapping is marked truncated; the read that faulted then
//! goes on, reading zeros. Whoever reads a mapping asks
//! [`GuardedMap::truncated`] once done, and discards what it read if so. A
//! fault anywhere else goes to the handler that was there before (the
//! standard library's stack-overflow handler, then the default action).
//!
//! The handler calls only `mmap` and `sigaction` and touches only atomics;
//! the live mappings are a fixed table of slots, claimed and released with
//! atomic operations, so nothing in it allocates or takes a lock.

use std::fs::File;
use std::io;
use std::ops::Deref;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use memmap2::{Mmap, MmapOptions};

/// How many mappings can be live at once: each input has one window, and
/// the chunks in flight keep at most a few older ones; past this, files are
/// read instead.
const SLOTS: usize = 64;

/// A slot's `start` when no mapping holds it, and while one is being
/// registered in it (a mapping's start is a nonzero page address).
const FREE: usize = 0;
const CLAIMED: usize = 1;

/// One live mapping: the pages it spans, and whether a truncation has been
/// caught in them.
struct Slot {
    start: AtomicUsize,
    end: AtomicUsize,
    truncated: AtomicBool,
}

#[allow(clippy::declare_interior_mutable_const)] // Each slot is its own copy.
const EMPTY: Slot = Slot { start: AtomicUsize::new(FREE), end: AtomicUsize::new(0), truncated: AtomicBool::new(false) };

static SLOTS_IN_USE: [Slot; SLOTS] = [EMPTY; SLOTS];

/// A read-only mapping of part of a file, registered with the SIGBUS
/// handler while it lives.
pub struct GuardedMap {
    map: Mmap,
    slot: usize,
}

impl GuardedMap {
    /// Maps `length` bytes of `file` from `offset`.
    ///
    /// Neither `madvise(MADV_SEQUENTIAL)` nor `MAP_POPULATE` is asked for:
    /// on a 276 MB log in the page cache neither made the scan faster (the
    /// kernel's fault-around already maps 16 pages per fault, and
    /// populating a window only moved that work into `mmap`), and
    /// populating costs memory.
    pub fn map(file: &File, offset: u64, length: usize) -> io::Result<GuardedMap> {
        handler::install()?;
        // SAFETY: the mapping is read-only and errcat never writes the
        // file; what Rust cannot rule out is another process changing the
        // file while it is mapped. Bytes rewritten in place would change
        // under a `&[u8]` (and under a `&str` already checked to be UTF-8);
        // logs are appended to, not rewritten, so that does not happen, and
        // only files that nobody has modified for a while are mapped (see
        // `input::Mapped`). A truncation reads as zeros past the faulting
        // page, and marks the mapping (see the module's documentation).
        // This is the only `unsafe` of the mapping of logs.
        let map = unsafe { MmapOptions::new().offset(offset).len(length).map(file)? };
        let page = handler::page_size();
        let first = map.as_ptr() as usize;
        let (start, end) = (first & !(page - 1), (first + map.len()).next_multiple_of(page));
        let slot = SLOTS_IN_USE
            .iter()
            .position(|slot| slot.start.compare_exchange(FREE, CLAIMED, Ordering::Acquire, Ordering::Relaxed).is_ok())
            .ok_or_else(|| io::Error::other("too many files mapped at once"))?;
        let claimed = &SLOTS_IN_USE[slot];
        claimed.truncated.store(false, Ordering::Relaxed);
        claimed.end.store(end, Ordering::Relaxed);
        // Published last: the handler reads `end` only after seeing `start`.
        claimed.start.store(start, Ordering::Release);
        Ok(GuardedMap { map, slot })
    }

    /// Whether the file was found truncated under the mapping: its bytes
    /// from some page on read as zeros, not as the file's.
    pub fn truncated(&self) -> bool {
        SLOTS_IN_USE[self.slot].truncated.load(Ordering::Acquire)
    }
}

impl Deref for GuardedMap {
    type Target = [u8];

    fn deref(&self) -> &[u8] {
        &self.map
    }
}

impl Drop for GuardedMap {
    /// Releases the slot; the mapping itself is unmapped right after, when
    /// `map` is dropped (nothing reads it any more, so nothing faults).
    fn drop(&mut self) {
        SLOTS_IN_USE[self.slot].start.store(FREE, Ordering::Release);
    }
}

#[cfg(unix)]
mod handler {
    use std::io;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::OnceLock;

    use super::{CLAIMED, SLOTS_IN_USE};

    /// The system's page size, read once.
    static PAGE: AtomicUsize = AtomicUsize::new(0);

    /// The SIGBUS action before this one, for faults that are not ours.
    static PREVIOUS: OnceLock<Previous> = OnceLock::new();

    /// Whether the handler could be installed (tried once).
    static INSTALLED: OnceLock<bool> = OnceLock::new();

    struct Previous(libc::sigaction);

    // SAFETY: a `sigaction` is plain data (a handler address, flags and a
    // signal mask); it is only read once stored.
    unsafe impl Sync for Previous {}
    unsafe impl Send for Previous {}

    pub fn page_size() -> usize {
        PAGE.load(Ordering::Relaxed)
    }

    /// Installs the SIGBUS handler, once.
    pub fn install() -> io::Result<()> {
        let installed = *INSTALLED.get_or_init(|| {
            // SAFETY: `sysconf` has no preconditions.
            let page = unsafe { libc::sysconf(libc::_SC_PAGESIZE) };
            let Some(page) = usize::try_from(page).ok().filter(|page| page.is_power_of_two()) else {
                return false;
            };
            PAGE.store(page, Ordering::Relaxed);
            // SAFETY: an all-zero `sigaction` is a valid value (no flags, an
            // empty mask) that the calls below fill in.
            let mut action: libc::sigaction = unsafe { std::mem::zeroed() };
            let mut previous: libc::sigaction = unsafe { std::mem::zeroed() };
            action.sa_sigaction = on_sigbus as *const () as usize;
            // On the alternate stack where there is one, like the standard
            // library's handler.
            action.sa_flags = libc::SA_SIGINFO | libc::SA_ONSTACK;
            // SAFETY: both pointers are to live `sigaction`s; the mask is
            // emptied before the action is installed.
            let done = unsafe {
                libc::sigemptyset(&mut action.sa_mask);
                libc::sigaction(libc::SIGBUS, &action, &mut previous)
            };
            if done != 0 {
                return false;
            }
            let _ = PREVIOUS.set(Previous(previous));
            true
        });
        if installed {
            Ok(())
        } else {
            Err(io::Error::other("no SIGBUS handler could be installed"))
        }
    }

    /// The SIGBUS handler (see the module's documentation).
    extern "C" fn on_sigbus(_signal: libc::c_int, info: *mut libc::siginfo_t, _context: *mut libc::c_void) {
        // SAFETY: the kernel passes a valid `siginfo_t` to an `SA_SIGINFO`
        // handler; for SIGBUS its address is the one that faulted.
        let address = unsafe { (*info).si_addr() } as usize;
        let page = PAGE.load(Ordering::Relaxed);
        for slot in &SLOTS_IN_USE {
            let start = slot.start.load(Ordering::Acquire);
            let end = slot.end.load(Ordering::Acquire);
            // A slot released and claimed again between the two loads would
            // pair one mapping's start with another's end: its start is
            // then no longer the one read first.
            if start <= CLAIMED || slot.start.load(Ordering::Acquire) != start || !(start..end).contains(&address) {
                continue;
            }
            let from = address & !(page - 1);
            // SAFETY: `from..end` lies in this slot's mapping, which is live
            // (the thread that faulted is reading it, so it holds it), and
            // whose pages past the file's end are gone anyway: zero pages
            // replace them where they stand (MAP_FIXED), and unmapping the
            // mapping later unmaps them with it.
            let zeros = unsafe {
                libc::mmap(
                    from as *mut libc::c_void,
                    end - from,
                    libc::PROT_READ,
                    libc::MAP_PRIVATE | libc::MAP_ANONYMOUS | libc::MAP_FIXED,
                    -1,
                    0,
                )
            };
            if zeros != libc::MAP_FAILED {
                slot.truncated.store(true, Ordering::Release);
                return;
            }
        }
        // Not a mapped file's page: as if this handler were not there. The
        // fault repeats when this returns, and goes to that action.
        let previous = PREVIOUS.get().map_or(std::ptr::null(), |previous| &previous.0 as *const libc::sigaction);
        // SAFETY: `previous` is null or a `sigaction` that lives for the
        // rest of the program; with null the default action is restored.
        unsafe {
            if previous.is_null() {
                libc::signal(libc::SIGBUS, libc::SIG_DFL);
            } else {
                libc::sigaction(libc::SIGBUS, previous, std::ptr::null_mut());
            }
        }
    }
}

/// Elsewhere a mapped file cannot be truncated (Windows refuses to), so
/// there is nothing to catch.
#[cfg(not(unix))]
mod handler {
    pub fn page_size() -> usize {
        4096
    }

    pub fn install() -> std::io::Result<()> {
        Ok(())
    }
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use std::io::Write;

    fn file_of(bytes: &[u8], name: &str) -> (std::path::PathBuf, File) {
        let path = std::env::temp_dir().join(format!("errcat-guarded-{}-{name}", std::process::id()));
        File::create(&path).unwrap().write_all(bytes).unwrap();
        let file = File::open(&path).unwrap();
        (path, file)
    }

    #[test]
    fn a_file_truncated_under_its_mapping_reads_as_zeros_and_says_so() {
        let page = {
            handler::install().unwrap();
            handler::page_size()
        };
        let bytes: Vec<u8> = (0..4 * page).map(|at| b'a' + (at % 26) as u8).collect();
        let (path, file) = file_of(&bytes, "truncated");
        let map = GuardedMap::map(&file, 0, bytes.len()).unwrap();
        assert_eq!(&map[..], &bytes[..]);
        assert!(!map.truncated());
        // Cut in the middle of the second page: the rest of that page reads
        // as zeros (the kernel's doing), the pages after it fault.
        std::fs::OpenOptions::new().write(true).open(&path).unwrap().set_len(page as u64 + 10).unwrap();
        assert_eq!(&map[..page + 10], &bytes[..page + 10], "the bytes before the cut are the file's");
        assert!(map[page + 10..].iter().all(|&byte| byte == 0));
        assert!(map.truncated());
        std::fs::remove_file(&path).unwrap();
    }

    #[test]
    fn a_mapping_at_an_offset_is_guarded_over_all_its_pages() {
        handler::install().unwrap();
        let page = handler::page_size();
        let bytes = vec![b'x'; 6 * page];
        let (path, file) = file_of(&bytes, "offset");
        let map = GuardedMap::map(&file, 2 * page as u64, 3 * page + 5).unwrap();
        std::fs::OpenOptions::new().write(true).open(&path).unwrap().set_len(0).unwrap();
        assert_eq!(map.iter().map(|&byte| usize::from(byte)).sum::<usize>(), 0);
        assert!(map.truncated());
        std::fs::remove_file(&path).unwrap();
    }

    #[test]
    fn slots_are_released_when_mappings_are_dropped() {
        let (path, file) = file_of(b"line\n", "slots");
        for _ in 0..4 * SLOTS {
            let map = GuardedMap::map(&file, 0, 5).unwrap();
            assert_eq!(&map[..], b"line\n");
            assert!(!map.truncated());
        }
        std::fs::remove_file(&path).unwrap();
    }
}
