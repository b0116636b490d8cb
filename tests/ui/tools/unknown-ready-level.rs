// An unknown readiness level.
use annotations::{tool, tools};

#[tool(read_only, title = "List notes")]
fn list_notes() {}

fn main() {
    let _: annotations::Listing = tools![ready = anthropic; list_notes];
}
