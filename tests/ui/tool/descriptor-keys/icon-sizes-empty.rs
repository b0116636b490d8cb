use mcp_annotations::tool;

/// Export.
#[tool(read_only, open_world = false, icons = [{ src = "HTTPS://example.com/i.png", sizes = [] }])]
pub fn export() {}

fn main() {}
