use mcp_annotations::ToolSchema;

#[derive(ToolSchema)]
pub enum Shape {
    Point,
    Segment(f64, f64),
}

fn main() {}
