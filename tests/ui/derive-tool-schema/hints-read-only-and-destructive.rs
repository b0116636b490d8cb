// A variant's hints are checked as #[tool]'s are: a read-only variant destroys nothing.
use mcp_annotations::ToolSchema;

#[derive(serde::Deserialize, ToolSchema)]
enum Action {
    #[hints(read_only, destructive)]
    Read,
    #[hints(destructive)]
    Delete,
}

fn main() {}
