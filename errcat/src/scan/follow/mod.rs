//! `errcat scan --follow`: keep reading log files as they grow, like
//! `tail -F`, through renames, truncation and rotation, until Ctrl-C or
//! SIGTERM. A file is known by its device and inode, not its name; at most
//! [`Options::max_open`] files are open at once. [`Follower`] is a source of
//! lines and nothing more: the scan consumes it (see `scan::live`). The
//! rules are in `docs/agent.md` ("What is followed").

mod inputs;
mod state;
mod wake;

use std::collections::{BTreeMap, HashMap, VecDeque};
use std::fs::{self, File};
use std::io::{self, BufRead, BufReader, Seek, SeekFrom};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use error_catalog::Envelope;

use self::inputs::{Found, Pattern};
use self::state::Saved;
use self::wake::Waker;
pub use self::wake::POLL as INTERVAL;
use crate::input::{self, Chunk, Input, CHUNK};
use crate::metrics::Problem;
use crate::origin::Origin;

/// How often the inputs are listed again when polling (with events, in
/// case one was lost).
pub const LIST_EVERY_POLLING: Duration = Duration::from_millis(500);
const LIST_EVERY_WITH_EVENTS: Duration = Duration::from_secs(10);
const LOOK_EVERY: Duration = Duration::from_millis(50);
pub const SAVE_EVERY: Duration = Duration::from_secs(1);

/// A file followed, as the items name it.
pub type FileId = u64;

/// What a live source yields.
pub enum Item {
    /// Found by argument number `input`.
    Opened {
        file: FileId,
        input: usize,
        label: String,
        origin: Origin,
    },
    Lines {
        file: FileId,
        chunk: Chunk,
        envelope: Envelope,
    },
    /// Lines longer than [`MAX_LINE`](crate::input::MAX_LINE), skipped.
    TooLong {
        file: FileId,
        lines: Vec<u64>,
    },
    /// Read to its end and followed no more.
    Closed {
        file: FileId,
    },
    Problem {
        problem: Problem,
        message: String,
    },
    /// Everything there is to read now has been read: the moment to flush.
    CaughtUp,
}

/// How files are followed (the `scan --follow` options of the same names).
pub struct Options {
    pub from_start: bool,
    /// `None`: each file's own, detected.
    pub envelope: Option<Envelope>,
    pub poll: bool,
    pub state: Option<PathBuf>,
    pub max_open: usize,
}

/// An iterator of [`Item`]s that blocks while nothing is written. Each
/// round reads a chunk at most per file. Once `stop` is set, one more round
/// reads what was written before, and the iteration ends.
pub struct Follower {
    patterns: Vec<Argument>,
    files: BTreeMap<FileId, Tracked>,
    by_identity: HashMap<Identity, FileId>,
    next_id: FileId,
    options: Options,
    /// `None` when there was no state file.
    saved: Option<HashMap<Identity, state::Position>>,
    waker: Waker,
    /// Listings made (a file not found by the latest is gone).
    listings: u64,
    listed_at: Instant,
    saved_at: Instant,
    looked_at: Instant,
    open: usize,
    /// Rounds started, to tell which file was read least recently.
    rounds: u64,
    stop: Arc<AtomicBool>,
    queued: VecDeque<Item>,
    /// The files of this round, and the one being read.
    round: Vec<FileId>,
    cursor: usize,
    /// Whether this round looks at closed files (after a listing or an event).
    check_closed: bool,
    read_any: bool,
    /// This round started after `stop` was set: it is the last.
    stopping: bool,
    caught_up: bool,
}

