use mcp_annotations::tool;

/// Find a file.
#[tool(read_only)]
fn find(#[schema(pattern = r"^[a-z]+$", default = "A1")] name: String) {}

fn main() {}
