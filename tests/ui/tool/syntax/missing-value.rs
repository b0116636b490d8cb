// `read_only = ` with nothing after `=`.
use annotations::tool;

#[tool(read_only = )]
fn list_notes() {}

fn main() {}
