// The function `resolve` names answers the call's hints (`ToolAnnotations`, or a `Result` of
// them): one that returns anything else is an error at its name.
use mcp_annotations::tool;

#[tool(resolve = classify, open_world = false)]
fn run_sql(sql: String) -> String {
    sql
}

fn classify(sql: &str) -> bool {
    sql.starts_with("SELECT")
}

fn main() {}
