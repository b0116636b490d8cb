use mcp_annotations::ToolSchema;

#[derive(ToolSchema, serde::Deserialize)]
#[serde(transparent)]
pub struct Point {
    pub x: f64,
    pub y: f64,
}

fn main() {}
