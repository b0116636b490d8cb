//! `Verify::observe_files`: an author's tools that keep their state in a SQLite file, judged by
//! what the database holds, by the probe's rules. An honest `INSERT` declared non-destructive
//! is verified though SQLite rewrote its pages in place; a "read-only" lookup that stamps a
//! `last_seen` column and a "non-destructive" rename are caught, each by the place it changed;
//! the stamp classed volatile is no longer judged.

use std::path::PathBuf;
use std::sync::atomic::{AtomicU32, Ordering};

use mcp_annotations::{Listing, tool, tools};
use mcp_annotations_verify::{Verify, ViolationKind};

/// A store of items in a SQLite file of its own.
pub struct Items {
    dir: PathBuf,
}

impl Items {
    fn db(&self) -> Result<rusqlite::Connection, String> {
        rusqlite::Connection::open(self.dir.join("items.db")).map_err(|error| error.to_string())
    }

    /// Add an item, keeping every other.
    #[tool(destructive = false, open_world = false)]
    fn add_item(&self, #[schema(max_length = 12)] name: String) -> Result<(), String> {
        self.db()?
            .execute("INSERT INTO items (name) VALUES (?1)", [&name])
            .map(drop)
            .map_err(|error| error.to_string())
    }

    /// How many items there are.
    #[tool(read_only, open_world = false)]
    fn count_items(&self) -> Result<String, String> {
        let count: i64 = self
            .db()?
            .query_row("SELECT count(*) FROM items", [], |row| row.get(0))
            .map_err(|error| error.to_string())?;
        Ok(count.to_string())
    }

    /// Look the first item up ("read-only", and it stamps when it was last seen).
    #[tool(read_only, open_world = false)]
    fn look_up(&self) -> Result<String, String> {
        let db = self.db()?;
        db.execute(
            "UPDATE items SET last_seen = last_seen + 1 WHERE id = 1",
            [],
        )
        .map_err(|error| error.to_string())?;
        db.query_row("SELECT name FROM items WHERE id = 1", [], |row| row.get(0))
            .map_err(|error| error.to_string())
    }

    /// Rename the first item ("non-destructive", and it overwrites the name).
    #[tool(destructive = false, idempotent, open_world = false)]
    fn rename_first(&self, #[schema(max_length = 12)] name: String) -> Result<(), String> {
        self.db()?
            .execute("UPDATE items SET name = ?1 WHERE id = 1", [&name])
            .map(drop)
            .map_err(|error| error.to_string())
    }
}

static HONEST: Listing<Items> = tools![Items::add_item, Items::count_items];
static LIARS: Listing<Items> = tools![Items::look_up, Items::rename_first];

/// The folders one test's cases made.
#[derive(Default)]
struct Cases(std::sync::Mutex<Vec<std::path::PathBuf>>);

/// A fresh database with one item, in a folder of its own for each case: numbered across the
/// process, since the tests run side by side and must never share (or remove) one.
fn fresh(cases: &Cases) -> Items {
    static NEXT: AtomicU32 = AtomicU32::new(0);
    let n = NEXT.fetch_add(1, Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("verify-files-{}-{n}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    cases.0.lock().unwrap().push(dir.clone());
    let items = Items { dir };
    items
        .db()
        .unwrap()
        .execute_batch(
            "CREATE TABLE items (id INTEGER PRIMARY KEY, name TEXT, last_seen INTEGER DEFAULT 0);
             INSERT INTO items (name) VALUES ('first');",
        )
        .unwrap();
    items
}

fn clean(cases: Cases) {
    for dir in cases.0.into_inner().unwrap() {
        let _ = std::fs::remove_dir_all(dir);
    }
}

#[test]
fn an_insert_is_additive_by_its_rows_though_its_pages_were_rewritten() {
    let cases = Cases::default();
    let report = Verify::new(&HONEST, || fresh(&cases))
        .observe_files(|items| items.dir.clone())
        .cases(12)
        .seed(3)
        .run();
    clean(cases);
    report.assert_ok();
    assert!(report.calls("add_item").unwrap().1 > 0, "{report}");
}

#[test]
fn a_stamp_and_an_overwrite_are_caught_by_the_place_they_changed() {
    let cases = Cases::default();
    let report = Verify::new(&LIARS, || fresh(&cases))
        .observe_files(|items| items.dir.join("items.db"))
        .cases(12)
        .seed(3)
        .run();
    let mut found: Vec<(&str, ViolationKind)> = report
        .violations()
        .iter()
        .map(|violation| (violation.tool(), violation.kind()))
        .collect();
    found.sort_by_key(|(tool, _)| *tool);
    assert_eq!(
        found,
        [
            ("look_up", ViolationKind::ReadOnly),
            ("rename_first", ViolationKind::Additive),
        ],
        "{report}"
    );
    let text = report.to_string();
    assert!(
        text.contains("items.db#/tables/items/rows/1/last_seen"),
        "{text}"
    );
    assert!(
        text.contains("items.db#/tables/items/rows/1/name"),
        "{text}"
    );

    // The stamp classed volatile: the lookup changes nothing else, and is verified.
    let report = Verify::new(&LIARS, || fresh(&cases))
        .observe_files(|items| items.dir.join("items.db"))
        .volatile("items.db#/tables/items/rows/*/last_seen")
        .cases(12)
        .seed(3)
        .run();
    let tools: Vec<&str> = report.violations().iter().map(|v| v.tool()).collect();
    assert_eq!(tools, ["rename_first"], "{report}");

    // A place that is not one is a problem of the run, not a silent no-op.
    let report = Verify::new(&LIARS, || fresh(&cases))
        .observe_files(|items| items.dir.clone())
        .volatile("/etc/passwd")
        .cases(1)
        .run();
    clean(cases);
    assert!(!report.is_ok());
    assert!(
        report.problems()[0].contains("a place is a path inside"),
        "{report}"
    );
}

#[test]
fn a_path_no_observation_finds_is_a_problem_not_a_pass() {
    let cases = Cases::default();
    let report = Verify::new(&LIARS, || fresh(&cases))
        .observe_files(|items| items.dir.join("itmes.db"))
        .cases(2)
        .run();
    clean(cases);
    assert!(!report.is_ok(), "{report}");
    assert!(
        report
            .problems()
            .iter()
            .any(|p| p.contains("is the path right?")),
        "{report}"
    );
}

/// A store that grows a file the observer refuses to read (a sparse one of 256 MiB that starts
/// like SQLite): the run is not ok and says which file was not read, rather than passing a
/// claim over a file nobody judged.
pub struct Huge(PathBuf);

impl Huge {
    /// Grow the store's file ("read-only").
    #[tool(read_only, open_world = false)]
    fn grow(&self) -> Result<(), String> {
        let file = std::fs::File::create(self.0.join("huge.db")).map_err(|e| e.to_string())?;
        std::io::Write::write_all(&mut &file, b"SQLite format 3\0").map_err(|e| e.to_string())?;
        file.set_len(256 << 20).map_err(|e| e.to_string())
    }
}

static HUGE: Listing<Huge> = tools![Huge::grow];

#[test]
fn a_file_the_observer_refuses_is_a_problem_not_a_pass() {
    let cases = Cases::default();
    let report = Verify::new(&HUGE, || Huge(fresh(&cases).dir))
        .observe_files(|huge| huge.0.clone())
        .cases(2)
        .run();
    clean(cases);
    assert!(!report.is_ok(), "{report}");
    assert!(
        report
            .problems()
            .iter()
            .any(|p| p.contains("`huge.db` was not read") && p.contains("MiB")),
        "{report}"
    );
}
