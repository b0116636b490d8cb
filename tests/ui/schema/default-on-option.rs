use mcp_annotations::tool;

/// Find a file.
#[tool(read_only)]
fn find(#[schema(default = 3)] depth: Option<u8>) {}

fn main() {}
