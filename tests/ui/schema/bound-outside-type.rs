use mcp_annotations::tool;

/// Set the level.
#[tool(read_only)]
fn level(#[schema(minimum = -1)] level: u8) {}

fn main() {}
