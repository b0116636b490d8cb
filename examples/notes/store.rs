//! The notes file: a JSON array of `{"id", "title", "body"}` (the format of the MCP guide's
//! Python notes server, so that both can share one file), changed only atomically and under a
//! lock, so that no crash, kill or second server loses a note already saved.

use std::fmt;
use std::fs::{self, File, OpenOptions};
use std::io::{self, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

/// One note.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Note {
    pub id: u64,
    pub title: String,
    pub body: String,
}

/// Why the notes could not be read or saved. Never "no notes": a file that cannot be read is an
/// error, so that no later write saves an empty list over the user's notes.
#[derive(Debug)]
pub enum StoreError {
    /// Reading, writing or locking failed.
    Io { path: PathBuf, error: io::Error },
    /// The file is not a JSON array of notes.
    Corrupt {
        path: PathBuf,
        error: serde_json::Error,
    },
    /// Another process held the lock for longer than a call waits.
    Busy { path: PathBuf, waited: Duration },
}

impl fmt::Display for StoreError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StoreError::Io { path, error } => {
                write!(f, "cannot use the notes file {}: {error}", path.display())
            }
            StoreError::Busy { path, waited } => write!(
                f,
                "the notes file {} is locked by another process (waited {} ms); try again",
                path.display(),
                waited.as_millis()
            ),
            StoreError::Corrupt { path, error } => write!(
                f,
                "the notes file {} is not a JSON array of notes ({error}); it was left as it is: \
                 fix or move it, and nothing will be written over it",
                path.display()
            ),
        }
    }
}

impl std::error::Error for StoreError {}

/// The notes file and its lock file beside it.
pub struct Store {
    path: PathBuf,
    lock_path: PathBuf,
    /// How long a call waits for another process's lock before it fails.
    lock_wait: Duration,
}

impl Store {
    /// The store at `path`; reads it once, so that a corrupt file is an error at start. A
    /// `path` that is a symbolic link stands for its target (followed to the end, the target
    /// need not exist yet): the lock and the writes are beside the target, so two servers, one
    /// given the link and one the target, share one lock.
    pub fn open(path: PathBuf, lock_wait: Duration) -> Result<Self, StoreError> {
        let path = resolve_links(path).map_err(|(path, error)| StoreError::Io { path, error })?;
        let mut lock_path = path.clone().into_os_string();
        lock_path.push(".lock");
        let store = Store {
            path,
            lock_path: PathBuf::from(lock_path),
            lock_wait,
        };
        store.list()?;
        Ok(store)
    }

    /// The file's path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Every note, in the order saved. On a file system this process cannot write to (a
    /// read-only mount), the notes are still read: no writer can be holding the lock there.
    pub fn list(&self) -> Result<Vec<Note>, StoreError> {
        let lock = match self.lock(false) {
            Ok(lock) => Some(lock),
            Err(StoreError::Io { error, .. }) if cannot_write(&error) => None,
            Err(error) => return Err(error),
        };
        let notes = self.read();
        drop(lock);
        notes
    }

    /// Saves a new note and returns it. Its id is one more than any id this file has had.
    pub fn add(&self, title: String, body: String) -> Result<Note, StoreError> {
        self.change(|notes, next_id| {
            let note = Note {
                id: next_id,
                title,
                body,
            };
            notes.push(note.clone());
            (note, true)
        })
    }

    /// The note with this id; `None` if there is none.
    pub fn get(&self, id: u64) -> Result<Option<Note>, StoreError> {
        Ok(self.list()?.into_iter().find(|note| note.id == id))
    }

    /// Adds `text` as a line at the end of the note with this id and returns the note; `None`
    /// if there is none.
    pub fn append(&self, id: u64, text: String) -> Result<Option<Note>, StoreError> {
        self.change(
            |notes, _| match notes.iter_mut().find(|note| note.id == id) {
                Some(note) => {
                    if !note.body.is_empty() {
                        note.body.push('\n');
                    }
                    note.body.push_str(&text);
                    (Some(note.clone()), true)
                }
                None => (None, false),
            },
        )
    }

    /// Deletes the note with this id; `None` if there is none.
    pub fn delete(&self, id: u64) -> Result<Option<Note>, StoreError> {
        self.change(
            |notes, _| match notes.iter().position(|note| note.id == id) {
                Some(at) => (Some(notes.remove(at)), true),
                None => (None, false),
            },
        )
    }

    /// Reads, changes and writes the notes under the exclusive lock, so that two servers on
    /// one file never lose each other's changes. The lock file holds the next id, so ids are
    /// never reused, even after the newest note is deleted.
    fn change<T>(
        &self,
        apply: impl FnOnce(&mut Vec<Note>, u64) -> (T, bool),
    ) -> Result<T, StoreError> {
        let mut lock = self.lock(true)?;
        let mut notes = self.read()?;
        let mut text = String::new();
        lock.read_to_string(&mut text)
            .map_err(|error| self.io_error(&self.lock_path, error))?;
        let highest = notes.iter().map(|note| note.id).max().unwrap_or(0);
        let next_id = text.trim().parse::<u64>().unwrap_or(0).max(highest + 1);
        let (value, changed) = apply(&mut notes, next_id);
        if changed {
            self.write(&notes)?;
            let used = notes.iter().any(|note| note.id == next_id);
            let next = if used { next_id + 1 } else { next_id };
            lock.set_len(0)
                .and_then(|()| lock.seek(SeekFrom::Start(0)))
                .and_then(|_| lock.write_all(next.to_string().as_bytes()))
                .and_then(|()| lock.sync_all())
                .map_err(|error| self.io_error(&self.lock_path, error))?;
        }
        drop(lock);
        Ok(value)
    }

