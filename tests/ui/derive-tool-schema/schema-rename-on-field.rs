use mcp_annotations::ToolSchema;

#[derive(ToolSchema, serde::Deserialize)]
pub struct Limits {
    #[schema(rename = "maxDepth")]
    pub depth: u8,
}

fn main() {}
