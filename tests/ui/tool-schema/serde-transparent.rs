use annotations::ToolSchema;

#[derive(ToolSchema, serde::Deserialize)]
#[serde(transparent)]
pub struct Meters {
    pub value: f64,
}

fn main() {}
