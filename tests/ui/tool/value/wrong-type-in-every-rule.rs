// Expressions of the wrong type, each used by several rules (the `&mut` rule and the pairs
// with `read_only`): one error per expression, at the expression.
use mcp_annotations::tool;

const N: u8 = 1;
const TEXT: &str = "no";

struct Server;

impl Server {
    #[tool(read_only = N, idempotent = false, open_world = TEXT, destructive = TEXT)]
    fn wipe(&self, out: &mut String) {
        out.clear();
    }
}

fn main() {
    Server.wipe(&mut String::new());
}
