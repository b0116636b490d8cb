// An all-blank title is an error.
use mcp_annotations::tool;

#[tool(title = "  \t ")]
fn list_notes() {}

fn main() {}
