// `#[hints]` goes on the variants, not on the enum.
use mcp_annotations::ToolSchema;

#[derive(serde::Deserialize, ToolSchema)]
#[hints(open_world = false)]
enum Action {
    #[hints(read_only)]
    Read,
    #[hints(destructive)]
    Delete,
}

fn main() {}
