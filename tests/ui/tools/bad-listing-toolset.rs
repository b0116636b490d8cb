use mcp_annotations::{Listing, tool, tools};

/// Ping.
#[tool(read_only, open_world = false)]
fn ping() {}

static TOOLS: Listing = tools![toolset = "Context"; ping];

fn main() {
    let _ = &TOOLS;
}
