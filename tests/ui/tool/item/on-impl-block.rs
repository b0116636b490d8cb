// #[tool] on an impl block.
use mcp_annotations::tool;

struct Server;

#[tool(read_only)]
impl Server {}

fn main() {}
