// #[tool] on an enum.
use annotations::tool;

#[tool(read_only)]
pub enum Tool {}

fn main() {}
