// A PUT tool is idempotent by RFC 9110.
use mcp_annotations::tool;

#[tool(http = "put", idempotent = false)]
fn put_page() {}

fn main() {}
