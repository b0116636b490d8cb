//! The notes server's tools: the state (the notes file) and the four tools, as clients see
//! them. Kept apart from `main.rs` so that the verification benchmark runs these very tools.

use std::sync::Arc;
use std::time::Duration;

use mcp_annotations::{Listing, ToolSchema, tool, tools};

use crate::store::Store;

/// The longest body a note may have.
const MAX_BODY: usize = 1 << 20;

/// The longest title a note may have: a title is one line in a list.
const MAX_TITLE: usize = 1 << 10;

/// How long a call waits for another process's lock on the file (`NOTES_LOCK_WAIT_MS`).
pub const LOCK_WAIT: Duration = Duration::from_secs(5);

/// What `manage_note` does with a note. Each action states its own hints: a host that
/// resolves a call (`tools/resolve`) asks approval for a delete, not for a read.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Deserialize, ToolSchema)]
#[serde(rename_all = "lowercase")]
pub enum NoteAction {
    /// Show the note's title and body.
    #[hints(read_only, open_world = false)]
    Read,
    /// Add `text` as a line at the end of the note.
    #[hints(destructive = false, open_world = false)]
    Append,
    /// Delete the note, for good.
    #[hints(destructive, idempotent, open_world = false)]
    Delete,
}

/// The server's state: the notes file.
pub struct Notes {
    store: Arc<Store>,
}

impl Notes {
    /// The state of a server of the notes in `store`.
    pub fn new(store: Arc<Store>) -> Self {
        Notes { store }
    }

    /// The notes file.
    #[allow(dead_code)] // Read by `tests/verify.rs` and the verification benchmark.
    pub fn store(&self) -> &Store {
        &self.store
    }

    /// Runs `job` on the store on a thread for blocking work, so that waiting for the file or
    /// its lock never holds up the runtime's workers: `ping` and `tools/list` still answer.
    async fn with_store<T: Send + 'static>(
        &self,
        job: impl FnOnce(&Store) -> T + Send + 'static,
    ) -> Result<T, String> {
        let store = Arc::clone(&self.store);
        tokio::task::spawn_blocking(move || job(&store))
            .await
            .map_err(|error| format!("the notes store failed: {error}"))
    }

    /// List every saved note with its id and title.
    #[tool(
        read_only,
        destructive = false,
        idempotent,
        open_world = false,
        title = "List notes",
        toolset = "notes"
    )]
    async fn list_notes(&self) -> Result<String, String> {
        let notes = self
            .with_store(Store::list)
            .await?
            .map_err(|error| error.to_string())?;
        if notes.is_empty() {
            return Ok("No notes saved.".to_owned());
        }
        let lines: Vec<String> = notes
            .iter()
            .map(|note| format!("{}: {}", note.id, note.title))
            .collect();
        Ok(lines.join("\n"))
    }

    /// Save a new note. Use this when the user asks to write something down.
    #[tool(
        read_only = false,
        destructive = false,
        idempotent = false,
        open_world = false,
        title = "Add note",
        toolset = "notes"
    )]
    async fn add_note(
        &self,
        /// Short title for the note
        title: String,
        /// Text of the note
        body: String,
    ) -> Result<String, String> {
        if title.len() > MAX_TITLE {
            return Err(format!(
                "the title is {} bytes long; a title holds at most {MAX_TITLE} bytes",
                title.len()
            ));
        }
        if body.len() > MAX_BODY {
            return Err(format!(
                "the body is {} bytes long; a note holds at most {MAX_BODY} bytes",
                body.len()
            ));
        }
        let note = self
            .with_store(move |store| store.add(title, body))
            .await?
            .map_err(|error| error.to_string())?;
        eprintln!("notes: added note {}", note.id);
        Ok(format!("Saved note {}: {}", note.id, note.title))
    }

    /// Permanently delete a note by id. This cannot be undone.
    #[tool(
        read_only = false,
        destructive,
        idempotent,
        open_world = false,
        title = "Delete note",
        toolset = "cleanup"
    )]
    async fn delete_note(
        &self,
        /// Id of the note to delete, from list_notes
        note_id: u64,
    ) -> Result<String, String> {
        match self
            .with_store(move |store| store.delete(note_id))
            .await?
            .map_err(|error| error.to_string())?
        {
            Some(note) => {
                eprintln!("notes: deleted note {note_id}");
                Ok(format!("Deleted note {}: {}", note.id, note.title))
            }
            None => Err(format!("No note with id {note_id}.")),
        }
    }
}

impl Notes {
    /// Read, append to or delete one note by id: `action` is `read`, `append` (with `text`)
    /// or `delete`.
    #[tool(resolve_by = action, title = "Manage note", toolset = "notes")]
    async fn manage_note(
        &self,
        /// Id of the note, from list_notes
        note_id: u64,
        /// What to do with it
        action: NoteAction,
        /// The line to add, for `append`
        text: Option<String>,
    ) -> Result<String, String> {
        let missing = || format!("No note with id {note_id}.");
        match action {
            NoteAction::Read => {
                let note = self
                    .with_store(move |store| store.get(note_id))
                    .await?
                    .map_err(|error| error.to_string())?
                    .ok_or_else(missing)?;
                Ok(format!("{}: {}\n\n{}", note.id, note.title, note.body))
            }
            NoteAction::Append => {
                let text = text.ok_or("`append` needs `text`: the line to add")?;
                if text.len() > MAX_BODY {
                    return Err(format!(
                        "the text is {} bytes long; a note holds at most {MAX_BODY} bytes",
                        text.len()
                    ));
                }
                let note = self
                    .with_store(move |store| store.append(note_id, text))
                    .await?
                    .map_err(|error| error.to_string())?
                    .ok_or_else(missing)?;
                eprintln!("notes: appended to note {note_id}");
                Ok(format!("Appended to note {}: {}", note.id, note.title))
            }
            NoteAction::Delete => self.delete_note(note_id).await,
        }
    }
}

/// The tools, in the order clients see them. `ready = strict`: a title and every hint that
/// tool directories ask for, or this does not compile.
pub static TOOLS: Listing<Notes> = tools![
    ready = strict;
    Notes::list_notes,
    Notes::add_note,
    Notes::delete_note,
    Notes::manage_note,
];
