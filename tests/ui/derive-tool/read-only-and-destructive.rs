// The same checks as the attribute: a read-only tool cannot be destructive.
use mcp_annotations::Tool;

#[derive(Tool)]
#[tool(read_only, destructive, title = "Search")]
struct Search {
    query: String,
}

fn main() {}
