// A tool name with a `/` (also refused: `,`, `@`, non-ASCII).
use mcp_annotations::tool;

#[tool(read_only, name = "notes/list")]
fn list_notes() {}

fn main() {}
