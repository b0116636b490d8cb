// A `&'a mut` parameter, nested in a type.
use mcp_annotations::tool;

#[tool(read_only)]
fn list_notes<'a>(out: Option<&'a mut String>) {
    let _ = out;
}

fn main() {}
