// An unknown readiness level.
use mcp_annotations::{tool, tools};

#[tool(read_only, title = "List notes")]
fn list_notes() {}

fn main() {
    let _: mcp_annotations::Listing = tools![ready = anthropic; list_notes];
}
