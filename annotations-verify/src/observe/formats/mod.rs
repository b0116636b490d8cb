//! What a file holds, by its format, chosen by its contents (not its name): a SQLite
//! database as its tables and rows, a zip container (an office document) member by member, a
//! JSON or JSON Lines file as its values. Each is a JSON value, the file's *view*, which the
//! probe compares instead of the file's bytes: a format that rewrites itself on every write
//! (pages moved, a zip recompressed, a counter in a header) changes its bytes where it changed
//! nothing it holds. Other files are judged by their lines or their bytes, as before.

pub mod git;
pub mod sqlite;
pub mod zip;

use serde_json::Value;

/// A file's format, as its view was read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// A SQLite database: `{"tables": {NAME: {"columns": [...], "rows": {KEY: {COLUMN: VALUE}}}},
    /// "sequences": {...}}`.
    Sqlite,
    /// A zip container (an office document): `{"members": {NAME: VIEW}}`.
    Zip,
    /// One JSON value.
    Json,
    /// JSON Lines: the array of its records.
    JsonLines,
    /// What a user's `--observe` command printed.
    Observed,
}

impl Format {
    /// The format's name, in reports.
    pub fn word(self) -> &'static str {
        match self {
            Format::Sqlite => "SQLite database",
            Format::Zip => "zip container",
            Format::Json => "JSON",
            Format::JsonLines => "JSON Lines",
            Format::Observed => "observed JSON",
        }
    }
}

/// What a file's format made of it.
#[derive(Clone, Debug, PartialEq)]
pub enum Viewed {
    /// What it holds, by its format.
    View(Format, Value),
    /// A format the observer reads, which it refuses to read here (larger, deeper or more
    /// numerous than it reads, a log that is a link), and why: the file is not judged.
    Refused(String),
    /// No format the observer reads: the file is judged by its lines or its bytes.
    Plain,
}

/// The view of the regular file at `path`: `head` is its first bytes (at least 16, where it
/// has them) and `whole` its contents where they were read whole.
pub fn view(path: &std::path::Path, head: &[u8], whole: Option<&[u8]>) -> Viewed {
    let seen = |format: Format, view: Result<Option<Value>, String>| match view {
        Ok(Some(view)) => Viewed::View(format, view),
        Ok(None) => Viewed::Plain,
        Err(why) => Viewed::Refused(why),
    };
    if head.starts_with(sqlite::MAGIC) {
        return seen(Format::Sqlite, sqlite::view(path));
    }
    if head.starts_with(zip::MAGIC) {
        let bytes = match whole {
            Some(bytes) => bytes.to_vec(),
            None => match read_bounded(path) {
                Ok(Some(bytes)) => bytes,
                Ok(None) => return Viewed::Plain,
                Err(why) => return Viewed::Refused(why),
            },
        };
        return seen(Format::Zip, zip::view(&bytes));
    }
    let Some(text) = whole.and_then(|whole| std::str::from_utf8(whole).ok()) else {
        return Viewed::Plain;
    };
    if let Ok(value) = serde_json::from_str::<Value>(text) {
        return Viewed::View(Format::Json, value);
    }
    // JSON Lines: each line a JSON value, read as the array of them.
    let records: Option<Vec<Value>> = text
        .lines()
        .filter(|line| !line.trim().is_empty())
        .map(|line| serde_json::from_str(line).ok())
        .collect();
    match records {
        Some(records) if !records.is_empty() => {
            Viewed::View(Format::JsonLines, Value::Array(records))
        }
        _ => Viewed::Plain,
    }
}

/// `path` opened for reading if it is a regular file when opened: a link is not followed and
/// a FIFO does not wait for a writer (the path may have been replaced since it was looked at),
/// and what was opened is checked again by its descriptor.
pub(crate) fn open_regular(path: &std::path::Path) -> Option<std::fs::File> {
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK);
    }
    let file = options.open(path).ok()?;
    file.metadata().ok()?.is_file().then_some(file)
}

/// The most bytes of a container read to view it.
const MAX_CONTAINER: u64 = 64 << 20;

/// The bytes of the container at `path`: `Ok(None)` where it cannot be opened as a regular
/// file, `Err` where it is larger than [`MAX_CONTAINER`].
fn read_bounded(path: &std::path::Path) -> Result<Option<Vec<u8>>, String> {
    use std::io::Read;
    let Some(file) = open_regular(path) else {
        return Ok(None);
    };
    let mut bytes = Vec::new();
    if file
        .take(MAX_CONTAINER + 1)
        .read_to_end(&mut bytes)
        .is_err()
    {
        return Ok(None);
    }
    if bytes.len() as u64 > MAX_CONTAINER {
        return Err(format!(
            "a zip container of more than {} MiB, more than the observer reads",
            MAX_CONTAINER >> 20
        ));
    }
    Ok(Some(bytes))
}
