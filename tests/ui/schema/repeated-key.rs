use mcp_annotations::tool;

/// Find a file.
#[tool(read_only)]
fn find(#[schema(min_length = 1, min_length = 2)] name: String) {}

fn main() {}
