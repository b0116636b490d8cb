// A generic tuple struct is two mistakes, reported together.
use mcp_annotations::Tool;

#[derive(Tool)]
struct Search<T>(T);

fn main() {}
