// #[derive(Tool)] on a union.
use annotations::Tool;

#[derive(Tool)]
#[tool(read_only)]
union Bits {
    small: u8,
    large: u32,
}

fn main() {}
