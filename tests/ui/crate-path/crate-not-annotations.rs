// `crate = std` names a crate, but not this one: one error, at the path.
use mcp_annotations::tool;

struct Server;

impl Server {
    #[tool(crate = std, read_only)]
    fn list_notes(&self) {}
}

fn main() {
    Server.list_notes();
}
