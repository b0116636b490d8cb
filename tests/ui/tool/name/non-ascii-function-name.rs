// A function name outside the rule, with no `name = "..."` to replace it.
use mcp_annotations::tool;

#[tool(read_only)]
fn liste_des_notes_créées() {}

fn main() {}
