// The field name `read_only_hint` suggests `read_only`.
use mcp_annotations::tool;

#[tool(read_only_hint = true)]
fn list_notes() {}

fn main() {}
