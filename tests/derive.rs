//! `#[derive(Tool)]`: tools described by structs, with the same keys and checks as `#[tool]`.

use annotations::{Schema, StaticTool, Tool, ToolAnnotations, tool, tools};
use serde_json::json;

/// Search the documentation.
#[derive(Tool)]
#[tool(read_only, open_world = false, title = "Search docs")]
pub struct SearchDocs {
    /// Words to look for
    pub query: String,
    /// At most this many results
    pub limit: Option<u8>,
}

/// Ping the server.
#[derive(Tool)]
#[tool(
    read_only,
    destructive = false,
    open_world = false,
    name = "ping",
    title = "Ping"
)]
struct Ping;

/// Fetch a page.
#[tool(read_only, title = "Fetch")]
fn fetch(url: String) {
    let _ = url;
}

#[test]
fn a_struct_describes_a_tool() {
    assert_eq!(SearchDocs::NAME, "search_docs");
    assert_eq!(
        SearchDocs::ANNOTATIONS,
        ToolAnnotations::new()
            .with_title("Search docs")
            .with_read_only(true)
            .with_open_world(false)
    );
    let tool: Tool = SearchDocs::TOOL;
    assert_eq!(tool.description(), Some("Search the documentation."));
    assert!(matches!(tool.input_schema, Schema::Static(_)));
    assert_eq!(
        tool.input_schema.to_value(),
        json!({
            "type": "object",
            "properties": {
                "query": {"type": "string", "description": "Words to look for"},
                "limit": {"type": ["integer", "null"], "minimum": 0, "maximum": 255, "description": "At most this many results"}
            },
            "required": ["query"],
            "additionalProperties": false
        })
    );
    assert_eq!(Ping::TOOL.input_schema, Schema::NO_INPUT);
    let _ = SearchDocs {
        query: String::new(),
        limit: None,
    };
    let _ = Ping;
    fetch(String::new());
}

#[test]
fn listings_mix_functions_and_types() {
    let listing = tools![SearchDocs, fetch, Ping];
    let names: Vec<&str> = listing.tools().iter().map(Tool::name).collect();
    assert_eq!(names, ["search_docs", "fetch", "ping"]);
}
