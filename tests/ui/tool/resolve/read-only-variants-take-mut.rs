// A tool whose every variant is read-only is listed read-only: its handler takes no `&mut`.
use mcp_annotations::{ToolSchema, tool};

#[derive(serde::Deserialize, ToolSchema)]
enum Look {
    #[hints(read_only, open_world = false)]
    Title,
    #[hints(read_only, open_world = false)]
    Body,
}

#[tool(resolve_by = look)]
fn show(notes: &mut Vec<String>, look: Look) {
    let _ = (notes, look);
}

fn main() {}
