// A duplicate key is an error at its second occurrence, even when the values agree.
use mcp_annotations::tool;

#[tool(read_only, open_world = false, read_only = true)]
fn list_notes() {}

fn main() {}
