// A duplicate key is reported with the other mistakes, in one compile.
use mcp_annotations::tool;

#[tool(read_only, readonly = true, read_only, title = 5)]
fn list_notes() {}

fn main() {
    list_notes();
}
