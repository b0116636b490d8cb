// A C string literal is called one.
use mcp_annotations::tool;

#[tool(title = c"List notes")]
fn list_notes() {}

fn main() {
    list_notes();
}
