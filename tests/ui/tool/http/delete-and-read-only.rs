// A DELETE tool cannot be read-only.
use mcp_annotations::tool;

#[tool(http = "DELETE", read_only)]
fn delete_page() {}

fn main() {}
