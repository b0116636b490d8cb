// A mistake in a listing of methods (whose state type is the server) is one error: the
// listing the macro emits in its place fits any state type.
use mcp_annotations::{Listing, tool, tools};

pub struct Server;

impl Server {
    /// List every note.
    #[tool(read_only)]
    pub fn list_notes(&self) -> String {
        String::new()
    }
}

static TOOLS: Listing<Server> = tools![ready = strictly; Server::list_notes];

fn main() {
    let _ = TOOLS;
}
