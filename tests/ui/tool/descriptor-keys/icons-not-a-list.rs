use mcp_annotations::tool;

/// Export.
#[tool(read_only, open_world = false, icons = "https://example.com/i.png")]
pub fn export() {}

fn main() {}
