// `#[tool]` written twice: the keys belong in one attribute.
use mcp_annotations::tool;

#[tool(read_only)]
#[tool(open_world = false, title = "List notes")]
fn list_notes() {}

fn main() {
    list_notes();
}
