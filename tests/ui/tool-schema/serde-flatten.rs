use annotations::ToolSchema;

#[derive(ToolSchema, serde::Deserialize)]
pub struct Outer {
    #[serde(flatten)]
    pub inner: std::collections::BTreeMap<String, String>,
}

fn main() {}
