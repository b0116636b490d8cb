// `crate` needs a path.
use mcp_annotations::tool;

#[tool(crate)]
fn list_notes() {}

fn main() {}
