//! Tool snapshots: each tool of a listing kept as JSON, one file per tool, and a change to any
//! of them a failure that says what changed and how it reaches clients and hosts.

use std::fmt;
use std::path::{Path, PathBuf};

use mcp_annotations::Listing;
use mcp_annotations::Tool;
use mcp_annotations::host::diff::{self, Change, Class};

/// The snapshots of a listing's tools in one folder: `<tool>.json` each, the tool as the
/// latest protocol version lists it. [`check`](Self::check) fails on a missing, changed or
/// vanished snapshot, with the change classified ([`diff`](mcp_annotations::host::diff)); run the tests with
/// `UPDATE_TOOLSNAPS=1` to write them as they are now.
///
/// ```no_run
/// use mcp_annotations_verify::Snapshots;
/// # use mcp_annotations::{Listing, tools};
/// # static TOOLS: Listing = tools![];
///
/// #[test]
/// fn tools_are_as_reviewed() {
///     Snapshots::new(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/toolsnaps"))
///         .check(&TOOLS)
///         .unwrap();
/// }
/// ```
#[derive(Clone, Debug)]
pub struct Snapshots {
    dir: PathBuf,
    update: bool,
}

/// What [`Snapshots::check`] found: every problem, one line each, and the classified changes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SnapshotError {
    problems: Vec<String>,
    changes: Vec<Change>,
}

impl SnapshotError {
    /// Every change found, classified, the breaking ones first.
    #[must_use]
    pub fn changes(&self) -> &[Change] {
        &self.changes
    }

    /// What is wrong besides changes: snapshots missing or unreadable.
    #[must_use]
    pub fn problems(&self) -> &[String] {
        &self.problems
    }
}

impl fmt::Display for SnapshotError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.changes.is_empty() && self.problems.iter().all(|p| p.contains("no snapshot at")) {
            writeln!(
                f,
                "no snapshots yet (run with UPDATE_TOOLSNAPS=1 to write them):"
            )?;
        } else {
            writeln!(
                f,
                "the tools differ from their snapshots (run with UPDATE_TOOLSNAPS=1 to accept them):"
            )?;
        }
        for problem in &self.problems {
            writeln!(f, "  {problem}")?;
        }
        for change in &self.changes {
            writeln!(f, "  {change}")?;
        }
        Ok(())
    }
}

impl std::error::Error for SnapshotError {}

impl Snapshots {
    /// The snapshots in `dir` (created when they are written). `UPDATE_TOOLSNAPS=1` in the
    /// environment makes [`check`](Self::check) write them instead.
    pub fn new(dir: impl AsRef<Path>) -> Self {
        Snapshots {
            dir: dir.as_ref().to_owned(),
            update: std::env::var_os("UPDATE_TOOLSNAPS").is_some_and(|value| value == "1"),
        }
    }

    /// Writes the snapshots (`true`) or checks them (`false`), whatever the environment says.
    #[must_use]
    pub fn updating(mut self, update: bool) -> Self {
        self.update = update;
        self
    }

    fn path(&self, tool: &str) -> PathBuf {
        self.dir.join(format!("{tool}.json"))
    }

    /// Checks every tool of `listing` against its snapshot (or writes them all, when
    /// updating, and removes the snapshots of tools no longer listed).
    ///
    /// # Errors
    ///
    /// [`SnapshotError`] with every missing, changed or vanished snapshot, each change
    /// classified; or, when writing, a folder or file that could not be written.
    pub fn check<S>(&self, listing: &Listing<S>) -> Result<(), SnapshotError> {
        let mut problems = Vec::new();
        let mut changes = Vec::new();
        let written = |tool: &Tool| {
            serde_json::to_string_pretty(tool)
                .map(|text| text + "\n")
                .unwrap_or_default()
        };
        let on_disk = self.stored();
        if self.update {
            if let Err(error) = std::fs::create_dir_all(&self.dir) {
                problems.push(format!("{}: {error}", self.dir.display()));
            }
            for tool in listing.tools() {
                if let Err(error) = std::fs::write(self.path(tool.name()), written(tool)) {
                    problems.push(format!("{}: {error}", self.path(tool.name()).display()));
                }
            }
            // A snapshot of a tool no longer listed goes; any other file stays.
            for name in &on_disk {
                if listing.get(name).is_none() && self.is_snapshot(name) {
                    let _ = std::fs::remove_file(self.path(name));
                }
            }
        } else {
            for tool in listing.tools() {
                let path = self.path(tool.name());
                let Ok(text) = std::fs::read_to_string(&path) else {
                    problems.push(format!(
                        "`{}`: no snapshot at {}",
                        tool.name(),
                        path.display()
                    ));
                    continue;
                };
                if text == written(tool) {
                    continue;
                }
                match serde_json::from_str::<Tool>(&text) {
                    Ok(old) => {
                        let found = diff::changes(&old, tool);
                        if found.is_empty() {
                            changes.push(Change::new(
                                tool.name(),
                                "written differently (same content)",
                                Class::Compatible,
                            ));
                        }
                        changes.extend(found);
                    }
                    Err(error) => problems.push(format!(
                        "`{}`: the snapshot at {} is not a tool: {error}",
                        tool.name(),
                        path.display()
                    )),
                }
            }
            for name in on_disk {
                if listing.get(&name).is_none() && self.is_snapshot(&name) {
                    changes.push(Change::new(&name, "tool removed", Class::Breaking));
                }
            }
        }
        changes.sort_by_key(Change::class);
        if problems.is_empty() && changes.is_empty() {
            Ok(())
        } else {
            Err(SnapshotError { problems, changes })
        }
    }

    /// Whether the file `<name>.json` is a tool's snapshot (a tool named `name`), not some
    /// other JSON file kept beside them.
    fn is_snapshot(&self, name: &str) -> bool {
        std::fs::read_to_string(self.path(name))
            .ok()
            .and_then(|text| serde_json::from_str::<Tool>(&text).ok())
            .is_some_and(|tool| tool.name() == name)
    }

    /// The names of the `.json` files in the folder.
    fn stored(&self) -> Vec<String> {
        let Ok(entries) = std::fs::read_dir(&self.dir) else {
            return Vec::new();
        };
        let mut names: Vec<String> = entries
            .filter_map(Result::ok)
            .filter_map(|entry| {
                let name = entry.file_name().into_string().ok()?;
                name.strip_suffix(".json").map(str::to_owned)
            })
            .collect();
        names.sort();
        names
    }
}
