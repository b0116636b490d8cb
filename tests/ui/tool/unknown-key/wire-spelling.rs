// The wire spelling `readOnlyHint` suggests `read_only`.
use mcp_annotations::tool;

#[tool(readOnlyHint = true)]
fn list_notes() {}

fn main() {}
