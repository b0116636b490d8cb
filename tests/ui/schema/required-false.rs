use mcp_annotations::tool;

/// Find a file.
#[tool(read_only)]
fn find(#[schema(required = false)] name: Option<String>) {}

fn main() {}
