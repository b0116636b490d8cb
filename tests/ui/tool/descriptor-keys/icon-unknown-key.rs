use mcp_annotations::tool;

/// Export.
#[tool(read_only, open_world = false, icons = [{ src = "https://example.com/i.png", mimetype = "image/png" }])]
pub fn export() {}

fn main() {}
