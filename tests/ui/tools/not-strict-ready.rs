// A listing required to meet the strict level, with a tool that leaves `open_world` unstated.
use mcp_annotations::{tool, tools};

#[tool(read_only, destructive = false, title = "List notes")]
fn list_notes() {}

fn main() {
    let _: mcp_annotations::Listing = tools![ready = strict; list_notes];
}
