// A read-only handler that takes a `&mut` parameter.
use mcp_annotations::tool;

#[tool(read_only, open_world = false)]
fn list_notes(store: &Vec<String>, out: &mut String) {
    out.push_str(&store.join(","));
}

fn main() {}
