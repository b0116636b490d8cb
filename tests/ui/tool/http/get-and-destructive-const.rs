// A const expression that contradicts the `http` preset fails the build.
use mcp_annotations::tool;

const WIPES_DATA: bool = true;

#[tool(http = "GET", destructive = WIPES_DATA)]
fn fetch_page() {}

fn main() {}