impl Follower {
    /// The files there are now are read from their ends (or starts, or where
    /// `--state` says), files that appear later from their starts. An
    /// argument that cannot be followed yields a problem and is left out; an
    /// unreadable `--state` file is an error.
    pub fn new(arguments: &[PathBuf], options: Options, stop: Arc<AtomicBool>) -> Result<Follower, String> {
        let saved = match &options.state {
            Some(path) => state::load(path)?,
            None => None,
        };
        let mut options = options;
        options.max_open = open_files_budget(options.max_open);
        let mut queued = VecDeque::new();
        let patterns: Vec<Argument> = arguments
            .iter()
            .map(|argument| {
                let pattern = Pattern::of(argument)
                    .map_err(|message| queued.push_back(Item::Problem { problem: Problem::NotFollowable, message }))
                    .ok();
                Argument { pattern, problem: None, listed: 0 }
            })
            .collect();
        let watched: Vec<(PathBuf, bool)> =
            patterns.iter().filter_map(|argument| argument.pattern.as_ref()).map(Pattern::watched).collect();
        let waker = Waker::new(options.poll, &watched);
        let mut follower = Follower {
            patterns,
            files: BTreeMap::new(),
            by_identity: HashMap::new(),
            next_id: 0,
            options,
            saved,
            waker,
            listings: 0,
            listed_at: Instant::now(),
            saved_at: Instant::now(),
            looked_at: Instant::now(),
            open: 0,
            rounds: 0,
            stop,
            queued,
            round: Vec::new(),
            cursor: 0,
            check_closed: false,
            read_any: false,
            stopping: false,
            caught_up: true,
        };
        follower.list(true);
        Ok(follower)
    }

    /// Lists the inputs (`all`, else only the files named as such, which
    /// takes a `stat` each): files not followed yet are opened, files
    /// followed under another name are renamed, files no longer found are
    /// gone.
    fn list(&mut self, all: bool) {
        let first = self.listings == 0;
        self.listings += 1;
        if all {
            self.listed_at = Instant::now();
        }
        for input in 0..self.patterns.len() {
            let argument = &mut self.patterns[input];
            let Some(pattern) = &argument.pattern else { continue };
            if !all && !matches!(pattern, Pattern::File(_)) {
                continue;
            }
            let mut found = Vec::new();
            let listed = pattern.list(&mut |file| found.push(file));
            // A file missing from its name may be written to still (renamed,
            // not replaced yet): it is gone once another file has its name.
            if listed.is_ok() || !matches!(pattern, Pattern::File(_)) {
                argument.listed = self.listings;
            }
            match listed {
                Err(why) if argument.problem.as_deref() != Some(why.as_str()) => {
                    eprintln!("errcat: {}: {why}; following it when it appears", pattern.label());
                    argument.problem = Some(why);
                }
                Err(_) => {}
                Ok(()) => argument.problem = None,
            }
            for file in found {
                self.found(input, file, first);
            }
        }
        for tracked in self.files.values_mut() {
            let listed = self.patterns[tracked.input].listed == self.listings;
            if listed && tracked.listed != self.listings && !tracked.gone {
                tracked.gone = true;
                if let Some(current) = &mut tracked.current {
                    // What was written before it went, an unfinished last
                    // line included, is read before it is closed.
                    current.input.hold_unfinished_line = false;
                }
            }
        }
    }

    /// A file found by input number `input` at a listing (the first one
    /// when `first`).
    fn found(&mut self, input: usize, found: Found, first: bool) {
        let identity = Identity::of(&found.metadata);
        if let Some(id) = self.by_identity.get(&identity) {
            // Followed already, maybe under another name (or found by
            // another argument too: it is that argument's from now on).
            let tracked = self.files.get_mut(id).expect("every identity is of a file followed");
            (tracked.listed, tracked.input, tracked.path) = (self.listings, input, found.path);
            return;
        }
        let length = found.metadata.len();
        let position = match self.saved.as_ref().map(|saved| saved.get(&identity)) {
            Some(Some(saved)) if saved.offset <= length => Position::At(*saved),
            // New since the state was saved, or truncated since: all of it.
            Some(_) => Position::Start,
            None if first && !self.options.from_start => Position::End,
            None => Position::Start,
        };
        let id = self.next_id;
        self.next_id += 1;
        let label = found.path.display().to_string();
        if let (false, Some(Pattern::File(_))) = (first, &self.patterns[input].pattern) {
            let replaces = self.files.values().any(|tracked| tracked.input == input);
            let what = if replaces { "replaced by a new file" } else { "appeared" };
            eprintln!("errcat: {label}: {what}; reading it from its start");
        }
        let origin = Origin::of(&found.path);
        let mut tracked = Tracked {
            input,
            path: found.path,
            label: label.clone(),
            identity,
            current: None,
            position: state::Position { offset: 0, line: 1 },
            envelope: self.options.envelope.clone(),
            gone: false,
            unreadable: false,
            listed: self.listings,
            last_read: self.rounds,
            idle: false,
        };
        self.make_room(None);
        match open(&tracked.path, position, tracked.envelope.as_ref()) {
            Ok(current) if current.identity == identity => {
                eprintln!("errcat: following {label} from line {}", current.next_line);
                tracked.current = Some(current);
                self.open += 1;
            }
            // Replaced between the listing and the opening: the next listing finds the new one.
            Ok(_) => return,
            Err(err) if err.kind() == io::ErrorKind::NotFound => return,
            Err(err) => {
                let message = format!("{label}: cannot open: {}", input::io_message(&err));
                self.queued.push_back(Item::Problem { problem: Problem::Unreadable, message });
                tracked.unreadable = true;
            }
        }
        self.queued.push_back(Item::Opened { file: id, input, label, origin });
        self.by_identity.insert(identity, id);
        self.files.insert(id, tracked);
    }

