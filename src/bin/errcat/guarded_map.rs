//! Read-only mappings of files that a truncation cannot crash.
//!
//! When another process truncates a mapped file, the pages of the mapping
//! past the file's new end are taken away, and touching one raises SIGBUS,
//! whose default action kills the process (`read(2)` would just end early).
//! Logs are truncated in place (`logrotate`'s `copytruncate`), so errcat
//! catches it: a SIGBUS handler, installed with the first mapping, looks
//! the faulting address up among the live mappings. If one holds it, the
//! mapping is marked truncated and the rest of it, from the faulting page
//! on, is replaced by zero pages; the read that faulted then goes on,
//! reading zeros. Whoever reads a mapping asks [`GuardedMap::cut_short`]
//! once done, which also compares the file's length with what was read (the
//! tail of the page where a file now ends reads as zeros without a fault),
//! and discards what it read if so. A fault anywhere else goes to the
//! handler that was there before (the standard library's stack-overflow
//! handler, then the default action).
//!
//! The handler calls only `mmap`, `sigaction` and `signal` and touches only
//! atomics: the live mappings are a fixed table of slots, each a single
//! word (the first page and the number of pages, packed) claimed and
//! released atomically, so the handler never sees one mapping's start with
//! another's end, and nothing in it allocates or takes a lock.

