// A parameter whose type is a generic parameter of the handler has no fixed schema.
use mcp_annotations::tool;

#[tool(read_only)]
fn lookup<T: serde::de::DeserializeOwned>(query: Option<T>) {
    let _ = query;
}

fn main() {}
