use mcp_annotations::tool;

/// Export.
#[tool(read_only, open_world = false, icons = ["icon.png"])]
pub fn export() {}

fn main() {}
