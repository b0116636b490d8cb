use mcp_annotations::ToolSchema;

#[derive(ToolSchema)]
pub struct Page<T> {
    pub items: Vec<T>,
}

fn main() {}
