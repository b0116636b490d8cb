// #[tool] on an impl block.
use annotations::tool;

struct Server;

#[tool(read_only)]
impl Server {}

fn main() {}
