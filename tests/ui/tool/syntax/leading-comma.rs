// A comma before the first key.
use mcp_annotations::tool;

#[tool(, read_only)]
fn list_notes() {}

fn main() {}
