use mcp_annotations::ToolSchema;

#[derive(ToolSchema, serde::Deserialize)]
pub enum Shape {
    Circle {
        #[schema(minimum = 0.0)]
        radius: f64,
    },
}

fn main() {}
