use mcp_annotations::tool;

/// Pick some.
#[tool(read_only)]
fn pick(#[schema(unique_items, examples = [[1, 2], [3, 3]])] ids: Vec<u32>) {}

fn main() {}
