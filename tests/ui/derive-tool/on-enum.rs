// #[derive(Tool)] on an enum: its variants are not named inputs.
use mcp_annotations::Tool;

#[derive(Tool)]
#[tool(read_only)]
enum Search {
    Title(String),
    Body(String),
}

fn main() {}
