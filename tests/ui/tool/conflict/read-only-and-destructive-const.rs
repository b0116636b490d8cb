// A contradiction through a const expression fails the build too.
use mcp_annotations::tool;

const WIPES_DATA: bool = true;

#[tool(read_only, destructive = WIPES_DATA)]
fn purge() {}

fn main() {}