    /// Closes the file read least recently while [`Options::max_open`]
    /// are open (not `keep`, nor a gone file: it could not be reopened).
    fn make_room(&mut self, keep: Option<FileId>) {
        while self.open >= self.options.max_open.max(1) {
            let least_recent = self
                .files
                .iter()
                .filter(|(id, tracked)| Some(**id) != keep && tracked.current.is_some() && !tracked.gone)
                .min_by_key(|(_, tracked)| (!tracked.idle, tracked.last_read))
                .map(|(id, _)| *id);
            let Some(id) = least_recent else { return };
            self.files.get_mut(&id).expect("listed").close();
            self.open -= 1;
        }
    }

    fn save_state(&mut self) {
        let Some(path) = &self.options.state else { return };
        self.saved_at = Instant::now();
        let entries = self.files.values().filter(|tracked| !tracked.unreadable).map(|tracked| Saved {
            path: tracked.path.display().to_string(),
            identity: tracked.identity,
            position: tracked.position(),
        });
        if let Err(err) = state::save(path, entries) {
            let message = format!("--state {}: cannot write: {}", path.display(), input::io_message(&err));
            self.queued.push_back(Item::Problem { problem: Problem::StateUnwritable, message });
        }
    }

    /// Waits for something to read when the last round read nothing.
    fn start_round(&mut self) {
        let listing_changed = self.waker.wait(!self.read_any);
        self.rounds += 1;
        // What was written before the signal is still read, once.
        self.stopping = self.stop.load(Ordering::Relaxed);
        let list = self.listing_due(listing_changed);
        self.list(list);
        self.check_closed = list || !self.waker.polls();
        self.save_state_if_due();
        self.round = self.files.keys().copied().collect();
        (self.cursor, self.read_any, self.caught_up) = (0, false, false);
        self.looked_at = Instant::now();
    }

    /// In a long round (many files with much to read), every
    /// [`LOOK_EVERY`]: lists the inputs if events say names changed, so
    /// that a file that comes and goes while the others are read is found
    /// (and opened: it is then read to its end even if removed).
    fn look_between_reads(&mut self) {
        if self.looked_at.elapsed() < LOOK_EVERY {
            return;
        }
        self.looked_at = Instant::now();
        let listing_changed = self.waker.wait(false);
        if self.listing_due(listing_changed) {
            self.list(true);
        }
        self.save_state_if_due();
    }

    /// Whether all the inputs are to be listed: names changed, or it is time.
    fn listing_due(&self, listing_changed: bool) -> bool {
        let every = if self.waker.polls() { LIST_EVERY_POLLING } else { LIST_EVERY_WITH_EVENTS };
        listing_changed || self.listed_at.elapsed() >= every
    }

    fn save_state_if_due(&mut self) {
        if self.saved_at.elapsed() >= SAVE_EVERY {
            self.save_state();
        }
    }

