// A `cfg!` expression is checked by a const assertion at the key.
use mcp_annotations::tool;

#[tool(read_only = cfg!(not(target_os = "none")), idempotent = false)]
fn list_notes() {}

fn main() {}
