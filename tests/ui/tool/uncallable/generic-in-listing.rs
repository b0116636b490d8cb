// A generic handler cannot be called from a listing: one error, at the listing's entry.
use mcp_annotations::{Listing, tool, tools};

#[tool(read_only)]
pub fn show<T: Default + std::fmt::Debug>() -> String {
    format!("{:?}", T::default())
}

static TOOLS: Listing = tools![show];

fn main() {
    let _ = TOOLS;
}
