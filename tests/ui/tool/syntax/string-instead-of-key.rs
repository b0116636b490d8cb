// A string where a key should be.
use mcp_annotations::tool;

#[tool("x")]
fn list_notes() {}

fn main() {}
