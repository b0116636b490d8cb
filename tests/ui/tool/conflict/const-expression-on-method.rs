// A method's const-expression hints are checked even if its constant is never used.
use mcp_annotations::tool;

const WIPES_DATA: bool = true;

struct Server;

impl Server {
    #[tool(read_only, destructive = WIPES_DATA)]
    fn purge(&self) {}
}

fn main() {}
