// `open-world` gets a suggestion.
use mcp_annotations::tool;

#[tool(open-world = false)]
fn list_notes() {}

fn main() {
    list_notes();
}
