// `title = 5` is not a string literal.
use mcp_annotations::tool;

#[tool(title = 5)]
fn list_notes() {}

fn main() {}
