use mcp_annotations::tool;

/// Set the level.
#[tool(read_only)]
fn level(#[schema(default = "high")] level: u8) {}

fn main() {}
