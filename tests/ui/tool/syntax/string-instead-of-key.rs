// A string where a key should be.
use annotations::tool;

#[tool("x")]
fn list_notes() {}

fn main() {}
