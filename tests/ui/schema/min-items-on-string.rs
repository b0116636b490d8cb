use mcp_annotations::tool;

/// Find a file.
#[tool(read_only)]
fn find(#[schema(min_items = 1)] name: String) {}

fn main() {}
