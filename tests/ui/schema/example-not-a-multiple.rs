use mcp_annotations::tool;

/// Scale it.
#[tool(read_only)]
fn scale(#[schema(multiple_of = 0.5, examples = [1.5, 0.3])] factor: f64) {}

fn main() {}
