//! `errcat watch`: a watcher of the `--data` dataset that lets cached runs
//! skip their stats (see `catalog_runtime::Watcher`), and its status.

use std::io;
use std::path::Path;

use crate::style::Out;
use crate::{NOT_FOUND, TROUBLE};

pub fn run(data: Option<&Path>, cache: Option<&Path>, status: bool, out: &mut Out) -> io::Result<u8> {
    let Some(dir) = data else {
        eprintln!("errcat: watch needs a dataset: errcat --data DIR watch (the embedded catalog is never checked)");
        return Ok(TROUBLE);
    };
    let Some(cache) = cache else {
        eprintln!(
            "errcat: watch serves cached runs, and there is no cache directory (--no-cache, or none of \
             ERRCAT_CACHE_DIR, XDG_CACHE_HOME and HOME is set)"
        );
        return Ok(TROUBLE);
    };
    serve_or_report(dir, cache, status, out)
}

#[cfg(target_os = "linux")]
fn serve_or_report(dir: &Path, cache: &Path, status: bool, out: &mut Out) -> io::Result<u8> {
    use error_catalog::Watcher;

    if status {
        return match Watcher::status(dir, cache) {
            Ok(status) => {
                out.line(&format!(
                    "watching {} (process {}): {}; {} seen; runs that skipped their stats: {}, that checked the \
                     files: {}",
                    dir.display(),
                    status.pid,
                    watched(status.directories, status.files),
                    counted(status.changes, "change", "changes"),
                    status.vouched,
                    status.checked
                ))?;
                out.flush()?;
                Ok(0)
            }
            Err(err) if err.kind() == io::ErrorKind::NotFound => {
                eprintln!("errcat: {err}");
                Ok(NOT_FOUND)
            }
            Err(err) => {
                eprintln!("errcat: cannot ask the watcher of {}: {err}", dir.display());
                Ok(TROUBLE)
            }
        };
    }
    let watcher = match Watcher::new(dir, cache) {
        Ok(watcher) => watcher,
        Err(err) => {
            eprintln!("errcat: cannot watch {}: {err}", dir.display());
            return Ok(TROUBLE);
        }
    };
    // The signals are taken by a thread of their own, which stops the
    // watcher: it then removes its socket.
    let stopper = watcher.stopper();
    let mut signals = signal_hook::iterator::Signals::new([signal_hook::consts::SIGINT, signal_hook::consts::SIGTERM])?;
    std::thread::spawn(move || {
        if signals.forever().next().is_some() {
            stopper.stop();
        }
    });
    let watched_dir = watcher.dir().to_owned();
    eprintln!(
        "errcat: watching {} ({}) for runs cached in {}; Ctrl-C stops",
        watched_dir.display(),
        watched(watcher.directories() as u64, watcher.files() as u64),
        cache.display()
    );
    match watcher.serve() {
        Ok(()) => {
            eprintln!("errcat: stopped watching {}", watched_dir.display());
            Ok(0)
        }
        Err(err) => {
            eprintln!("errcat: stopped watching: {err}; runs check every file again");
            Ok(TROUBLE)
        }
    }
}

/// What a watcher watches, in words.
#[cfg(target_os = "linux")]
fn watched(directories: u64, files: u64) -> String {
    format!("{}, {}", counted(directories, "directory", "directories"), counted(files, "file", "files"))
}

#[cfg(target_os = "linux")]
fn counted(count: u64, one: &str, many: &str) -> String {
    format!("{count} {}", if count == 1 { one } else { many })
}

#[cfg(not(target_os = "linux"))]
fn serve_or_report(dir: &Path, _cache: &Path, _status: bool, _out: &mut Out) -> io::Result<u8> {
    eprintln!("errcat: cannot watch {}: watch needs Linux's inotify", dir.display());
    Ok(TROUBLE)
}
