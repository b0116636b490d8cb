use mcp_annotations::tool;

/// Count things.
#[tool(read_only)]
fn count(#[schema(pattern = "^[0-9]+$")] n: u32) {}

fn main() {}
