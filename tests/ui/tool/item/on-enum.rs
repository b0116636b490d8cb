// #[tool] on an enum.
use mcp_annotations::tool;

#[tool(read_only)]
pub enum Tool {}

fn main() {}
