use mcp_annotations::tool;

/// Export.
#[tool(read_only, open_world = false, icons = [{ src = "https://example.com/i.png", src = "https://example.com/j.png" }])]
pub fn export() {}

fn main() {}