    /// Reads the next chunk of what file `id` has gained; when it has
    /// nothing more, closes it if it is gone, or looks for a truncation.
    fn step(&mut self, id: FileId) -> Step {
        let (stop, rounds) = (self.stopping, self.rounds);
        let Some(tracked) = self.files.get_mut(&id) else { return Step::Done };
        if tracked.unreadable {
            return self.forget_if_gone(id);
        }
        if let (true, Some(current)) = (stop, &mut tracked.current) {
            // Pieces of a line wait no more: the rest of it will not be read.
            current.input.piece_wait = Duration::ZERO;
        }
        if tracked.current.is_none() {
            if tracked.gone {
                return self.forget_if_gone(id);
            }
            // A closed file that was read to its end is looked at only
            // when something may have changed.
            let look = self.check_closed || !tracked.idle;
            // Grown, or truncated, since it was read to its end.
            if !look || tracked.length_now().is_none_or(|length| length == tracked.position.offset) {
                return Step::Done;
            }
            self.make_room(Some(id));
            let tracked = self.files.get_mut(&id).expect("listed");
            if !tracked.reopen() {
                return Step::Done;
            }
            self.open += 1;
        }
        let tracked = self.files.get_mut(&id).expect("listed");
        if let Some(item) = tracked.read(id, &mut self.queued) {
            (tracked.idle, tracked.last_read) = (false, rounds);
            return Step::Read(item);
        }
        if tracked.current.is_none() {
            // A read error, queued: the file is followed no more.
            self.open -= 1;
            tracked.unreadable = true;
            return Step::Again;
        }
        tracked.idle = true;
        if tracked.gone {
            self.open -= 1;
            return self.forget_if_gone(id);
        }
        if tracked.length_now().is_some_and(|length| length < tracked.position().offset) {
            eprintln!("errcat: {}: truncated; reading it from its start", tracked.label);
            tracked.close();
            // A file written again from its start: its envelope too is chosen again.
            (tracked.position, tracked.envelope) =
                (state::Position { offset: 0, line: 1 }, self.options.envelope.clone());
            if !tracked.reopen() {
                self.open -= 1;
            }
            return Step::Again;
        }
        Step::Done
    }

    fn forget_if_gone(&mut self, id: FileId) -> Step {
        if !self.files.get(&id).is_some_and(|tracked| tracked.gone) {
            return Step::Done;
        }
        let tracked = self.files.remove(&id).expect("listed");
        self.by_identity.remove(&tracked.identity);
        self.queued.push_back(Item::Closed { file: id });
        Step::Again
    }
}

impl Iterator for Follower {
    type Item = Item;

    fn next(&mut self) -> Option<Item> {
        loop {
            if let Some(item) = self.queued.pop_front() {
                return Some(item);
            }
            if self.cursor == self.round.len() {
                if !self.caught_up {
                    self.caught_up = true;
                    return Some(Item::CaughtUp);
                }
                if self.stopping {
                    self.save_state();
                    if let Some(item) = self.queued.pop_front() {
                        return Some(item);
                    }
                    return None;
                }
                self.start_round();
                continue;
            }
            self.look_between_reads();
            if !self.queued.is_empty() {
                continue;
            }
            match self.step(self.round[self.cursor]) {
                // A chunk per file per round: a file written faster than it
                // is read holds back neither the others nor the listings
                // that find new files.
                Step::Read(item) => {
                    (self.read_any, self.cursor) = (true, self.cursor + 1);
                    return Some(item);
                }
                Step::Again => continue,
                Step::Done => self.cursor += 1,
            }
        }
    }
}

struct Argument {
    /// `None`: refused.
    pattern: Option<Pattern>,
    /// A problem listing it, told once until it changes.
    problem: Option<String>,
    /// The listing that last listed it.
    listed: u64,
}

enum Step {
    Read(Item),
    /// Something changed (items may be queued): step again.
    Again,
    /// Nothing more to read from this file in this round.
    Done,
}

