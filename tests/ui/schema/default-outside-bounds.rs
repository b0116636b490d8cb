use mcp_annotations::tool;

/// Set the depth.
#[tool(read_only)]
fn depth(#[schema(minimum = 1, default = 0)] depth: u8) {}

fn main() {}
