use mcp_annotations::tool;

/// Export.
#[tool(read_only, open_world = false, icons = [{ src = "https://example.com/i.png", theme = "blue" }])]
pub fn export() {}

fn main() {}
