// A parameter without a plain name: the model passes arguments by name.
use mcp_annotations::tool;

#[tool(read_only)]
fn lookup((a, b): (u8, u8)) {
    let _ = (a, b);
}

fn main() {}
