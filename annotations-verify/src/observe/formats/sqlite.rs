//! A SQLite database as the probe sees it: its schema and its rows, not its pages. SQLite
//! rewrites pages in place, keeps a change counter in its header and moves rows between pages
//! as it pleases, so two files with the same rows may share few bytes; what a tool did to the
//! database is what it did to the rows.
//!
//! The view is a JSON object:
//!
//! ```text
//! {"tables": {"items": {"schema": "CREATE TABLE items (...)", "columns": ["id", "name"],
//!                       "rows": {"1": {"id": 1, "name": "a"}, ...}}},
//!  "indexes": {"items_name": "CREATE INDEX ..."}, "views": {...}, "triggers": {...},
//!  "sequences": {"items": 3}}
//! ```
//!
//! A row is keyed by its primary key (its value, or a JSON array of the values of a composite
//! key), or by its rowid where the table declares none, so that an `INSERT` adds a key and an
//! `UPDATE` overwrites one, which is what the additive rule judges. `sqlite_sequence` (the
//! counters of `AUTOINCREMENT`) is kept apart as `sequences`: a counter that grew lost nothing.
//!
//! The database is read from a private copy (with its write-ahead log, if any), so the probe
//! never takes a lock on the server's file nor leaves a `-shm` beside it.

use std::path::Path;

use rusqlite::types::ValueRef;
use rusqlite::{Connection, OpenFlags};
use serde_json::{Map, Value};

/// The first bytes of every SQLite 3 database.
pub const MAGIC: &[u8] = b"SQLite format 3\0";

/// The most rows read of one database: a larger one is refused (not judged), not read whole.
const MAX_ROWS: usize = 200_000;

/// The most bytes of a database and its write-ahead log copied to read them: a larger one (a
/// sparse file of a terabyte that starts like a database) is refused, not copied.
pub const MAX_DATABASE: u64 = 64 << 20;

/// The longest text or blob kept whole in the view; a longer one is kept as its length and a
/// hash.
const MAX_CELL: usize = 4096;

/// The view of the SQLite database at `path`: `Ok(None)` if it cannot be read as one (then it
/// is judged by its bytes), `Err` with why where the observer refuses to read it (larger than
/// [`MAX_DATABASE`] with its log, more rows than it reads, a log that is not a regular file):
/// then it is not judged.
///
/// # Errors
///
/// Why the database was refused.
pub fn view(path: &Path) -> Result<Option<Value>, String> {
    let copy = Copy::of(path)?;
    let Ok(connection) = Connection::open_with_flags(&copy.db, OpenFlags::SQLITE_OPEN_READ_WRITE)
    else {
        return Ok(None);
    };
    let mut budget = MAX_ROWS;
    match read(&connection, &mut budget) {
        None if budget == 0 => Err(format!(
            "a SQLite database of more than {MAX_ROWS} rows, more than the observer reads"
        )),
        read => Ok(read),
    }
}

/// A database and its write-ahead log copied into a folder of their own, removed when dropped.
struct Copy {
    dir: std::path::PathBuf,
    db: std::path::PathBuf,
}

impl Copy {
    /// The copy of the database at `path` and its log: each copied only from a regular file
    /// (a link is not followed, a FIFO not waited on), within [`MAX_DATABASE`] bytes together.
    fn of(path: &Path) -> Result<Copy, String> {
        use std::sync::atomic::{AtomicU64, Ordering};
        static NEXT: AtomicU64 = AtomicU64::new(0);
        let dir = std::env::temp_dir().join(format!(
            "annotations-audit-sqlite-{}-{}",
            std::process::id(),
            NEXT.fetch_add(1, Ordering::Relaxed)
        ));
        std::fs::create_dir_all(&dir)
            .map_err(|error| format!("the database could not be copied to read it: {error}"))?;
        let copy = Copy {
            db: dir.join("db"),
            dir,
        };
        let mut left = MAX_DATABASE;
        copy_regular(path, &copy.db, &mut left)?.ok_or("the database is not a regular file")?;
        let mut wal = path.as_os_str().to_owned();
        wal.push("-wal");
        let wal = std::path::PathBuf::from(wal);
        if std::fs::symlink_metadata(&wal).is_ok() {
            copy_regular(&wal, &copy.dir.join("db-wal"), &mut left)?
                .ok_or("its write-ahead log (-wal) is not a regular file")?;
        }
        Ok(copy)
    }
}

