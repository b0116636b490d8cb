// A duplicate key with another value is an error at its second occurrence.
use mcp_annotations::tool;

#[tool(open_world = false, open_world = true)]
fn search() {}

fn main() {}
