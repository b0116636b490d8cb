// #[tool] on a struct.
use mcp_annotations::tool;

#[tool(read_only)]
struct ListNotes;

fn main() {}
