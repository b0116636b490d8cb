// `rename_all` in #[mcp_annotations::tool] above rmcp's #[tool], which would drop it.
struct Notes;

impl Notes {
    /// List every saved note.
    #[mcp_annotations::tool(read_only, rename_all = "camelCase")]
    #[rmcp::tool]
    fn list_notes(&self) -> String {
        String::new()
    }
}

fn main() {
    let _ = Notes.list_notes();
}
