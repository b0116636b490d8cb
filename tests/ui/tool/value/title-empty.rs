// An empty title is an error.
use mcp_annotations::tool;

#[tool(title = "")]
fn list_notes() {}

fn main() {}
