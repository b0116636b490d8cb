// rmcp's `annotations(...)` key on this crate's #[tool]: the hints are keys of its own.
use mcp_annotations::tool;

#[tool(read_only, annotations(read_only_hint = true))]
fn list_notes() {}

fn main() {
    list_notes();
}
