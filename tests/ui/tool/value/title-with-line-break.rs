// A title with a line break is refused: a title is one line in every host's menu and table.
use mcp_annotations::tool;

#[tool(read_only, title = "List\nnotes")]
fn list_notes() {}

fn main() {
    list_notes();
}
