use mcp_annotations::tool;

/// Export.
#[tool(read_only, open_world = false, meta = r#"{"com.example/tier": gold}"#)]
pub fn export() {}

fn main() {}
