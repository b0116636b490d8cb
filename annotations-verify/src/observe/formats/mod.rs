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

/// The view of the regular file at `path`: `head` is its first bytes (at least 16, where it
/// has them) and `whole` its contents where they were read whole. `None` for a file judged by
/// its lines or bytes.
pub fn view(path: &std::path::Path, head: &[u8], whole: Option<&[u8]>) -> Option<(Format, Value)> {
    if head.starts_with(sqlite::MAGIC) {
        return sqlite::view(path).map(|view| (Format::Sqlite, view));
    }
    if head.starts_with(zip::MAGIC) {
        let bytes = match whole {
            Some(bytes) => bytes.to_vec(),
            None => read_bounded(path)?,
        };
        return zip::view(&bytes).map(|view| (Format::Zip, view));
    }
    let text = std::str::from_utf8(whole?).ok()?;
    if let Ok(value) = serde_json::from_str::<Value>(text) {
        return Some((Format::Json, value));
    }
    // JSON Lines: each line a JSON value, read as the array of them.
    let records: Option<Vec<Value>> = text
        .lines()
        .filter(|line| !line.trim().is_empty())
        .map(|line| serde_json::from_str(line).ok())
        .collect();
    match records {
        Some(records) if !records.is_empty() => Some((Format::JsonLines, Value::Array(records))),
        _ => None,
    }
}

/// The most bytes of a container read to view it.
const MAX_CONTAINER: u64 = 64 << 20;

fn read_bounded(path: &std::path::Path) -> Option<Vec<u8>> {
    use std::io::Read;
    let file = std::fs::File::open(path).ok()?;
    let mut bytes = Vec::new();
    file.take(MAX_CONTAINER + 1).read_to_end(&mut bytes).ok()?;
    (bytes.len() as u64 <= MAX_CONTAINER).then_some(bytes)
}
