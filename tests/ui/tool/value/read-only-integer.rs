// `read_only = 1` is an integer, not a boolean.
use annotations::tool;

#[tool(read_only = 1)]
fn list_notes() {}

fn main() {}
