// Hints stated in #[mcp_annotations::tool] and again in rmcp's #[tool(annotations(...))].
struct Notes;

impl Notes {
    /// List every saved note.
    #[mcp_annotations::tool(read_only, title = "List notes")]
    #[rmcp::tool(annotations(read_only_hint = true))]
    fn list_notes(&self) -> String {
        String::new()
    }
}

fn main() {
    let _ = Notes.list_notes();
}
