use mcp_annotations::tool;

/// Find a file.
#[tool(read_only)]
fn find(#[schema(nullable = false)] name: String) {}

fn main() {}
