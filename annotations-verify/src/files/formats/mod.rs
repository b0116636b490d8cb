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

/// A JSON pointer's segment, escaped.
pub fn escape(segment: &str) -> String {
    segment.replace('~', "~0").replace('/', "~1")
}

/// Where `was` lost something in `is` by the additive rule: an object key removed, a value
/// overwritten (a `null` filled is not), or an array no longer containing every item (items matched as
/// `mcp_annotations_verify::contains` does). The pointer of the first loss, from `at`.
pub fn lost_at(was: &Value, is: &Value, at: &str) -> Option<String> {
    match (was, is) {
        (Value::Object(was), Value::Object(is)) => was.iter().find_map(|(key, old)| {
            let here = format!("{at}/{}", escape(key));
            match is.get(key) {
                None => Some(format!("{here} was removed")),
                Some(new) => lost_at(old, new, &here),
            }
        }),
        (Value::Array(_), Value::Array(_)) => (!crate::contains(was, is))
            .then(|| format!("{} lost an item or had one overwritten", shown(at))),
        _ if was == is => None,
        // An empty value filled (a NULL column set, a `null` given a value) loses nothing.
        (Value::Null, _) => None,
        _ => Some(format!("{} was overwritten", shown(at))),
    }
}

fn shown(at: &str) -> &str {
    if at.is_empty() { "the whole value" } else { at }
}

/// One place at which two views differ.
pub struct Difference {
    /// `-` removed, `+` added, `~` changed.
    pub sign: char,
    /// Where, as a JSON pointer (empty: the whole value).
    pub pointer: String,
    /// An array that changed length: its lengths before and after.
    pub lengths: Option<(usize, usize)>,
}

impl Difference {
    /// Where it is, in words: the pointer (or "the whole value") and any change of length.
    pub fn place(&self) -> String {
        match self.lengths {
            Some((was, is)) => format!("{} ({was} -> {is} items)", shown(&self.pointer)),
            None => shown(&self.pointer).to_owned(),
        }
    }
}

impl std::fmt::Display for Difference {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} {}", self.sign, self.place())
    }
}

/// The places at which `was` and `is` differ, at most `limit`: an object compared key by
/// key, an array item by item where both have as many, anything else as a whole.
pub fn differences(was: &Value, is: &Value, at: &str, out: &mut Vec<Difference>, limit: usize) {
    if out.len() >= limit || was == is {
        return;
    }
    match (was, is) {
        (Value::Object(old), Value::Object(new)) => {
            for (key, value) in old {
                let here = format!("{at}/{}", escape(key));
                match new.get(key) {
                    None => out.push(Difference {
                        sign: '-',
                        pointer: here,
                        lengths: None,
                    }),
                    Some(other) => differences(value, other, &here, out, limit),
                }
                if out.len() >= limit {
                    return;
                }
            }
            for key in new.keys().filter(|key| !old.contains_key(*key)) {
                if out.len() >= limit {
                    return;
                }
                out.push(Difference {
                    sign: '+',
                    pointer: format!("{at}/{}", escape(key)),
                    lengths: None,
                });
            }
        }
        (Value::Array(old), Value::Array(new)) if old.len() == new.len() => {
            for (index, (value, other)) in old.iter().zip(new).enumerate() {
                differences(value, other, &format!("{at}/{index}"), out, limit);
            }
        }
        (Value::Array(old), Value::Array(new)) => out.push(Difference {
            sign: '~',
            pointer: at.to_owned(),
            lengths: Some((old.len(), new.len())),
        }),
        _ => out.push(Difference {
            sign: '~',
            pointer: at.to_owned(),
            lengths: None,
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_loss_is_named_by_its_pointer() {
        let was = json!({"tables": {"t": {"rows": {"1": {"v": "a"}}}}});
        let grown = json!({"tables": {"t": {"rows": {"1": {"v": "a"}, "2": {"v": "b"}}}}});
        let updated = json!({"tables": {"t": {"rows": {"1": {"v": "z"}}}}});
        let deleted = json!({"tables": {"t": {"rows": {}}}});
        assert_eq!(lost_at(&was, &grown, ""), None);
        let empty = json!({"rows": {"1": {"done_at": null}}});
        let filled = json!({"rows": {"1": {"done_at": 5}}});
        assert_eq!(lost_at(&empty, &filled, ""), None);
        assert!(lost_at(&filled, &empty, "").is_some());
        assert_eq!(
            lost_at(&was, &updated, "").as_deref(),
            Some("/tables/t/rows/1/v was overwritten")
        );
        assert_eq!(
            lost_at(&was, &deleted, "").as_deref(),
            Some("/tables/t/rows/1 was removed")
        );
        let mut out = Vec::new();
        differences(&was, &grown, "", &mut out, 10);
        let out: Vec<String> = out.iter().map(ToString::to_string).collect();
        assert_eq!(out, ["+ /tables/t/rows/2"]);
    }
}
