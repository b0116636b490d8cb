// An unknown HTTP method is an error at the literal.
use mcp_annotations::tool;

#[tool(http = "FETCH")]
fn fetch_page() {}

fn main() {}
