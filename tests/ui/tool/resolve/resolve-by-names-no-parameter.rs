// `resolve_by` names a parameter of the handler.
use mcp_annotations::{ToolSchema, tool};

#[derive(serde::Deserialize, ToolSchema)]
enum Action {
    #[hints(read_only)]
    Read,
    #[hints(destructive)]
    Delete,
}

#[tool(resolve_by = acton)]
fn manage_note(id: u32, action: Action) {
    let _ = (id, action);
}

fn main() {}
