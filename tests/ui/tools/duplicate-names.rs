// Two tools with one name in a listing: a `name =` key collides with a function's name.
use mcp_annotations::{tool, tools};

#[tool(read_only)]
fn list_notes() {}

#[tool(read_only, name = "list_notes")]
fn list_all() {}

static TOOLS: mcp_annotations::Listing = tools![list_notes, list_all];

fn main() {
    let _ = &TOOLS;
}
