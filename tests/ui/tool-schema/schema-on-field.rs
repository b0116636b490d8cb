use annotations::ToolSchema;

#[derive(ToolSchema)]
pub struct Limits {
    #[schema(minimum = 1)]
    pub depth: u8,
}

fn main() {}
