// #[tool] on a trait method that has no body.
use annotations::tool;

trait Notes {
    #[tool(read_only)]
    fn list_notes(&self) -> Vec<String>;
}

fn main() {}
