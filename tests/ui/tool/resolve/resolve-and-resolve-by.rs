// A tool's calls are resolved by a function or by a parameter's variant, not both.
use mcp_annotations::{ToolAnnotations, tool};

fn classify(sql: &String) -> ToolAnnotations {
    let _ = sql;
    ToolAnnotations::new()
}

#[tool(resolve = classify, resolve_by = sql)]
fn run_sql(sql: String) {
    let _ = sql;
}

fn main() {}
