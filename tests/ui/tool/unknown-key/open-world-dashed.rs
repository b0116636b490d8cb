// `open-world` gets a suggestion.
use annotations::tool;

#[tool(open-world = false)]
fn list_notes() {}

fn main() {
    list_notes();
}
