use mcp_annotations::tool;

/// Push a file.
#[tool(destructive, open_world = false, scopes = ["rëpo"])]
fn push_file(path: String) {
    let _ = path;
}

fn main() {}
