// An all-blank title is an error.
use annotations::tool;

#[tool(title = "  \t ")]
fn list_notes() {}

fn main() {}