    fn lock(&self, exclusive: bool) -> Result<File, StoreError> {
        if let Some(dir) = self.path.parent().filter(|dir| !dir.as_os_str().is_empty()) {
            fs::create_dir_all(dir).map_err(|error| self.io_error(dir, error))?;
        }
        let file = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(&self.lock_path)
            .map_err(|error| self.io_error(&self.lock_path, error))?;
        // Waited for in steps, never for longer than `lock_wait`: a process that holds the
        // lock and hangs costs the caller an error, not a call that never ends.
        let started = Instant::now();
        loop {
            let tried = if exclusive {
                file.try_lock()
            } else {
                file.try_lock_shared()
            };
            match tried {
                Ok(()) => return Ok(file),
                Err(fs::TryLockError::WouldBlock) if started.elapsed() < self.lock_wait => {
                    std::thread::sleep(Duration::from_millis(10));
                }
                Err(fs::TryLockError::WouldBlock) => {
                    return Err(StoreError::Busy {
                        path: self.path.clone(),
                        waited: started.elapsed(),
                    });
                }
                Err(fs::TryLockError::Error(error)) => {
                    return Err(self.io_error(&self.lock_path, error));
                }
            }
        }
    }

    fn read(&self) -> Result<Vec<Note>, StoreError> {
        let text = match fs::read_to_string(&self.path) {
            Ok(text) => text,
            Err(error) if error.kind() == io::ErrorKind::NotFound => return Ok(Vec::new()),
            Err(error) => return Err(self.io_error(&self.path, error)),
        };
        serde_json::from_str(&text).map_err(|error| StoreError::Corrupt {
            path: self.path.clone(),
            error,
        })
    }

    /// Writes a new file beside the old one, flushes it to disk, then renames it over the old
    /// one: a reader sees the old notes or the new ones, never half a file. A notes file that
    /// is a symbolic link is written through to its target (the link stays a link), and the
    /// new file gets the old one's permissions (a `0600` file stays private). Called under the
    /// exclusive lock, so temporary files of a writer that was killed are removed first.
    fn write(&self, notes: &[Note]) -> Result<(), StoreError> {
        // Links were followed when the store was opened; one made since is followed too.
        let target = resolve_links(self.path.clone())
            .map_err(|(path, error)| self.io_error(&path, error))?;
        let permissions = fs::metadata(&target).ok().map(|meta| meta.permissions());
        remove_stale_temporaries(&target);
        let mut temporary = target.clone().into_os_string();
        temporary.push(format!(".{}.tmp", std::process::id()));
        let temporary = PathBuf::from(temporary);
        let text = serde_json::to_string_pretty(notes).expect("notes serialize");
        let written = File::create(&temporary)
            .and_then(|mut file| {
                if let Some(permissions) = permissions {
                    file.set_permissions(permissions)?;
                }
                file.write_all(text.as_bytes())?;
                file.sync_all()
            })
            .and_then(|()| fs::rename(&temporary, &target));
        if let Err(error) = written {
            let _ = fs::remove_file(&temporary);
            return Err(self.io_error(&target, error));
        }
        // The rename itself reaches the disk with the directory.
        let dir = target.parent().filter(|dir| !dir.as_os_str().is_empty());
        if let Some(Ok(dir)) = dir.map(File::open) {
            let _ = dir.sync_all();
        }
        Ok(())
    }

    fn io_error(&self, path: &Path, error: io::Error) -> StoreError {
        StoreError::Io {
            path: path.to_owned(),
            error,
        }
    }
}

/// Whether an error says this process cannot write there (a read-only file system, or no
/// permission to create the lock file).
fn cannot_write(error: &io::Error) -> bool {
    matches!(
        error.kind(),
        io::ErrorKind::ReadOnlyFilesystem | io::ErrorKind::PermissionDenied
    )
}

/// Removes the temporary files (`notes.json.<pid>.tmp`) that a writer killed between writing
/// and renaming left beside `target`. Only the holder of the exclusive lock writes them.
fn remove_stale_temporaries(target: &Path) {
    let (Some(dir), Some(name)) = (target.parent(), target.file_name()) else {
        return;
    };
    let dir = if dir.as_os_str().is_empty() {
        Path::new(".")
    } else {
        dir
    };
    let prefix = format!("{}.", name.to_string_lossy());
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let file_name = entry.file_name();
        let file_name = file_name.to_string_lossy();
        let Some(middle) = file_name
            .strip_prefix(&prefix)
            .and_then(|rest| rest.strip_suffix(".tmp"))
        else {
            continue;
        };
        if !middle.is_empty() && middle.bytes().all(|b| b.is_ascii_digit()) {
            let _ = fs::remove_file(entry.path());
        }
    }
}

/// `path` with every symbolic link at its end followed (a relative link from the link's
/// folder), whether or not the final target exists yet; at most 40 links, as the system allows.
fn resolve_links(mut path: PathBuf) -> Result<PathBuf, (PathBuf, io::Error)> {
    for _ in 0..40 {
        match fs::symlink_metadata(&path) {
            Ok(meta) if meta.file_type().is_symlink() => {
                let target = fs::read_link(&path).map_err(|error| (path.clone(), error))?;
                path = match path.parent() {
                    Some(dir) if target.is_relative() => dir.join(target),
                    _ => target,
                };
            }
            _ => return Ok(path),
        }
    }
    Err((path, io::Error::other("too many levels of symbolic links")))
}
