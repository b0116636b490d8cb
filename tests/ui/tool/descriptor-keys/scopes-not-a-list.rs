use mcp_annotations::tool;

/// Push a file.
#[tool(destructive, open_world = false, scopes = "repo")]
fn push_file(path: String) {
    let _ = path;
}

fn main() {}
