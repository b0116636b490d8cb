use mcp_annotations::tool;

/// Find a file.
#[tool(read_only)]
fn find(#[schema(pattern = r"^a{,3}$")] name: String) {}

fn main() {}
