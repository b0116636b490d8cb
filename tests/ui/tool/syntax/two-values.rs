// Two values for one key: the error names them, not generated code.
use mcp_annotations::tool;

#[tool(read_only = true false)]
fn list_notes() {}

fn main() {
    list_notes();
}
