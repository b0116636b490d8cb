// A listing required to meet the strict level, with a tool that leaves `open_world` unstated.
use annotations::{tool, tools};

#[tool(read_only, destructive = false, title = "List notes")]
fn list_notes() {}

fn main() {
    let _: annotations::Listing = tools![ready = strict; list_notes];
}
