// `read_only` given as a const expression still refuses `&mut`.
use mcp_annotations::tool;

const READ_ONLY: bool = true;

#[tool(read_only = READ_ONLY)]
fn wipe(#[context] out: &mut String) {
    out.clear();
}

fn main() {
    wipe(&mut String::new());
}
