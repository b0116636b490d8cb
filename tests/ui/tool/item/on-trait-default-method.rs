// On a trait's default method, the constants would make the trait silently not dyn
// compatible: one error at the attribute, unless the trait is declared `Sized`.
use mcp_annotations::tool;

pub trait Describe {
    #[tool(read_only)]
    fn describe(&self) -> String {
        String::new()
    }

    fn name(&self) -> String;
}

fn main() {}
