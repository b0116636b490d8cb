// An example's item outside what the items' type holds: `300` is no `u8`.
use mcp_annotations::tool;

/// Sum some bytes.
#[tool(read_only)]
fn sum(#[schema(examples = [[1, 300]])] bytes: Vec<u8>) -> u32 {
    bytes.iter().map(|b| u32::from(*b)).sum()
}

fn main() {}
