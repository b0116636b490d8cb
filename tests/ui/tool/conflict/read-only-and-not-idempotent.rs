// `read_only` together with `idempotent = false` is a contradiction.
use mcp_annotations::tool;

#[tool(read_only, idempotent = false)]
fn list_notes() {}

fn main() {}
