use mcp_annotations::ToolSchema;

#[derive(ToolSchema, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Outer {
    pub id: u32,
    #[serde(flatten)]
    pub inner: std::collections::BTreeMap<String, String>,
}

fn main() {}
