use mcp_annotations::ToolSchema;

#[derive(ToolSchema, serde::Deserialize)]
pub struct Address {
    pub city: String,
}

#[derive(ToolSchema, serde::Deserialize)]
pub struct Person {
    pub name: String,
    #[serde(flatten)]
    pub address: Option<Address>,
}

fn main() {}
