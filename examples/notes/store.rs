//! The notes file: a JSON array of `{"id", "title", "body"}` (the format of the MCP guide's
//! Python notes server, so that both can share one file), changed only atomically and under a
//! lock, so that no crash, kill or second server loses a note already saved.

use std::fmt;
use std::fs::{self, File, OpenOptions};
use std::io::{self, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

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
}

impl fmt::Display for StoreError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StoreError::Io { path, error } => {
                write!(f, "cannot use the notes file {}: {error}", path.display())
            }
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
}

impl Store {
    /// The store at `path`; reads it once, so that a corrupt file is an error at start.
    pub fn open(path: PathBuf) -> Result<Self, StoreError> {
        let mut lock_path = path.clone().into_os_string();
        lock_path.push(".lock");
        let store = Store {
            path,
            lock_path: PathBuf::from(lock_path),
        };
        store.list()?;
        Ok(store)
    }

    /// The file's path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Every note, in the order saved.
    pub fn list(&self) -> Result<Vec<Note>, StoreError> {
        let lock = self.lock(false)?;
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
        let locked = if exclusive {
            file.lock()
        } else {
            file.lock_shared()
        };
        locked.map_err(|error| self.io_error(&self.lock_path, error))?;
        Ok(file)
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
    /// one: a reader sees the old notes or the new ones, never half a file.
    fn write(&self, notes: &[Note]) -> Result<(), StoreError> {
        let mut temporary = self.path.clone().into_os_string();
        temporary.push(format!(".{}.tmp", std::process::id()));
        let temporary = PathBuf::from(temporary);
        let text = serde_json::to_string_pretty(notes).expect("notes serialize");
        let written = File::create(&temporary)
            .and_then(|mut file| {
                file.write_all(text.as_bytes())?;
                file.sync_all()
            })
            .and_then(|()| fs::rename(&temporary, &self.path));
        if let Err(error) = written {
            let _ = fs::remove_file(&temporary);
            return Err(self.io_error(&self.path, error));
        }
        // The rename itself reaches the disk with the directory.
        let dir = self.path.parent().filter(|dir| !dir.as_os_str().is_empty());
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
