// A bare `title` needs a value.
use mcp_annotations::tool;

#[tool(read_only, title)]
fn list_notes() {}

fn main() {}
