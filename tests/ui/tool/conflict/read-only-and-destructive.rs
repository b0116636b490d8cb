// `read_only` together with `destructive` is a contradiction.
use mcp_annotations::tool;

#[tool(read_only, destructive)]
fn purge() {}

fn main() {}
