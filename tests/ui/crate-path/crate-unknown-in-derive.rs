// `#[tool(crate = nope)]` on a derived tool: one error, at the path.
use mcp_annotations::Tool;

/// Ping the server.
#[derive(Tool)]
#[tool(crate = nope, read_only)]
pub struct Ping;

fn main() {}
