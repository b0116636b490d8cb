// `tools![crate = nope; ...]` names no crate: one error, at the path.
use mcp_annotations::{Listing, tool, tools};

#[tool(read_only)]
fn list_notes() {}

fn main() {
    let listing: Listing = tools![crate = nope; list_notes];
    let _ = listing;
}
