// A typo, `destructve`, suggests `destructive`.
use annotations::tool;

#[tool(destructve)]
fn purge() {}

fn main() {}
