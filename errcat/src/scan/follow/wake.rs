//! When the follower looks again: on a file-system event (inotify and its
//! kin, through `notify`), or every [`POLL`] when events are not to be had
//! (`--poll`, a file system without them, a watch limit reached).

use std::path::PathBuf;
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, TryRecvError};
use std::time::Duration;

use notify::{EventKind, RecursiveMode, Watcher};

/// How often files are read again when polling.
pub const POLL: Duration = Duration::from_millis(100);
/// How long the follower waits for an event before it reads the files
/// again anyway: the last pieces of a container line wait this long at
/// most past their own wait, and a file whose events were lost (the queue
/// overflowed) is read this late.
const EVENT_WAIT: Duration = Duration::from_secs(1);

pub enum Waker {
    Poll,
    Events { _watcher: notify::RecommendedWatcher, events: Receiver<notify::Result<notify::Event>> },
}

impl Waker {
    /// Events for `watched` (directories, recursive or not), or polling
    /// when asked or when they cannot be had (said on stderr).
    pub fn new(poll: bool, watched: &[(PathBuf, bool)]) -> Waker {
        if poll {
            return Waker::Poll;
        }
        match watch(watched) {
            Ok(waker) => waker,
            Err(why) => {
                eprintln!("errcat: no file-system events ({why}); polling every {} ms", POLL.as_millis());
                Waker::Poll
            }
        }
    }

    pub fn polls(&self) -> bool {
        matches!(self, Waker::Poll)
    }

    /// Waits for something to read (`block`; else only takes the events
    /// that came): an event, or the poll interval. Whether files or
    /// directories may have appeared, gone or been renamed: the inputs are
    /// to be listed again.
    pub fn wait(&mut self, block: bool) -> bool {
        match self {
            Waker::Poll => {
                if block {
                    std::thread::sleep(POLL);
                }
                false
            }
            Waker::Events { events, .. } => {
                let next = if block {
                    events.recv_timeout(EVENT_WAIT)
                } else {
                    events.try_recv().map_err(|err| match err {
                        TryRecvError::Empty => RecvTimeoutError::Timeout,
                        TryRecvError::Disconnected => RecvTimeoutError::Disconnected,
                    })
                };
                let first = match next {
                    Ok(event) => event,
                    Err(RecvTimeoutError::Timeout) => return false,
                    Err(RecvTimeoutError::Disconnected) => {
                        // The watcher is gone: poll.
                        if block {
                            std::thread::sleep(POLL);
                        }
                        return true;
                    }
                };
                let mut listing_changed = changes_listing(&first);
                for event in events.try_iter() {
                    listing_changed |= changes_listing(&event);
                }
                listing_changed
            }
        }
    }
}

fn watch(watched: &[(PathBuf, bool)]) -> Result<Waker, String> {
    let (sender, events) = mpsc::channel();
    let mut watcher = notify::recommended_watcher(move |event| {
        let _ = sender.send(event);
    })
    .map_err(|err| err.to_string())?;
    for (dir, recursive) in watched {
        let mode = if *recursive { RecursiveMode::Recursive } else { RecursiveMode::NonRecursive };
        watcher.watch(dir, mode).map_err(|err| format!("{}: {err}", dir.display()))?;
    }
    Ok(Waker::Events { _watcher: watcher, events })
}

/// Whether an event may have added, removed or renamed a file (an error,
/// such as a lost event, may have hidden one).
fn changes_listing(event: &notify::Result<notify::Event>) -> bool {
    match event {
        Ok(event) => {
            !matches!(event.kind, EventKind::Access(_) | EventKind::Modify(notify::event::ModifyKind::Data(_)))
        }
        Err(_) => true,
    }
}