/// Copies the regular file at `from` to `to`, within `left` bytes (taken from it): `Ok(None)`
/// where `from` is not a regular file when opened (a link, a FIFO, a device), `Err` where it
/// is larger than what is left.
fn copy_regular(from: &Path, to: &Path, left: &mut u64) -> Result<Option<()>, String> {
    use std::io::Read;
    let Some(file) = super::open_regular(from) else {
        return Ok(None);
    };
    let Ok(meta) = file.metadata() else {
        return Ok(None);
    };
    let too_large = || {
        format!(
            "a SQLite database of {} bytes with its log, more than the {} MiB the observer copies",
            meta.len(),
            MAX_DATABASE >> 20
        )
    };
    if meta.len() > *left {
        return Err(too_large());
    }
    let mut out = std::fs::File::create(to)
        .map_err(|error| format!("the database could not be copied to read it: {error}"))?;
    let copied = std::io::copy(&mut file.take(*left + 1), &mut out)
        .map_err(|error| format!("the database could not be copied to read it: {error}"))?;
    *left = left.checked_sub(copied).ok_or_else(too_large)?;
    Ok(Some(()))
}

impl Drop for Copy {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

fn read(connection: &Connection, budget: &mut usize) -> Option<Value> {
    let mut objects = connection
        .prepare("SELECT type, name, sql FROM sqlite_master ORDER BY type, name")
        .ok()?;
    let rows: Vec<(String, String, Option<String>)> = objects
        .query_map([], |row| Ok((row.get(0)?, row.get(1)?, row.get(2)?)))
        .ok()?
        .collect::<Result<_, _>>()
        .ok()?;
    let mut view = Map::new();
    for section in ["tables", "indexes", "views", "triggers", "sequences"] {
        view.insert(section.to_owned(), Value::Object(Map::new()));
    }
    // The tables a virtual table keeps its rows in (an FTS index's `_data`, `_idx`, ...): read
    // through the virtual table instead, since they are rewritten as the index sees fit.
    let shadows: Vec<String> = connection
        .prepare("SELECT name FROM pragma_table_list WHERE type = 'shadow'")
        .and_then(|mut statement| {
            statement
                .query_map([], |row| row.get(0))?
                .collect::<Result<Vec<String>, _>>()
        })
        .unwrap_or_default();
    for (kind, name, sql) in rows {
        if shadows.contains(&name) {
            continue;
        }
        let sql = Value::from(sql.unwrap_or_default());
        let section = match kind.as_str() {
            "index" => "indexes",
            "view" => "views",
            "trigger" => "triggers",
            "table" if name == "sqlite_sequence" => {
                view["sequences"] = sequences(connection)?;
                continue;
            }
            // SQLite's own statistics (ANALYZE) say nothing a tool did.
            "table" if name.starts_with("sqlite_") => continue,
            "table" => {
                let (columns, rows) = if is_virtual(&sql) {
                    // A virtual table is read by what it answers, where it answers (its
                    // module may be one this build does not have).
                    table_rows(connection, &name, budget).unwrap_or((Vec::new(), Value::Null))
                } else {
                    table_rows(connection, &name, budget)?
                };
                let table = serde_json::json!({"schema": sql, "columns": columns, "rows": rows});
                insert(&mut view, "tables", name, table);
                continue;
            }
            _ => continue,
        };
        insert(&mut view, section, name, sql);
    }
    Some(Value::Object(view))
}

fn insert(view: &mut Map<String, Value>, section: &str, name: String, value: Value) {
    if let Some(Value::Object(section)) = view.get_mut(section) {
        section.insert(name, value);
    }
}

fn is_virtual(sql: &Value) -> bool {
    sql.as_str().is_some_and(|sql| {
        sql.trim_start()
            .to_ascii_uppercase()
            .starts_with("CREATE VIRTUAL")
    })
}

fn quote(identifier: &str) -> String {
    format!("\"{}\"", identifier.replace('"', "\"\""))
}

/// The counters `AUTOINCREMENT` keeps, by table.
fn sequences(connection: &Connection) -> Option<Value> {
    let mut statement = connection
        .prepare("SELECT name, seq FROM sqlite_sequence")
        .ok()?;
    let pairs: Vec<(String, i64)> = statement
        .query_map([], |row| Ok((row.get(0)?, row.get(1)?)))
        .ok()?
        .collect::<Result<_, _>>()
        .ok()?;
    Some(Value::Object(
        pairs
            .into_iter()
            .map(|(name, seq)| (name, Value::from(seq)))
            .collect(),
    ))
}

/// A table's columns, and its rows keyed by primary key (or rowid), each an object of its
/// columns.
fn table_rows(
    connection: &Connection,
    table: &str,
    budget: &mut usize,
) -> Option<(Vec<String>, Value)> {
    let mut info = connection
        .prepare(&format!("PRAGMA table_info({})", quote(table)))
        .ok()?;
    // (name, position in the primary key, 0 if none)
    let columns: Vec<(String, i64)> = info
        .query_map([], |row| Ok((row.get(1)?, row.get(5)?)))
        .ok()?
        .collect::<Result<_, _>>()
        .ok()?;
    let mut key: Vec<(i64, usize)> = columns
        .iter()
        .enumerate()
        .filter(|(_, (_, pk))| *pk > 0)
        .map(|(at, (_, pk))| (*pk, at))
        .collect();
    key.sort_unstable();
    let key: Vec<usize> = key.into_iter().map(|(_, at)| at).collect();
    let names: Vec<String> = columns.iter().map(|(name, _)| quote(name)).collect();
    // Without a declared key, the rowid (a table WITHOUT ROWID always declares one).
    let select = if key.is_empty() {
        format!("SELECT rowid, {} FROM {}", names.join(", "), quote(table))
    } else {
        format!("SELECT {} FROM {}", names.join(", "), quote(table))
    };
    let offset = usize::from(key.is_empty());
    let mut statement = connection.prepare(&select).ok()?;
    let mut cursor = statement.query([]).ok()?;
    let mut rows = Map::new();
    while let Some(row) = cursor.next().ok()? {
        *budget = budget.checked_sub(1)?;
        let mut record = Map::new();
        for (at, (name, _)) in columns.iter().enumerate() {
            record.insert(name.clone(), cell(row.get_ref(at + offset).ok()?));
        }
        let id = if key.is_empty() {
            row.get::<_, i64>(0).ok()?.to_string()
        } else if let [only] = key[..] {
            scalar_key(&record[&columns[only].0])
        } else {
            Value::Array(
                key.iter()
                    .map(|&at| record[&columns[at].0].clone())
                    .collect(),
            )
            .to_string()
        };
        rows.insert(id, Value::Object(record));
    }
    let columns = columns.into_iter().map(|(name, _)| name).collect();
    Some((columns, Value::Object(rows)))
}

/// A one-column key as the row's name: a text as itself, anything else as its JSON.
fn scalar_key(value: &Value) -> String {
    match value {
        Value::String(text) => text.clone(),
        other => other.to_string(),
    }
}

/// A cell as JSON: integers and reals as numbers, text as a string, a blob as
/// `{"blob": hex}`, a long text or blob as its length and hash.
fn cell(value: ValueRef<'_>) -> Value {
    use std::hash::{DefaultHasher, Hash, Hasher};
    let long = |bytes: &[u8], kind: &str| {
        let mut hasher = DefaultHasher::new();
        bytes.hash(&mut hasher);
        serde_json::json!({kind: {"length": bytes.len(), "hash": format!("{:016x}", hasher.finish())}})
    };
    match value {
        ValueRef::Null => Value::Null,
        ValueRef::Integer(number) => Value::from(number),
        ValueRef::Real(number) => serde_json::Number::from_f64(number)
            .map_or_else(|| Value::from(number.to_string()), Value::Number),
        ValueRef::Text(bytes) if bytes.len() > MAX_CELL => long(bytes, "text"),
        ValueRef::Text(bytes) => Value::from(String::from_utf8_lossy(bytes).into_owned()),
        ValueRef::Blob(bytes) if bytes.len() > MAX_CELL / 2 => long(bytes, "blob"),
        ValueRef::Blob(bytes) => {
            let hex: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
            serde_json::json!({"blob": hex})
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> std::path::PathBuf {
        let dir = std::env::temp_dir().join(format!("audit-sqlite-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn rows_are_keyed_by_their_primary_key_and_counters_kept_apart() {
        let dir = scratch("keys");
        let path = dir.join("state.db");
        let db = Connection::open(&path).unwrap();
        db.execute_batch(
            "CREATE TABLE items (id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT, data BLOB);
             CREATE TABLE pairs (a TEXT, b INTEGER, note TEXT, PRIMARY KEY (a, b)) WITHOUT ROWID;
             CREATE TABLE log (line TEXT);
             CREATE INDEX items_name ON items(name);
             INSERT INTO items (name, data) VALUES ('x', x'00ff'), ('y', NULL);
             INSERT INTO pairs VALUES ('k', 2, 'n');
             INSERT INTO log VALUES ('started');",
        )
        .unwrap();
        let view = view(&path).unwrap().unwrap();
        assert_eq!(
            view["tables"]["items"]["rows"]["1"],
            serde_json::json!({"id": 1, "name": "x", "data": {"blob": "00ff"}})
        );
        assert_eq!(view["tables"]["items"]["rows"]["2"]["data"], Value::Null);
        assert_eq!(
            view["tables"]["pairs"]["rows"]["[\"k\",2]"]["note"],
            Value::from("n")
        );
        // No key declared: the rowid.
        assert_eq!(
            view["tables"]["log"]["rows"]["1"]["line"],
            Value::from("started")
        );
        assert_eq!(view["sequences"]["items"], Value::from(2));
        assert!(
            view["indexes"]["items_name"]
                .as_str()
                .unwrap()
                .contains("CREATE INDEX")
        );
        assert!(view["tables"].get("sqlite_sequence").is_none());
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// A database in WAL mode whose last writes sit in its log, not yet in the main file: the
    /// view holds them, and reading it leaves no file beside the server's.
    #[test]
    fn rows_still_in_the_write_ahead_log_are_seen_and_nothing_is_left_beside_it() {
        let dir = scratch("wal");
        let path = dir.join("state.db");
        let db = Connection::open(&path).unwrap();
        db.execute_batch(
            "PRAGMA journal_mode=WAL; PRAGMA wal_autocheckpoint=0;
             CREATE TABLE t (k TEXT PRIMARY KEY, v TEXT);
             INSERT INTO t VALUES ('a', 'in the log');",
        )
        .unwrap();
        let listed = |dir: &Path| -> Vec<String> {
            let mut names: Vec<String> = std::fs::read_dir(dir)
                .unwrap()
                .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
                .collect();
            names.sort();
            names
        };
        let before = listed(&dir);
        let view = view(&path).unwrap().unwrap();
        assert_eq!(
            view["tables"]["t"]["rows"]["a"]["v"],
            Value::from("in the log")
        );
        assert_eq!(listed(&dir), before);
        drop(db);
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// A full-text index rewrites its own storage on every insert: the view holds the
    /// indexed rows, not that storage, so an insert only adds.
    #[test]
    fn a_full_text_index_is_read_by_its_rows_not_its_storage() {
        let dir = scratch("fts");
        let path = dir.join("state.db");
        let db = Connection::open(&path).unwrap();
        db.execute_batch(
            "CREATE VIRTUAL TABLE notes USING fts5(body);
             INSERT INTO notes VALUES ('first');",
        )
        .unwrap();
        let before = view(&path).unwrap().unwrap();
        db.execute_batch("INSERT INTO notes VALUES ('second');")
            .unwrap();
        let after = view(&path).unwrap().unwrap();
        assert!(before["tables"].get("notes_data").is_none(), "{before}");
        assert_eq!(before["tables"]["notes"]["rows"]["1"]["body"], "first");
        assert_eq!(crate::compare::lost_at(&before, &after, ""), None);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_file_that_is_not_a_database_has_no_view() {
        let dir = scratch("bad");
        let path = dir.join("x.db");
        std::fs::write(&path, b"SQLite format 3\0 but nothing after").unwrap();
        assert!(view(&path).unwrap().is_none());
        let _ = std::fs::remove_dir_all(&dir);
    }
}
