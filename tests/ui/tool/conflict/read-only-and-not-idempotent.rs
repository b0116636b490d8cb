// `read_only` together with `idempotent = false` is a contradiction.
use annotations::tool;

#[tool(read_only, idempotent = false)]
fn list_notes() {}

fn main() {}
