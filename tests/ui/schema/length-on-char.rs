use mcp_annotations::tool;

/// Pick a letter.
#[tool(read_only)]
fn letter(#[schema(max_length = 5)] letter: char) -> char {
    letter
}

fn main() {}
