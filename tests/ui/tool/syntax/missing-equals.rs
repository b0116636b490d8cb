// A value without `=` after its key.
use annotations::tool;

#[tool(title "List notes")]
fn list_notes() {}

fn main() {}