struct Tracked {
    /// The argument that found it.
    input: usize,
    /// Its latest name.
    path: PathBuf,
    /// Its name when it was found, as the output names it.
    label: String,
    identity: Identity,
    current: Option<Current>,
    /// Where it was read to, when it is not open.
    position: state::Position,
    envelope: Option<Envelope>,
    /// No input names it any more: read to its end, it is closed.
    gone: bool,
    unreadable: bool,
    /// The listing that last found it.
    listed: u64,
    /// The round it was last read in.
    last_read: u64,
    /// Its last read found nothing new: closed, it is looked at only when
    /// something may have changed (a listing, an event).
    idle: bool,
}

impl Tracked {
    fn position(&self) -> state::Position {
        match &self.current {
            Some(current) => current.position(),
            None => self.position,
        }
    }

    fn close(&mut self) {
        if let Some(current) = self.current.take() {
            if current.input.envelope_chosen() {
                self.envelope = Some(current.input.envelope().clone());
            }
            self.position = current.position();
        }
    }

    /// The length of the file at its path, when that file is still it.
    fn length_now(&self) -> Option<u64> {
        let metadata = fs::metadata(&self.path).ok()?;
        (Identity::of(&metadata) == self.identity).then_some(metadata.len())
    }

    /// Opens the file again where it was read to (from its start if it is
    /// shorter now): whether it is open.
    fn reopen(&mut self) -> bool {
        match open(&self.path, Position::At(self.position), self.envelope.as_ref()) {
            Ok(current) if current.identity == self.identity => {
                self.current = Some(current);
                true
            }
            _ => false,
        }
    }

    /// The next chunk of whole lines the open file has gained (or the lines
    /// skipped as too long), if any; a read error is queued and closes it.
    fn read(&mut self, file: FileId, queued: &mut VecDeque<Item>) -> Option<Item> {
        let current = self.current.as_mut()?;
        match current.input.next_chunk(&mut current.unfinished, &mut current.next_line, CHUNK) {
            Ok((chunk, skipped)) => {
                if let Some(chunk) = chunk {
                    let envelope = current.input.envelope().clone();
                    if !skipped.is_empty() {
                        queued.push_back(Item::Lines { file, chunk, envelope });
                        return Some(Item::TooLong { file, lines: skipped });
                    }
                    return Some(Item::Lines { file, chunk, envelope });
                }
                (!skipped.is_empty()).then_some(Item::TooLong { file, lines: skipped })
            }
            Err(err) => {
                let message = format!("{}: {}", self.label, input::io_message(&err));
                self.current = None;
                queued.push_back(Item::Problem { problem: Problem::ReadError, message });
                None
            }
        }
    }
}

/// A followed file while it is open.
struct Current {
    input: Input,
    identity: Identity,
    /// The offset in the file where reading started.
    start: u64,
    /// The start of a line whose end is still to come.
    unfinished: Vec<u8>,
    next_line: u64,
}

