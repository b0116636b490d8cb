// The method must be a string literal.
use annotations::tool;

#[tool(http = GET)]
fn fetch_page() {}

fn main() {}
