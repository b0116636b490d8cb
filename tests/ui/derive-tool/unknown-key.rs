// The same parser as the attribute: an unknown key gets a suggestion.
use mcp_annotations::Tool;

#[derive(Tool)]
#[tool(readonly, titel = "Search")]
struct Search {
    query: String,
}

fn main() {}
