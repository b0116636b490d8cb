// `read_only = ` with nothing after `=`.
use mcp_annotations::tool;

#[tool(read_only = )]
fn list_notes() {}

fn main() {}
