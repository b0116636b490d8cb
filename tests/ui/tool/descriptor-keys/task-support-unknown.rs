use mcp_annotations::tool;

/// Export.
#[tool(read_only, open_world = false, task_support = "sometimes")]
pub fn export() {}

fn main() {}
