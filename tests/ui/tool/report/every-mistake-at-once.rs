// All mistakes in one attribute are reported in one compile.
use mcp_annotations::tool;

#[tool(readonly, destructive, destructive, title = "", http = "FETCH")]
fn purge() {}

fn main() {}
