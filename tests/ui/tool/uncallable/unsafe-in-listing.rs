// An `unsafe fn` cannot be called from a listing: one error, at the listing's entry.
use mcp_annotations::{Listing, tool, tools};

#[tool(read_only)]
pub unsafe fn peek() -> u8 {
    0
}

static TOOLS: Listing = tools![peek];

fn main() {
    let _ = TOOLS;
}
