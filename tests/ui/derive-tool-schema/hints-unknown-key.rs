// `#[hints]` takes #[tool]'s hint keys, with a suggestion for the wire's spelling.
use mcp_annotations::ToolSchema;

#[derive(serde::Deserialize, ToolSchema)]
enum Action {
    #[hints(readOnlyHint)]
    Read,
    #[hints(destructive)]
    Delete,
}

fn main() {}
