use mcp_annotations::tool;

/// Set the level.
#[tool(read_only)]
fn level(#[schema(examples = [1, 1.5])] level: u8) {}

fn main() {}
