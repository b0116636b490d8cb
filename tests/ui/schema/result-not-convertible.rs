// A handler whose result cannot become a tool result: one error, at the result type.
use mcp_annotations::{Listing, tool, tools};

pub struct Opaque;

pub struct Server;

impl Server {
    #[tool(read_only)]
    pub fn peek(&self, id: u64) -> Opaque {
        let _ = id;
        Opaque
    }
}

#[tool(read_only)]
pub fn look(id: u64) -> Opaque {
    let _ = id;
    Opaque
}

static TOOLS: Listing<Server> = tools![Server::peek, look];

fn main() {
    let _ = TOOLS;
}
