// An empty entry between two commas.
use annotations::tool;

#[tool(read_only,, open_world)]
fn list_notes() {}

fn main() {}
