use mcp_annotations::tool;

/// Find a file.
#[tool(read_only)]
fn find(#[schema(pattern = r"^\p{L}+$")] name: String) {}

fn main() {}
