// `readonly` suggests `read_only`.
use mcp_annotations::tool;

#[tool(readonly)]
fn list_notes() {}

fn main() {}
