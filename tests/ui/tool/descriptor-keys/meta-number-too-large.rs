use mcp_annotations::tool;

/// Export.
#[tool(read_only, open_world = false, meta = r#"{"a": 1e400}"#)]
pub fn export() {}

fn main() {}
