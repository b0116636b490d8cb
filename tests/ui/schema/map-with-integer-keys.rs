// A map parameter whose keys are not strings.
use std::collections::HashMap;

use mcp_annotations::tool;

#[tool(read_only)]
fn lookup(ids: HashMap<u32, String>) {
    let _ = ids;
}

fn main() {}
