// #[tool] on a constant.
use mcp_annotations::tool;

#[tool(read_only)]
const LIST_NOTES: u8 = 0;

fn main() {}
