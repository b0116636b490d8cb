// rmcp's #[tool] above #[mcp_annotations::tool]: rmcp has read the function first (and lost its
// doc comment); the handler takes rmcp's `Parameters`, so the macro can tell.
use rmcp::handler::server::wrapper::Parameters;

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct AddNote {
    title: String,
}

struct Notes;

impl Notes {
    /// Save a new note.
    #[rmcp::tool]
    #[mcp_annotations::tool(open_world = false, title = "Add note")]
    fn add_note(&self, Parameters(AddNote { title }): Parameters<AddNote>) -> String {
        title
    }
}

fn main() {
    let _ = Notes.add_note(Parameters(AddNote { title: String::new() }));
}