use std::fs::File;
use std::io;
use std::ops::Deref;
use std::sync::atomic::{compiler_fence, AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;

use memmap2::{Mmap, MmapOptions};

/// How many mappings can be live at once: each input has one window, and
/// the chunks in flight keep at most a few older ones; past this, files are
/// read instead.
const SLOTS: usize = 64;

/// A slot's word is `first page << PAGE_COUNT_BITS | pages`. A mapping's
/// first page is never page 0, so a word below `1 << PAGE_COUNT_BITS`
/// holds no mapping: [`FREE`], or [`CLAIMED`] while one is registered.
/// 20 bits count up to 4 GiB of 4 KiB pages (a window is at most about
/// 16 MiB: a line of `MAX_LINE`), and leave 44 for the first page, enough
/// for any address of 48 to 56 bits (aarch64's mappings start near 2^48).
const PAGE_COUNT_BITS: u32 = 20;
const FREE: u64 = 0;
const CLAIMED: u64 = 1;

/// One live mapping: its pages (one word, see [`PAGE_COUNT_BITS`]), and
/// whether a truncation has been caught in them.
struct Slot {
    pages: AtomicU64,
    truncated: AtomicBool,
}

#[allow(clippy::declare_interior_mutable_const)] // Each slot is its own copy.
const EMPTY: Slot = Slot { pages: AtomicU64::new(FREE), truncated: AtomicBool::new(false) };

static SLOTS_IN_USE: [Slot; SLOTS] = [EMPTY; SLOTS];

/// The pages from address `start` to address `end` (page-aligned) as a
/// slot's word, if they fit in one.
fn packed(start: usize, end: usize, page: usize) -> Option<u64> {
    let (first, count) = (u64::try_from(start / page).ok()?, u64::try_from((end - start) / page).ok()?);
    (first > 0 && first < 1 << (64 - PAGE_COUNT_BITS) && count < 1 << PAGE_COUNT_BITS)
        .then_some(first << PAGE_COUNT_BITS | count)
}

/// The addresses a slot's word spans: empty for a word that holds no
/// mapping.
fn unpacked(word: u64, page: usize) -> std::ops::Range<usize> {
    let first = (word >> PAGE_COUNT_BITS) as usize * page;
    if first == 0 {
        return 0..0;
    }
    first..first + (word & ((1 << PAGE_COUNT_BITS) - 1)) as usize * page
}

/// A read-only mapping of part of a file, registered with the SIGBUS
/// handler while it lives.
pub struct GuardedMap {
    map: Mmap,
    slot: usize,
    /// The file (shared with its reader and its other windows) and the
    /// offset in it of the mapping's first byte, to tell whether it is now
    /// shorter.
    file: Arc<File>,
    offset: u64,
}

impl GuardedMap {
    /// Maps `length` bytes of `file` from `offset`.
    ///
    /// Neither `madvise(MADV_SEQUENTIAL)` nor `MAP_POPULATE` is asked for:
    /// on a 276 MB log in the page cache neither made the scan faster (the
    /// kernel's fault-around already maps 16 pages per fault, and
    /// populating a window only moved that work into `mmap`), and
    /// populating costs memory.
    pub fn map(file: &Arc<File>, offset: u64, length: usize) -> io::Result<GuardedMap> {
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
        let map = unsafe { MmapOptions::new().offset(offset).len(length).map(&**file)? };
        let page = handler::page_size();
        // memmap2 maps from the page that holds `offset`: the mapping's
        // pages are those around its bytes.
        let first = map.as_ptr() as usize;
        let word = packed(first & !(page - 1), (first + map.len()).next_multiple_of(page), page)
            .ok_or_else(|| io::Error::other("a mapping the SIGBUS handler cannot hold"))?;
        // Once the slot is claimed, nothing may return early without
        // releasing it.
        let slot = SLOTS_IN_USE
            .iter()
            .position(|slot| slot.pages.compare_exchange(FREE, CLAIMED, Ordering::Acquire, Ordering::Relaxed).is_ok())
            .ok_or_else(|| io::Error::other("too many files mapped at once"))?;
        let claimed = &SLOTS_IN_USE[slot];
        claimed.truncated.store(false, Ordering::Relaxed);
        // Published last, with the mark reset.
        claimed.pages.store(word, Ordering::Release);
        Ok(GuardedMap { map, slot, file: Arc::clone(file), offset })
    }

    /// Whether the bytes of the mapping up to `end` may not be the file's:
    /// a truncation was caught under the mapping (its bytes from some page
    /// on read as zeros), or the file now ends before `end`.
    pub fn cut_short(&self, end: usize) -> bool {
        self.caught() || self.file.metadata().is_ok_and(|now| now.len() < self.offset + end as u64)
    }

    /// Whether the handler caught a fault under the mapping (a truncation,
    /// or a page that could not be read from the disk).
    pub fn caught(&self) -> bool {
        // The mark may have been set by this thread's own reads, in the
        // handler: they must not be moved after the check.
        compiler_fence(Ordering::SeqCst);
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
        SLOTS_IN_USE[self.slot].pages.store(FREE, Ordering::Release);
    }
}

#[cfg(unix)]
mod handler {
    use std::io;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::OnceLock;

    use super::{unpacked, SLOTS_IN_USE};

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
            // SAFETY: the pointers are to live `sigaction`s, or null; the
            // previous action is kept before this one is installed, so that
            // a fault that is not ours always finds it, and the mask is
            // emptied first.
            unsafe {
                if libc::sigaction(libc::SIGBUS, std::ptr::null(), &mut previous) != 0 {
                    return false;
                }
                let _ = PREVIOUS.set(Previous(previous));
                libc::sigemptyset(&mut action.sa_mask);
                libc::sigaction(libc::SIGBUS, &action, std::ptr::null_mut()) == 0
            }
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
        // handler; for a SIGBUS it raised (a positive code; `kill` sends
        // others), its address is the one that faulted.
        let (code, address) = unsafe { ((*info).si_code, (*info).si_addr() as usize) };
        let page = PAGE.load(Ordering::Relaxed);
        for slot in SLOTS_IN_USE.iter().filter(|_| code > 0) {
            // One load: the pages of a mapping registered at that moment,
            // so live then, as is the one that faulted (its thread holds
            // it); live mappings do not overlap, so only its own slot holds
            // the address.
            let pages = unpacked(slot.pages.load(Ordering::Acquire), page);
            if !pages.contains(&address) {
                continue;
            }
            // Marked first: another thread may read the zero pages without
            // a fault, and must then find the mark.
            slot.truncated.store(true, Ordering::Release);
            let (from, end) = (address & !(page - 1), pages.end);
            // SAFETY: `from..end` lies in this slot's mapping, which is live,
            // and whose pages past the file's end are gone anyway: zero
            // pages replace them where they stand (MAP_FIXED), and
            // unmapping the mapping later unmaps them with it.
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
                return;
            }
            // The fault repeats, into the action before this one.
            break;
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

    /// A temporary file holding `bytes` (removed when dropped), open.
    fn file_of(bytes: &[u8]) -> (tempfile::NamedTempFile, Arc<File>) {
        let mut temporary = tempfile::NamedTempFile::new().unwrap();
        temporary.write_all(bytes).unwrap();
        let file = Arc::new(File::open(temporary.path()).unwrap());
        (temporary, file)
    }

    #[test]
    fn a_file_truncated_under_its_mapping_reads_as_zeros_and_says_so() {
        let page = {
            handler::install().unwrap();
            handler::page_size()
        };
        let bytes: Vec<u8> = (0..4 * page).map(|at| b'a' + (at % 26) as u8).collect();
        let (temporary, file) = file_of(&bytes);
        let map = GuardedMap::map(&file, 0, bytes.len()).unwrap();
        assert_eq!(&map[..], &bytes[..]);
        assert!(!map.caught() && !map.cut_short(map.len()));
        // Cut in the middle of the second page: the rest of that page reads
        // as zeros (the kernel's doing, no fault), the pages after it fault.
        std::fs::OpenOptions::new().write(true).open(temporary.path()).unwrap().set_len(page as u64 + 10).unwrap();
        assert_eq!(&map[..page + 10], &bytes[..page + 10], "the bytes before the cut are the file's");
        assert!(map[page + 10..2 * page].iter().all(|&byte| byte == 0));
        assert!(!map.caught(), "no fault within the page where the file ends");
        assert!(map.cut_short(2 * page) && !map.cut_short(page + 10), "told by the file's length");
        assert!(map[2 * page..].iter().all(|&byte| byte == 0));
        assert!(map.caught(), "the fault past it caught");
    }

    #[test]
    fn a_mapping_at_an_offset_is_guarded_over_all_its_pages() {
        handler::install().unwrap();
        let page = handler::page_size();
        let bytes = vec![b'x'; 6 * page];
        let (temporary, file) = file_of(&bytes);
        // At an offset within a page, as windows start, over four pages.
        let map = GuardedMap::map(&file, 2 * page as u64 + 123, 3 * page).unwrap();
        assert!(map.iter().all(|&byte| byte == b'x'));
        std::fs::OpenOptions::new().write(true).open(temporary.path()).unwrap().set_len(0).unwrap();
        assert!(map.iter().all(|&byte| byte == 0));
        assert!(map.caught() && map.cut_short(1));
    }

    #[test]
    fn a_page_range_is_one_word() {
        let page = 4096;
        let word = packed(page * 7, page * 10, page).unwrap();
        assert_eq!(unpacked(word, page), page * 7..page * 10);
        assert_eq!(unpacked(FREE, page), 0..0);
        assert_eq!(unpacked(CLAIMED, page), 0..0, "page 0 is never a mapping's");
        assert!(packed(0, page, page).is_none());
        assert!(packed(page, page + (page << PAGE_COUNT_BITS), page).is_none(), "too many pages");
        // Where aarch64 maps, with a window of the longest line.
        let (start, end) = (0xffff_f000_0000, 0xffff_f000_0000 + crate::input::MAX_LINE + 2 * page);
        assert_eq!(unpacked(packed(start, end, page).unwrap(), page), start..end);
    }

    #[test]
    fn slots_are_released_when_mappings_are_dropped() {
        let (_temporary, file) = file_of(b"line\n");
        for _ in 0..4 * SLOTS {
            let map = GuardedMap::map(&file, 0, 5).unwrap();
            assert_eq!(&map[..], b"line\n");
            assert!(!map.cut_short(5));
        }
    }
}
