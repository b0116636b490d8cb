// `crate = nope` names no crate: one error, at the path.
use mcp_annotations::tool;

#[tool(crate = nope, read_only)]
fn list_notes() {}

fn main() {
    list_notes();
}
