// A `crate` option that is not a path is refused by the macro, at the option's value.
use mcp_annotations::{Listing, tool, tools};

#[tool(read_only)]
fn list_notes() {}

fn main() {
    let listing: Listing = tools![crate = a + b; list_notes];
    let _ = listing;
}
