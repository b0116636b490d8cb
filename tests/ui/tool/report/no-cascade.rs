// An error still emits the handler and a placeholder constant: one mistake, one error.
use mcp_annotations::tool;

#[tool(read_only, destructve)]
fn list_notes() -> usize {
    0
}

const _: () = assert!(!LIST_NOTES_ANNOTATIONS.read_only());

fn use_it() -> usize {
    list_notes()
}

fn main() {
    let _ = use_it();
}
