use mcp_annotations::tool;

/// Find a word.
#[tool(read_only, open_world = false)]
fn find(#[schema(pattern = r"^a\bé$")] text: String) -> String {
    text
}

fn main() {}
