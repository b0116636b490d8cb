// `#[hints]` goes on the variant itself, not on a field inside it.
use mcp_annotations::ToolSchema;

#[derive(serde::Deserialize, ToolSchema)]
enum Action {
    #[hints(read_only)]
    Read { path: String },
    #[hints(destructive)]
    Delete {
        #[hints(idempotent)]
        path: String,
    },
    #[hints(destructive)]
    Truncate(#[hints(idempotent)] String),
}

fn main() {}
