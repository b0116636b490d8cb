// An explicit key that contradicts the `http` preset is an error at that key.
use mcp_annotations::tool;

#[tool(http = "GET", destructive)]
fn fetch_page() {}

fn main() {}
