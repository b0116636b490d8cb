// #[tool] on a struct.
use annotations::tool;

#[tool(read_only)]
struct ListNotes;

fn main() {}
