//! What `--follow` is given: files, directories (every file under them)
//! and globs, each listed again whenever the follower looks for files that
//! appeared or went away.

use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use crate::input;

/// One `--follow` argument.
pub enum Pattern {
    /// A file, followed under its name (and waited for while missing).
    File(PathBuf),
    /// Every file under a directory, at any depth.
    Dir(PathBuf),
    /// The files a glob matches; `base` is the directory it starts in (the
    /// part before its first wildcard), for file-system events.
    Glob { pattern: String, base: PathBuf },
}

pub struct Found {
    pub path: PathBuf,
    pub metadata: fs::Metadata,
}

impl Pattern {
    /// The pattern of an argument: a glob when it has a wildcard and no
    /// file has that very name, a directory, else a file.
    pub fn of(argument: &Path) -> Result<Pattern, String> {
        let text = argument.to_string_lossy();
        let wild = text.contains(['*', '?', '[']);
        if wild && fs::symlink_metadata(argument).is_err() {
            if let Err(err) = glob::Pattern::new(&text) {
                return Err(format!("{text}: not a glob: {err}"));
            }
            let literal: PathBuf = argument
                .components()
                .take_while(|part| !part.as_os_str().to_string_lossy().contains(['*', '?', '[']))
                .collect();
            let base = if literal.as_os_str().is_empty() { PathBuf::from(".") } else { literal };
            return Ok(Pattern::Glob { pattern: text.into_owned(), base });
        }
        if fs::metadata(argument).is_ok_and(|metadata| metadata.is_dir()) {
            return Ok(Pattern::Dir(argument.to_owned()));
        }
        if skipped(argument) {
            return Err(format!("{text}: a compressed file cannot be followed; scan it without --follow"));
        }
        Ok(Pattern::File(argument.to_owned()))
    }

    pub fn label(&self) -> String {
        match self {
            Pattern::File(path) | Pattern::Dir(path) => path.display().to_string(),
            Pattern::Glob { pattern, .. } => pattern.clone(),
        }
    }

    /// The directory whose events say this pattern may have changed, and
    /// whether its subdirectories' events do too.
    pub fn watched(&self) -> (PathBuf, bool) {
        match self {
            Pattern::File(path) => {
                let parent = path.parent().filter(|parent| !parent.as_os_str().is_empty());
                (parent.map_or_else(|| PathBuf::from("."), Path::to_owned), false)
            }
            Pattern::Dir(dir) => (dir.clone(), true),
            Pattern::Glob { base, .. } => (base.clone(), true),
        }
    }

    /// The files the pattern names now, passed to `found`; a problem with
    /// the pattern itself (a file or directory missing) is returned.
    pub fn list(&self, found: &mut dyn FnMut(Found)) -> Result<(), String> {
        match self {
            Pattern::File(path) => match fs::metadata(path) {
                Ok(metadata) if metadata.is_file() => {
                    found(Found { path: path.clone(), metadata });
                    Ok(())
                }
                Ok(_) => Err("not a regular file".to_owned()),
                Err(err) => Err(why_missing(&err)),
            },
            Pattern::Dir(dir) => {
                if let Err(err) = fs::metadata(dir) {
                    return Err(why_missing(&err));
                }
                // Entries that vanish while the walk goes are simply not found.
                for entry in walkdir::WalkDir::new(dir).sort_by_file_name().into_iter().filter_map(Result::ok) {
                    if !entry.file_type().is_dir() {
                        offer(entry.into_path(), found);
                    }
                }
                Ok(())
            }
            Pattern::Glob { pattern, .. } => {
                let paths = glob::glob(pattern).map_err(|err| err.to_string())?;
                for path in paths.filter_map(Result::ok) {
                    offer(path, found);
                }
                Ok(())
            }
        }
    }
}

/// Why a file or directory named is not there.
fn why_missing(err: &io::Error) -> String {
    if err.kind() == io::ErrorKind::NotFound {
        return "not found".to_owned();
    }
    input::io_message(err)
}

/// Passes `path` to `found` when it is a regular file (a link is followed)
/// that is not skipped.
fn offer(path: PathBuf, found: &mut dyn FnMut(Found)) {
    if skipped(&path) {
        return;
    }
    match fs::metadata(&path) {
        Ok(metadata) if metadata.is_file() => found(Found { path, metadata }),
        // Not a file, or gone (or unreachable) since it was listed.
        Ok(_) | Err(_) => {}
    }
}

/// Whether a file is left out of directories and globs: compressed
/// rotations (read before they were compressed) and the temporary files
/// compressors write them to (kubelet's `.gz.tmp`).
pub fn skipped(path: &Path) -> bool {
    const COMPRESSED: [&str; 7] = ["gz", "tmp", "zst", "xz", "bz2", "lz4", "zip"];
    path.extension().and_then(|extension| extension.to_str()).is_some_and(|extension| COMPRESSED.contains(&extension))
}
