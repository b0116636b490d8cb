use mcp_annotations::tool;

/// Export.
#[tool(read_only, open_world = false, icons = [])]
pub fn export() {}

fn main() {}
