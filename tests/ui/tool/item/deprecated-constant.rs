// A deprecated handler's constants are deprecated too: using one warns like the handler.
#![deny(deprecated)]
use mcp_annotations::tool;

#[tool(read_only)]
#[deprecated = "use list_notes"]
fn old_list_notes() {}

fn main() {
    let _ = OLD_LIST_NOTES_ANNOTATIONS;
}
