use mcp_annotations::tool;

/// Find a file.
#[tool(read_only)]
fn find(#[schema(pattern = r"^\d+$", examples = ["12", "٣"])] code: String) {}

fn main() {}
