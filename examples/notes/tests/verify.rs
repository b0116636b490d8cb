//! The notes example's hints checked by behaviour against its real file store, and its tools
//! held to their reviewed snapshots (`examples/notes/toolsnaps/`). The example's own store and
//! tools are compiled in here as they are.

#[path = "../store.rs"]
#[allow(dead_code)] // The server's other uses of the store are the example's.
mod store;
#[path = "../tools.rs"]
#[allow(dead_code)] // The server's settings are the example's.
mod tools;

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use mcp_annotations_verify::{Snapshots, Verify};

use crate::store::Store;
use crate::tools::{Notes, TOOLS};

/// The folder of this run's notes files.
fn dir() -> std::path::PathBuf {
    std::env::temp_dir().join(format!("notes-verify-{}", std::process::id()))
}

/// A notes file of its own for each case.
fn fresh() -> Notes {
    static CASE: AtomicUsize = AtomicUsize::new(0);
    std::fs::create_dir_all(dir()).unwrap();
    let path = dir().join(format!("{}.json", CASE.fetch_add(1, Ordering::Relaxed)));
    let store = Store::open(path, std::time::Duration::from_secs(5)).unwrap();
    Notes::new(Arc::new(store))
}

/// What the environment is: the notes file, as the user's other tools would read it (no file
/// yet is no notes; a file that does not parse is itself).
fn notes_file(notes: &Notes) -> serde_json::Value {
    match std::fs::read_to_string(notes.store().path()) {
        Ok(text) => serde_json::from_str(&text).unwrap_or(serde_json::Value::String(text)),
        Err(_) => serde_json::json!([]),
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn the_hints_are_true_of_the_file_store() {
    let report = Verify::new(&TOOLS, fresh)
        .observe(notes_file)
        .cases(32)
        .seed(2026)
        .run_async()
        .await;
    let _ = std::fs::remove_dir_all(dir());
    report.assert_ok();
    assert!(report.notes().is_empty(), "{report}");
    // Each tool was seen working, not only refusing: `delete_note` was given ids that
    // `add_note` had just saved.
    for tool in ["list_notes", "add_note", "delete_note"] {
        let (_, succeeded) = report.calls(tool).unwrap();
        assert!(succeeded > 0, "{tool}: {report}");
    }
}

#[test]
fn the_tools_are_as_reviewed() {
    Snapshots::new(concat!(env!("CARGO_MANIFEST_DIR"), "/toolsnaps"))
        .check(&TOOLS)
        .unwrap();
}
