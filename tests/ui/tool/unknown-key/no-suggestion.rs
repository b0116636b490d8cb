// A key like no other lists the keys there are.
use mcp_annotations::tool;

#[tool(colour = "red")]
fn paint() {}

fn main() {}
