use mcp_annotations::tool;

/// Sum some bytes.
#[tool(read_only)]
fn sum(#[schema(default = ["a"])] bytes: Vec<u8>) -> u32 {
    bytes.iter().map(|b| u32::from(*b)).sum()
}

fn main() {}
