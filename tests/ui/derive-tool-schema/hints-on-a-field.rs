// `#[hints]` states a variant's hints; on a struct's field it would be dropped.
use mcp_annotations::ToolSchema;

#[derive(serde::Deserialize, ToolSchema)]
struct Cleanup {
    #[hints(destructive)]
    path: String,
}

fn main() {}
