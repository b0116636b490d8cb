// `#[tool]` written twice, the second with only keys rmcp's `#[tool]` has too: still one error.
use mcp_annotations::tool;

#[tool(read_only)]
#[tool(title = "List notes")]
fn list_notes() {}

fn main() {
    list_notes();
}