impl Current {
    /// Where the lines passed on end (what is held back is read again).
    fn position(&self) -> state::Position {
        let offset = self.start + self.input.bytes_read - self.unfinished.len() as u64;
        state::Position { offset, line: self.next_line }
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Position {
    Start,
    /// After its last whole line.
    End,
    /// At a position read before (from the start if the file is shorter).
    At(state::Position),
}

/// Opens `path` for following from `position`, its lines in `envelope`,
/// or (`None`) in the one its first whole lines read are in.
fn open(path: &Path, position: Position, envelope: Option<&Envelope>) -> io::Result<Current> {
    let mut file = File::open(path)?;
    let metadata = file.metadata()?;
    let identity = Identity::of(&metadata);
    let (start, next_line) = match position {
        Position::At(at) if at.offset <= metadata.len() => {
            file.seek(SeekFrom::Start(at.offset))?;
            (at.offset, at.line)
        }
        Position::Start | Position::At(_) => (0, 1),
        Position::End => {
            let (end, lines) = end_of_last_line(&mut file)?;
            file.seek(SeekFrom::Start(end))?;
            (end, lines + 1)
        }
    };
    let mut input = input::followed(path.display().to_string(), file);
    input.choose_envelope_when_read(envelope);
    Ok(Current { input, identity, start, unfinished: Vec::new(), next_line })
}

/// The offset just after the last line break of `file`, and the number of
/// lines before it. An unfinished last line is read when it is finished.
fn end_of_last_line(file: &mut File) -> io::Result<(u64, u64)> {
    let mut reader = BufReader::with_capacity(CHUNK, file);
    let (mut offset, mut end, mut lines) = (0u64, 0u64, 0u64);
    loop {
        let buffer = reader.fill_buf()?;
        if buffer.is_empty() {
            return Ok((end, lines));
        }
        lines += memchr::memchr_iter(b'\n', buffer).count() as u64;
        if let Some(last) = memchr::memrchr(b'\n', buffer) {
            end = offset + last as u64 + 1;
        }
        let length = buffer.len();
        offset += length as u64;
        reader.consume(length);
    }
}

/// Descriptors kept for errcat's own use beside the files followed (the
/// standard streams, the metrics server's sockets, inotify, the state file).
const OWN_DESCRIPTORS: u64 = 64;

/// The most files to keep open: `asked`, within the process's limit on
/// descriptors, which is raised towards its hard limit if need be (service
/// managers often set a soft limit of 1,024).
#[cfg(unix)]
fn open_files_budget(asked: usize) -> usize {
    use rustix::process::{getrlimit, setrlimit, Resource, Rlimit};
    let wanted = asked as u64 + OWN_DESCRIPTORS;
    let mut limit = getrlimit(Resource::Nofile);
    if limit.current.is_some_and(|current| current < wanted) {
        let raised = limit.maximum.map_or(wanted, |maximum| maximum.min(wanted));
        if setrlimit(Resource::Nofile, Rlimit { current: Some(raised), maximum: limit.maximum }).is_ok() {
            limit.current = Some(raised);
        }
    }
    let allowed = limit.current.map_or(asked, |current| current.saturating_sub(OWN_DESCRIPTORS).max(1) as usize);
    if allowed < asked {
        eprintln!("errcat: at most {allowed} files open at once (the limit on descriptors is {wanted} short)");
    }
    asked.min(allowed)
}

#[cfg(not(unix))]
fn open_files_budget(asked: usize) -> usize {
    asked
}

/// What tells a file apart from another at the same path.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Identity {
    pub device: u64,
    pub inode: u64,
}

impl Identity {
    #[cfg(unix)]
    fn of(metadata: &fs::Metadata) -> Identity {
        use std::os::unix::fs::MetadataExt;
        Identity { device: metadata.dev(), inode: metadata.ino() }
    }

    /// Without inodes, a file is told apart by its creation time.
    #[cfg(not(unix))]
    fn of(metadata: &fs::Metadata) -> Identity {
        let created = metadata.created().ok().and_then(|time| time.duration_since(std::time::UNIX_EPOCH).ok());
        Identity { device: 0, inode: created.map_or(0, |time| time.as_nanos() as u64) }
    }
}

#[cfg(all(test, unix))]
mod tests {
    use std::io::Write;

    use super::*;

    fn append(path: &Path, text: &str) {
        fs::OpenOptions::new().create(true).append(true).open(path).unwrap().write_all(text.as_bytes()).unwrap();
    }

    fn polling(from_start: bool, max_open: usize) -> Options {
        Options { from_start, envelope: None, poll: true, state: None, max_open }
    }

    /// The chunks of one round, as (argument, first line, text), the
    /// arguments of files opened before told by `inputs`.
    fn round(follower: &mut Follower, inputs: &mut HashMap<FileId, usize>) -> Vec<(usize, u64, String)> {
        let mut lines = Vec::new();
        for item in follower.by_ref() {
            match item {
                Item::Opened { file, input, .. } => {
                    inputs.insert(file, input);
                }
                Item::Lines { file, chunk, .. } => {
                    lines.push((inputs[&file], chunk.first_line, String::from_utf8(chunk.data.to_vec()).unwrap()))
                }
                Item::Closed { file } => assert!(inputs.remove(&file).is_some()),
                Item::CaughtUp => return lines,
                Item::TooLong { .. } | Item::Problem { .. } => panic!("an unexpected item"),
            }
        }
        lines
    }

