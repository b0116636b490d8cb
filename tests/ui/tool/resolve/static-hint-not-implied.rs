// A hint stated on #[tool] beside `resolve_by` must hold for every variant: the error is at
// the variant that breaks it.
use mcp_annotations::{ToolSchema, tool};

#[derive(serde::Deserialize, ToolSchema)]
#[serde(rename_all = "lowercase")]
enum Action {
    #[hints(read_only, open_world = false)]
    Read,
    #[hints(destructive, open_world = false)]
    Delete,
}

struct Notes;

impl Notes {
    #[tool(resolve_by = action, read_only)]
    fn manage_note(&self, id: u32, action: Action) -> String {
        let _ = (id, action);
        String::new()
    }
}

fn main() {}
