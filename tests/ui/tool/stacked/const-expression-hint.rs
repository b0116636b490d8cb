// A hint given as a const expression cannot reach rmcp's literal-only #[tool].
use rmcp::tool;

const READ_ONLY: bool = true;

struct Notes;

impl Notes {
    /// List every saved note.
    #[mcp_annotations::tool(read_only = READ_ONLY, title = "List notes")]
    #[tool]
    fn list_notes(&self) -> String {
        String::new()
    }
}

fn main() {
    let _ = Notes.list_notes();
}
