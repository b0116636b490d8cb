// A value without `=` after its key.
use mcp_annotations::tool;

#[tool(title "List notes")]
fn list_notes() {}

fn main() {}
