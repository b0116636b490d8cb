//! `mcp_annotations_verify::Snapshots`: one file per tool, a change a classified failure.

use mcp_annotations::host::diff::Class;
use mcp_annotations::{Listing, tool, tools};
use mcp_annotations_verify::Snapshots;

/// Find notes.
#[tool(read_only, open_world = false)]
fn find(#[schema(max_length = 20)] query: String) -> String {
    query
}

/// Find notes.
#[allow(dead_code)] // Only its descriptor is used, renamed.
#[tool(read_only, open_world = false)]
fn find_narrower(#[schema(max_length = 10)] query: String) -> String {
    query
}

#[test]
fn snapshots_are_written_then_hold_then_fail_on_a_classified_change() {
    let dir = std::env::temp_dir().join(format!("toolsnaps-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let listing: Listing = tools![find];
    // Nothing written yet: each tool is missing.
    let missing = Snapshots::new(&dir)
        .updating(false)
        .check(&listing)
        .unwrap_err();
    assert_eq!(missing.problems().len(), 1, "{missing}");
    Snapshots::new(&dir).updating(true).check(&listing).unwrap();
    assert!(dir.join("find.json").is_file());
    Snapshots::new(&dir)
        .updating(false)
        .check(&listing)
        .unwrap();
    // The same name, narrower: a breaking change, said in one line.
    let mut narrower = FIND_NARROWER_TOOL.clone();
    narrower.name = "find".into();
    let changed: &'static [mcp_annotations::Tool] = Box::leak(Box::new([narrower]));
    let error = Snapshots::new(&dir)
        .updating(false)
        .check(&Listing::<()>::new(changed))
        .unwrap_err();
    assert_eq!(error.changes().len(), 1, "{error}");
    assert_eq!(error.changes()[0].class(), Class::Breaking);
    assert!(
        error
            .to_string()
            .contains("`find`: `query`: `maxLength` narrowed (20 -> 10) (breaking)"),
        "{error}"
    );
    // A tool gone from the listing: its snapshot vanished.
    let empty: Listing = Listing::new(&[]);
    let gone = Snapshots::new(&dir)
        .updating(false)
        .check(&empty)
        .unwrap_err();
    assert_eq!(
        gone.changes()[0].to_string(),
        "`find`: tool removed (breaking)"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
