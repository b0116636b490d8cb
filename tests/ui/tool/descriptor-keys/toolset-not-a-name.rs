use mcp_annotations::tool;

/// List pull requests.
#[tool(read_only, open_world = false, toolset = "Pull Requests")]
fn list_pull_requests() {}

fn main() {}
