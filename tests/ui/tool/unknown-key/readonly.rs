// `readonly` suggests `read_only`.
use annotations::tool;

#[tool(readonly)]
fn list_notes() {}

fn main() {}
