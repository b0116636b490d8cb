use mcp_annotations::ToolSchema;

#[derive(ToolSchema, serde::Deserialize)]
pub struct Pair(pub u8, pub u8);

fn main() {}
