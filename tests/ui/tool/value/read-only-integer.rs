// `read_only = 1` is an integer, not a boolean.
use mcp_annotations::tool;

#[tool(read_only = 1)]
fn list_notes() {}

fn main() {}
