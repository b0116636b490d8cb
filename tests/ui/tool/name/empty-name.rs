// An empty tool name.
use annotations::tool;

#[tool(read_only, name = "")]
fn list_notes() {}

fn main() {}
