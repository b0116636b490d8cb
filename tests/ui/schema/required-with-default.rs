use mcp_annotations::tool;

/// List entries.
#[tool(read_only)]
fn list(#[schema(required, default = Some(1))] limit: Option<u8>) {}

fn main() {}
