use mcp_annotations::{Listing, tool, tools};

/// List every saved note.
#[tool(read_only, open_world = false, title = "List notes")]
fn list_notes() {}

static TOOLS: Listing = tools![ready = strict; list_notes];

fn main() {
    let _ = &TOOLS;
}
