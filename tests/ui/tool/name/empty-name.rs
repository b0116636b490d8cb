// An empty tool name.
use mcp_annotations::tool;

#[tool(read_only, name = "")]
fn list_notes() {}

fn main() {}
