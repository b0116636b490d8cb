use mcp_annotations::tool;

/// Find a file.
#[tool(read_only)]
fn find(#[schema(minLength = 1)] name: String) {}

fn main() {}
