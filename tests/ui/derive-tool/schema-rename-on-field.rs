use mcp_annotations::Tool;

/// Read a file.
#[derive(Tool, serde::Deserialize)]
#[tool(read_only)]
pub struct ReadFile {
    #[schema(rename = "filePath")]
    pub path: String,
}

fn main() {}
