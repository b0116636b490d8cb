use annotations::ToolSchema;

#[derive(ToolSchema)]
pub enum Shape {
    Point,
    Circle { radius: f64 },
}

fn main() {}
