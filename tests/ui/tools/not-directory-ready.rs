// A listing required to be directory-ready, with a tool that states no read/destructive hint.
use mcp_annotations::{tool, tools};

#[tool(read_only, title = "List notes")]
fn list_notes() {}

#[tool(open_world = false, title = "Add note")]
fn add_note() {}

fn main() {
    let _: mcp_annotations::Listing = tools![ready = directory; list_notes, add_note];
}
