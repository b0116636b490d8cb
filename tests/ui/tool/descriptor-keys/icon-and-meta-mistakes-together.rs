use mcp_annotations::tool;

/// Export.
#[tool(read_only, open_world = false, icons = ["ftp://example.com/i.png"], meta = r#"{"a"}"#, task_support = "always")]
pub fn export() {}

fn main() {}
