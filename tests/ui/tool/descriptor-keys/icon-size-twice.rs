use mcp_annotations::tool;

/// Export.
#[tool(read_only, open_world = false, icons = [{ src = "https://example.com/j.png", sizes = ["48x48", "48x48"] }])]
pub fn export() {}

fn main() {}
