// An empty entry between two commas.
use mcp_annotations::tool;

#[tool(read_only,, open_world)]
fn list_notes() {}

fn main() {}
