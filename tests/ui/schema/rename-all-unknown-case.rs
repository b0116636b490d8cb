use mcp_annotations::tool;

/// Copy a file.
#[tool(read_only = false, destructive = false, rename_all = "camelcase")]
fn copy(dry_run: bool) {}

fn main() {}