    #[test]
    fn yields_the_lines_written_through_a_rotation_and_a_truncation() {
        let dir = tempfile::tempdir().unwrap();
        let (log, other) = (dir.path().join("a.log"), dir.path().join("b.log"));
        append(&log, "old 1\nold 2\nunfinished");
        let stop = Arc::new(AtomicBool::new(false));
        let mut follower = Follower::new(&[log.clone(), other.clone()], polling(false, 8), Arc::clone(&stop)).unwrap();
        let inputs = &mut HashMap::new();
        assert_eq!(round(&mut follower, inputs), []);
        append(&log, " line\nnew\n");
        assert_eq!(round(&mut follower, inputs), [(0, 3, "unfinished line\nnew\n".to_owned())]);

        // Renamed, the last line of the old file unfinished; a new file.
        fs::rename(&log, dir.path().join("a.log.1")).unwrap();
        append(&dir.path().join("a.log.1"), "last of old");
        append(&log, "first of new\n");
        append(&other, "b\n");
        let mut lines = round(&mut follower, inputs);
        lines.extend(round(&mut follower, inputs));
        assert_eq!(
            lines,
            [(0, 5, "last of old".to_owned()), (0, 1, "first of new\n".to_owned()), (1, 1, "b\n".to_owned())]
        );

        // Truncated in place and written again.
        fs::OpenOptions::new().write(true).open(&log).unwrap().set_len(0).unwrap();
        assert_eq!(round(&mut follower, inputs), []);
        append(&log, "again\n");
        assert_eq!(round(&mut follower, inputs), [(0, 1, "again\n".to_owned())]);

        // Stopped: what was written before is read, then the iteration ends.
        append(&log, "before the stop\n");
        stop.store(true, Ordering::Relaxed);
        assert_eq!(round(&mut follower, inputs), [(0, 2, "before the stop\n".to_owned())]);
        assert!(follower.next().is_none());
    }

    #[test]
    fn a_directory_is_followed_through_renames_within_it_with_few_files_open() {
        let dir = tempfile::tempdir().unwrap();
        let logs: Vec<PathBuf> = (0..5).map(|n| dir.path().join(format!("c{n}/0.log"))).collect();
        for log in &logs {
            fs::create_dir_all(log.parent().unwrap()).unwrap();
            append(log, "before\n");
        }
        let stop = Arc::new(AtomicBool::new(false));
        let mut follower = Follower::new(&[dir.path().to_owned()], polling(true, 2), Arc::clone(&stop)).unwrap();
        let inputs = &mut HashMap::new();
        let mut read = round(&mut follower, inputs);
        assert_eq!(read.len(), 5);
        assert!(follower.open <= 2);
        for log in &logs {
            append(log, "more\n");
            // Renamed within the directory: read on, not again.
            let rotated = log.with_extension("log.20261203-152400");
            fs::rename(log, &rotated).unwrap();
            append(&rotated, "after the rename\n");
            // Its compressed copy is skipped.
            fs::write(log.with_extension("log.20261203-152400.gz"), b"\x1f\x8b").unwrap();
        }
        let deadline = Instant::now() + Duration::from_secs(10);
        while read.len() < 10 && Instant::now() < deadline {
            read.extend(round(&mut follower, inputs));
        }
        let texts: Vec<&str> = read[5..].iter().map(|(_, _, text)| text.as_str()).collect();
        assert_eq!(texts, ["more\nafter the rename\n"; 5]);
        assert!(read[5..].iter().all(|(input, line, _)| (*input, *line) == (0, 2)));
        assert!(follower.open <= 2);
    }

    #[test]
    fn arguments_that_cannot_be_followed_are_problems_and_left_out() {
        let dir = tempfile::tempdir().unwrap();
        let paths = [dir.path().join("x.log.gz")];
        let stop = Arc::new(AtomicBool::new(true));
        let problems: Vec<(Problem, String)> = Follower::new(&paths, polling(false, 8), stop)
            .unwrap()
            .filter_map(|item| match item {
                Item::Problem { problem, message } => Some((problem, message)),
                _ => None,
            })
            .collect();
        assert_eq!(problems.len(), 1);
        assert_eq!(problems[0].0, Problem::NotFollowable);
        assert!(problems[0].1.ends_with("x.log.gz: a compressed file cannot be followed; scan it without --follow"));
    }
}
