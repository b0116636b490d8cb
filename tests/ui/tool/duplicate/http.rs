// A second `http` is an error.
use mcp_annotations::tool;

#[tool(http = "GET", http = "HEAD")]
fn fetch_page() {}

fn main() {}
