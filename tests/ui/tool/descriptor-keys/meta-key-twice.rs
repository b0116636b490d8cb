use mcp_annotations::tool;

/// Export.
#[tool(read_only, open_world = false, meta = r#"{"a": 1, "a": 2}"#)]
pub fn export() {}

fn main() {}
