// A hint expression of the wrong type is one error, at the expression.
use mcp_annotations::tool;

const N: u8 = 1;

#[tool(read_only, destructive = N)]
fn list_notes() {}

fn main() {
    list_notes();
}
