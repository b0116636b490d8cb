// A method's parameter whose type has a schema but that serde cannot read: the error is on the
// type, as for a function's.
use mcp_annotations::{ToolSchema, tool};

/// A note.
#[derive(ToolSchema)]
pub struct Note {
    /// Its title.
    pub title: String,
}

pub struct Notes;

impl Notes {
    #[tool(open_world = false)]
    pub fn add_note(&self, note: Note) -> String {
        note.title
    }
}

fn main() {}
