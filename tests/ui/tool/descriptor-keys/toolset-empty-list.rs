use mcp_annotations::tool;

/// Read an issue.
#[tool(read_only, open_world = false, toolset = [])]
fn get_issue(number: u64) {
    let _ = number;
}

fn main() {}
