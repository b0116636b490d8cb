use mcp_annotations::tool;

/// Export.
#[tool(read_only, open_world = false, meta = r#"[1, 2]"#)]
pub fn export() {}

fn main() {}
