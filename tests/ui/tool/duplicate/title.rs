// A second `title` is an error.
use mcp_annotations::tool;

#[tool(title = "List", title = "List notes")]
fn list_notes() {}

fn main() {}
