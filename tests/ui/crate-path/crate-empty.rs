// `crate = ""` is not a path.
use mcp_annotations::tool;

#[tool(crate = "", read_only)]
fn list_notes() {}

fn main() {
    list_notes();
}
