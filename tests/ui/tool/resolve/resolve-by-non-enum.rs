// `resolve_by` names a parameter whose type is an enum whose variants state their hints.
use mcp_annotations::tool;

#[tool(resolve_by = action)]
fn manage_note(id: u32, action: String) {
    let _ = (id, action);
}

fn main() {}
