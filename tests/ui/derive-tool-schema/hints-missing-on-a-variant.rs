// When one variant states its hints, every variant serde reads does.
use mcp_annotations::ToolSchema;

#[derive(serde::Deserialize, ToolSchema)]
enum Action {
    #[hints(read_only, open_world = false)]
    Read,
    Delete,
}

fn main() {}
