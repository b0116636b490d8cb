// `allow_mut` takes no value.
use mcp_annotations::tool;

#[tool(read_only, allow_mut = true)]
fn list_notes(_cache: &mut Vec<u8>) {}

fn main() {}
