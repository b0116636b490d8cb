// A handler that takes `&mut self` cannot be called from a listing, whose calls share the
// state: one error, at the listing's entry.
use mcp_annotations::{Listing, tool, tools};

pub struct Server(u32);

impl Server {
    #[tool(destructive)]
    pub fn reset(&mut self) {
        self.0 = 0;
    }
}

static TOOLS: Listing<Server> = tools![Server::reset];

fn main() {
    let _ = TOOLS;
}
