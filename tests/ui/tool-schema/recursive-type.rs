use annotations::ToolSchema;

#[derive(ToolSchema)]
pub struct Node {
    pub name: String,
    pub children: Vec<Node>,
}

fn main() {}
