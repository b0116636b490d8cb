//! A folder observed by what its files hold, and the rules a call's effect on it is judged by:
//! what [`Verify::observe_files`](crate::Verify::observe_files) checks an author's tools with,
//! and what `annotations-audit probe` checks any server's sandbox with, so that both judge
//! alike (feature `files`).
//!
//! - [`tree`]: the folder as a [`Tree`](tree::Tree), every path with its kind, size, hash and
//!   mode, each file's [view](formats) where its format has one;
//! - [`formats`]: the views, chosen by a file's contents, not its name: a SQLite database as
//!   its tables and rows (keyed by primary key, its journal and WAL read into it), a zip
//!   container (an `.xlsx`, a `.docx`) member by member with XML as element trees, JSON and
//!   JSON Lines as their values, a git repository's index by what it stages;
//! - [`judge`]: whether a call changed anything ([`changed`](judge::changed)), lost anything
//!   ([`lost`](judge::lost)), and what it did counted by place ([`effect`](judge::effect));
//! - [`classes`]: the places a user classes *volatile* (changes reported, never judged) or
//!   *append-only* (growth allowed where a tool may add).
//!
//! ```
//! use mcp_annotations_verify::files::{classes::Classes, judge, tree};
//!
//! let dir = std::env::temp_dir().join(format!("files-doc-{}", std::process::id()));
//! std::fs::create_dir_all(&dir).unwrap();
//! std::fs::write(dir.join("notes.json"), r#"{"1": "milk"}"#).unwrap();
//! let before = tree::observe(&dir);
//!
//! // A note added: a change, and nothing lost.
//! std::fs::write(dir.join("notes.json"), r#"{"1": "milk", "2": "eggs"}"#).unwrap();
//! let after = tree::observe(&dir);
//! let classes = Classes::default();
//! assert!(judge::changed(&before, &after, &classes, false).is_some());
//! assert_eq!(judge::lost(&before, &after, &classes), None);
//!
//! // The first note overwritten: a loss, named by where it is.
//! std::fs::write(dir.join("notes.json"), r#"{"1": "tea", "2": "eggs"}"#).unwrap();
//! let lost = judge::lost(&after, &tree::observe(&dir), &classes);
//! assert_eq!(lost.as_deref(), Some("`notes.json` (JSON): /1 was overwritten"));
//! # std::fs::remove_dir_all(&dir).unwrap();
//! ```

pub mod classes;
pub mod formats;
pub mod judge;
pub mod tree;
