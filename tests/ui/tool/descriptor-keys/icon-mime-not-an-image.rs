use mcp_annotations::tool;

/// Export.
#[tool(read_only, open_world = false, icons = [{ src = "https://example.com/i", mime_type = "text/plain" }])]
pub fn export() {}

fn main() {}
