// `crate` needs a path.
use annotations::tool;

#[tool(crate)]
fn list_notes() {}

fn main() {}
