// A parameter type with no JSON Schema: the error is on the type and says what to do (here with
// the `schemars` feature on, as the test package builds the crate).
use mcp_annotations::tool;

pub struct Note {
    pub title: String,
}

#[tool(open_world = false)]
fn add_note(note: Note) {
    let _ = note.title;
}

fn main() {}
