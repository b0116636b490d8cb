use annotations::ToolSchema;

#[derive(ToolSchema, serde::Deserialize)]
#[serde(tag = "kind")]
pub enum Kind {
    A,
    B,
}

fn main() {}
