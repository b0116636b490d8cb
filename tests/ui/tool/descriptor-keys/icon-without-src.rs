use mcp_annotations::tool;

/// Export.
#[tool(read_only, open_world = false, icons = [{ sizes = ["48x48"] }])]
pub fn export() {}

fn main() {}
