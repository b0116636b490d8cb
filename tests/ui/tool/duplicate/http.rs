// A second `http` is an error.
use annotations::tool;

#[tool(http = "GET", http = "HEAD")]
fn fetch_page() {}

fn main() {}
