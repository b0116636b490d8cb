use mcp_annotations::tool;

/// Pick a byte.
#[tool(read_only)]
fn pick(#[schema(exclusive_minimum = 255)] byte: u8) -> u8 {
    byte
}

fn main() {}
