// `read_only = "true"` is a string, not a boolean.
use mcp_annotations::tool;

#[tool(read_only = "true")]
fn list_notes() {}

fn main() {}
