// A typo, `destructve`, suggests `destructive`.
use mcp_annotations::tool;

#[tool(destructve)]
fn purge() {}

fn main() {}
