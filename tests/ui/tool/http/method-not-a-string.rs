// The method must be a string literal.
use mcp_annotations::tool;

#[tool(http = GET)]
fn fetch_page() {}

fn main() {}
