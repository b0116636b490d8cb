use mcp_annotations::tool;

/// Copy a file.
#[tool(read_only = false, destructive = false)]
fn copy(from: String, #[schema(rename = "from")] source: String) {}

fn main() {}
