// A second `title` is an error.
use annotations::tool;

#[tool(title = "List", title = "List notes")]
fn list_notes() {}

fn main() {}
