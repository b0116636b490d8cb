// #[derive(Tool)] on a union.
use mcp_annotations::Tool;

#[derive(Tool)]
#[tool(read_only)]
union Bits {
    small: u8,
    large: u32,
}

fn main() {}
