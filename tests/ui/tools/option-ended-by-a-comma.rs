// A listing's option written with a comma where `;` ends it.
use mcp_annotations::{tool, tools, Listing};

/// List every saved note.
#[tool(read_only, open_world = false)]
fn list_notes() -> String {
    String::new()
}

fn main() {
    let _: Listing<()> = tools![toolset = "notes", list_notes];
}
