// The error points at the later of two conflicting keys.
use mcp_annotations::tool;

#[tool(destructive = true, open_world = false, read_only)]
fn purge() {}

fn main() {}
