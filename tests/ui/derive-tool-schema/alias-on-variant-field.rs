use mcp_annotations::ToolSchema;

#[derive(ToolSchema, serde::Deserialize)]
pub enum Shape {
    Circle {
        #[serde(alias = "r")]
        radius: f64,
    },
}

fn main() {}
