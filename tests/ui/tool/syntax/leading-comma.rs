// A comma before the first key.
use annotations::tool;

#[tool(, read_only)]
fn list_notes() {}

fn main() {}
