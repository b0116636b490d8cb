use mcp_annotations::tool;

/// Find a file.
#[tool(read_only)]
fn find(#[schema(pattern = r"\A[a-z]+\z")] name: String) {}

fn main() {}
