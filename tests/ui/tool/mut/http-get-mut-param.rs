// A GET tool is read-only too.
use mcp_annotations::tool;

#[tool(http = "GET")]
fn fetch_page(cache: &mut Vec<u8>) {
    cache.clear();
}

fn main() {}
