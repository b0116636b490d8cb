// #[derive(Tool)] on a tuple struct: its fields have no names.
use mcp_annotations::Tool;

#[derive(Tool)]
#[tool(read_only)]
struct Search(String, u8);

fn main() {}
