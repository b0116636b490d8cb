use mcp_annotations::{Context, tool};

/// Say hello.
#[tool(read_only)]
fn hello(#[schema(min_length = 1)] #[context] context: Context<'_>) {
    let _ = context;
}

fn main() {}
