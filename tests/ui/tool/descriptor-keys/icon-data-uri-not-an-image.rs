use mcp_annotations::tool;

/// Export.
#[tool(read_only, open_world = false, icons = ["data:text/plain,hi"])]
pub fn export() {}

fn main() {}
