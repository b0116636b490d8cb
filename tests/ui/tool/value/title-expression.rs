// The title must be a string literal, not an expression.
use mcp_annotations::tool;

const TITLE: &str = "List notes";

#[tool(title = TITLE)]
fn list_notes() {}

fn main() {}
