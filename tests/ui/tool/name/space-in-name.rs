// A tool name with a space breaks the protocol's rule.
use mcp_annotations::tool;

#[tool(read_only, name = "list notes")]
fn list_notes() {}

fn main() {}
