use mcp_annotations::{Json, Listing, tool, tools};

/// The ids of the notes.
type Ids = Json<Vec<u64>>;

/// List the ids.
#[tool(read_only)]
fn note_ids() -> Ids {
    Json(vec![1, 2])
}

static TOOLS: Listing = tools![note_ids];

fn main() {
    let _ = &TOOLS;
}
