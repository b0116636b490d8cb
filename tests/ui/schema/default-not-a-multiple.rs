use mcp_annotations::tool;

/// Wait a while.
#[tool(read_only)]
fn wait(#[schema(multiple_of = 5, default = 12)] seconds: u32) {}

fn main() {}
