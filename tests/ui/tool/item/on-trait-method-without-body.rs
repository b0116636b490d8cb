// #[tool] on a trait method that has no body.
use mcp_annotations::tool;

trait Notes {
    #[tool(read_only)]
    fn list_notes(&self) -> Vec<String>;
}

fn main() {}
