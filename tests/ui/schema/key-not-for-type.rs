use mcp_annotations::tool;

/// Count things.
#[tool(read_only)]
fn count(#[schema(min_length = 1)] n: u32) {}

fn main() {}
