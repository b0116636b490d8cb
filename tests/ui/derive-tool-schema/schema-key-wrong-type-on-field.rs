use mcp_annotations::ToolSchema;

#[derive(ToolSchema, serde::Deserialize)]
pub struct Limits {
    #[schema(min_length = 1)]
    pub depth: u8,
}

fn main() {}
