use mcp_annotations::tool;

/// Pick a page.
#[tool(read_only)]
fn page(#[schema(minimum = 10, maximum = 5)] page: u32) {}

fn main() {}
