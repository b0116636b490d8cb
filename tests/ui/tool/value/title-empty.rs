// An empty title is an error.
use annotations::tool;

#[tool(title = "")]
fn list_notes() {}

fn main() {}
