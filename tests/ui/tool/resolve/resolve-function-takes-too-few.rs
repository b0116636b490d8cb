// The function `resolve` names is given each parameter by reference, in order: one that takes
// fewer is an error at its name.
use mcp_annotations::{ToolAnnotations, tool};

#[tool(resolve = classify, open_world = false)]
fn run_sql(sql: String, limit: u32) -> String {
    format!("{sql} {limit}")
}

fn classify(sql: &str) -> ToolAnnotations {
    let _ = sql;
    ToolAnnotations::new().with_read_only(true)
}

fn main() {}
