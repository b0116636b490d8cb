//! `#[derive(Tool)]`: tools described by structs, with the same keys and checks as `#[tool]`.

use mcp_annotations::{
    Context, Listing, Tool, ToolAnnotations, call::CallTool, descriptor::StaticTool,
    schema::Schema, tool, tools,
};
use serde_json::json;

/// Search the documentation.
#[derive(Tool, serde::Deserialize)]
#[tool(read_only, open_world = false, title = "Search docs")]
pub struct SearchDocs {
    /// Words to look for
    pub query: String,
    /// At most this many results
    pub limit: Option<u8>,
}

/// Ping the server.
#[derive(Tool, serde::Deserialize)]
#[tool(
    read_only,
    destructive = false,
    open_world = false,
    name = "ping",
    title = "Ping"
)]
struct Ping;

impl CallTool<()> for SearchDocs {
    type Output = String;

    async fn call(self, _state: &(), _context: Context<'_>) -> String {
        format!("{} (at most {})", self.query, self.limit.unwrap_or(10))
    }
}

impl CallTool<()> for Ping {
    type Output = &'static str;

    async fn call(self, _state: &(), _context: Context<'_>) -> &'static str {
        "pong"
    }
}

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
    assert!(tool.input_schema.is_static());
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
    let listing: Listing = tools![SearchDocs, fetch, Ping];
    let names: Vec<&str> = listing.tools().iter().map(Tool::name).collect();
    assert_eq!(names, ["search_docs", "fetch", "ping"]);
}

#[test]
fn struct_tools_are_called_with_their_fields_read_by_serde() {
    let listing: Listing = tools![SearchDocs, Ping];
    let call = |name: &str, arguments: serde_json::Value| {
        let call = listing
            .call(&(), name, arguments.as_object().cloned(), Context::none())
            .unwrap();
        tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap()
            .block_on(call)
    };
    assert_eq!(
        call("search_docs", json!({"query": "notes"})).text_content(),
        "notes (at most 10)"
    );
    assert_eq!(
        call("search_docs", json!({"query": "notes", "limit": 3})).text_content(),
        "notes (at most 3)"
    );
    assert_eq!(call("ping", json!({})).text_content(), "pong");
    let missing = call("search_docs", json!({}));
    assert!(missing.is_error && missing.text_content().contains("missing argument `query`"));
    let unknown = call("search_docs", json!({"query": "x", "lmit": 3}));
    assert!(unknown.is_error && unknown.text_content().contains("unknown argument `lmit`"));
    let too_big = call("search_docs", json!({"query": "x", "limit": 256}));
    assert!(too_big.is_error, "{too_big:?}");
}
