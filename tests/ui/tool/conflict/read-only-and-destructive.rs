// `read_only` together with `destructive` is a contradiction.
use annotations::tool;

#[tool(read_only, destructive)]
fn purge() {}

fn main() {}
