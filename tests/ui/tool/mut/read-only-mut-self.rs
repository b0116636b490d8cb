// A read-only handler that takes `&mut self`.
use mcp_annotations::tool;

struct Server;

impl Server {
    #[tool(read_only)]
    fn list_notes(&mut self) {}
}

fn main() {}
