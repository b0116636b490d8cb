use mcp_annotations::tool;

/// Tag it.
#[tool(read_only)]
fn tag(#[schema(unique_items, default = ["a", "b", "a"])] tags: Vec<String>) {}

fn main() {}
