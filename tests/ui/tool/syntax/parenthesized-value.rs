// `read_only(true)` instead of `read_only = true`.
use mcp_annotations::tool;

#[tool(read_only(true))]
fn list_notes() {}

fn main() {}
