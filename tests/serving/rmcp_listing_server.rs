//! `ListingServer`: a listing served to rmcp's own client at the listing's cost, in-process.
//! Every tool arrives page by page, calls go through the listing with the state and rmcp's
//! request context, and what the listing lists and what the calls return agree for the
//! session's protocol version.

use mcp_annotations::{
    Json, Listing, ProtocolVersion, listing::ListOptions, rmcp::ListingServer, tool, tools,
};
use rmcp::model::{
    CallToolRequestParams, ClientCapabilities, ClientConfig, Implementation, PaginatedRequestParams,
};
use rmcp::service::{RequestContext, RunningService};
use rmcp::{RoleClient, RoleServer, ServiceExt};
use serde_json::{Value, json};

/// The server's state.
pub struct Shop {
    name: &'static str,
}

impl Shop {
    /// The shop's name.
    #[tool(read_only, open_world = false)]
    fn shop_name(&self) -> &'static str {
        self.name
    }

    /// The ids of the items in stock.
    #[tool(read_only, open_world = false)]
    fn item_ids(&self) -> Json<Vec<u64>> {
        Json(vec![3, 5, 8])
    }

    /// An item by id.
    #[tool(read_only, open_world = false)]
    fn item(&self, id: u64) -> Json<Value> {
        Json(json!({"id": id, "name": "pen"}))
    }

    /// Whether the call arrived with rmcp's request context.
    #[tool(read_only, open_world = false)]
    async fn request_id(&self, #[context] request: RequestContext<RoleServer>) -> String {
        format!("{:?}", request.id)
    }
}

static TOOLS: Listing<Shop> = tools![
    Shop::shop_name,
    Shop::item_ids,
    Shop::item,
    Shop::request_id
];

async fn connect(
    version: Option<rmcp::model::ProtocolVersion>,
) -> (
    RunningService<RoleClient, ClientConfig>,
    tokio::task::JoinHandle<()>,
) {
    let (server_end, client_end) = tokio::io::duplex(1 << 16);
    let server = ListingServer::new(
        TOOLS,
        Shop {
            name: "Corner shop",
        },
    )
    .with_list_options(ListOptions::default().with_page_size(3));
    let served = tokio::spawn(async move {
        let running = server.serve(tokio::io::split(server_end)).await.unwrap();
        let _ = running.waiting().await;
    });
    let mut info = ClientConfig::new(
        ClientCapabilities::default(),
        Implementation::new("test", "1"),
    );
    if let Some(version) = version {
        info = info.with_protocol_version(version);
    }
    let client = info.serve(tokio::io::split(client_end)).await.unwrap();
    (client, served)
}

async fn call(
    client: &RunningService<RoleClient, ClientConfig>,
    name: &'static str,
    arguments: Value,
) -> rmcp::model::CallToolResult {
    let mut request = CallToolRequestParams::new(name);
    if let Value::Object(arguments) = arguments {
        request = request.with_arguments(arguments);
    }
    client.call_tool(request).await.unwrap()
}

#[tokio::test]
async fn every_tool_arrives_page_by_page_and_every_call_goes_through_the_listing() {
    let (client, served) = connect(None).await;
    let mut names = Vec::new();
    let mut cursor = None;
    let mut pages = 0;
    loop {
        let page = client
            .list_tools(Some(PaginatedRequestParams::default().with_cursor(cursor)))
            .await
            .unwrap();
        names.extend(page.tools.iter().map(|tool| tool.name.to_string()));
        pages += 1;
        cursor = page.next_cursor;
        if cursor.is_none() {
            break;
        }
    }
    assert_eq!(names, ["shop_name", "item_ids", "item", "request_id"]);
    assert_eq!(pages, 2, "three a page");

    let name = call(&client, "shop_name", json!({})).await;
    assert_eq!(name.content[0].as_text().unwrap().text, "Corner shop");
    let item = call(&client, "item", json!({"id": 4})).await;
    assert_eq!(
        item.structured_content,
        Some(json!({"id": 4, "name": "pen"}))
    );
    let bad = call(&client, "item", json!({"id": "four"})).await;
    assert_eq!(bad.is_error, Some(true));
    assert!(bad.content[0].as_text().unwrap().text.contains("`id`"));
    let id = call(&client, "request_id", json!({})).await;
    assert!(
        id.content[0].as_text().unwrap().text.contains("Number"),
        "{id:?}"
    );

    // A name that is not listed is a protocol error, as rmcp's own routers answer it.
    match client.call_tool(CallToolRequestParams::new("nope")).await {
        Err(rmcp::ServiceError::McpError(error)) => assert_eq!(error.code.0, -32602),
        other => panic!("expected -32602, got {other:?}"),
    }
    client.cancel().await.unwrap();
    served.await.unwrap();
}

#[tokio::test]
async fn the_listing_and_the_results_agree_for_the_sessions_version() {
    for version in [
        rmcp::model::ProtocolVersion::V_2025_06_18,
        rmcp::model::ProtocolVersion::V_2025_11_25,
    ] {
        let (client, served) = connect(Some(version.clone())).await;
        let ours = ProtocolVersion::parse(version.as_str()).unwrap();
        let tools = client.list_all_tools().await.unwrap();
        let listed = tools.iter().find(|tool| tool.name == "item_ids").unwrap();
        let schema = Value::Object((*listed.output_schema.clone().unwrap()).clone());
        let expected: Value = serde_json::from_str(
            &TOOLS
                .get("item_ids")
                .unwrap()
                .output_schema_for(ours)
                .unwrap(),
        )
        .unwrap();
        assert_eq!(schema, expected, "{version}");
        assert_eq!(
            schema["type"], "object",
            "an object schema before 2026-07-28"
        );

        let result = call(&client, "item_ids", json!({})).await;
        let structured = result.structured_content.unwrap();
        assert_eq!(structured, json!({"result": [3, 5, 8]}));
        let validator = jsonschema::validator_for(&schema).unwrap();
        assert!(
            validator.is_valid(&structured),
            "{version}: {structured} against {schema}"
        );
        client.cancel().await.unwrap();
        served.await.unwrap();
    }
}

/// A tool with everything a version may list: an icon, `_meta`, task support, an output
/// schema that is not an object.
#[tool(
    read_only,
    open_world = false,
    icons = ["https://example.com/export.svg"],
    meta = r#"{"com.example/tier": "gold"}"#,
    task_support = "optional",
)]
fn export_report() -> Json<Vec<u8>> {
    Json(vec![1])
}

/// Nothing more stated.
#[tool(read_only)]
fn ping() {}

static EVERYTHING: Listing = tools![export_report, ping];

/// One JSON-RPC exchange on the raw pipe: the request written as a line, the answer to `id`
/// read back (notifications and other messages skipped).
async fn exchange(
    lines: &mut tokio::io::Lines<
        tokio::io::BufReader<tokio::io::ReadHalf<tokio::io::DuplexStream>>,
    >,
    writer: &mut tokio::io::WriteHalf<tokio::io::DuplexStream>,
    message: Value,
) -> Value {
    use tokio::io::AsyncWriteExt;
    writer
        .write_all(format!("{message}\n").as_bytes())
        .await
        .unwrap();
    let Some(id) = message.get("id") else {
        return Value::Null;
    };
    loop {
        let line = lines.next_line().await.unwrap().expect("an answer");
        let answer: Value = serde_json::from_str(&line).unwrap();
        if answer.get("id") == Some(id) {
            return answer;
        }
    }
}

#[tokio::test]
async fn tools_list_is_what_render_writes_for_each_version_and_the_servers_options() {
    use mcp_annotations::{listing::AnnotationsForm, listing::CacheScope};
    use tokio::io::AsyncBufReadExt;
    let options = ListOptions::default()
        .with_page_size(1)
        .with_annotations(AnnotationsForm::Explicit)
        .with_ttl_ms(60_000)
        .with_cache_scope(CacheScope::Public);
    for version in ProtocolVersion::ALL {
        let (server_end, client_end) = tokio::io::duplex(1 << 16);
        let server = ListingServer::new(EVERYTHING, ()).with_list_options(options);
        let served = tokio::spawn(async move {
            if let Ok(running) = server.serve(tokio::io::split(server_end)).await {
                let _ = running.waiting().await;
            }
        });
        let (reader, mut writer) = tokio::io::split(client_end);
        let mut lines = tokio::io::BufReader::new(reader).lines();
        // 2026-07-28 states the version on each request; earlier ones negotiate it first.
        let inline = version == ProtocolVersion::V2026_07_28;
        if !inline {
            let initialized = exchange(
                &mut lines,
                &mut writer,
                json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
                    "protocolVersion": version.as_str(), "capabilities": {},
                    "clientInfo": {"name": "raw", "version": "1"}}}),
            )
            .await;
            assert_eq!(
                initialized["result"]["protocolVersion"],
                version.as_str(),
                "{initialized}"
            );
            exchange(
                &mut lines,
                &mut writer,
                json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
            )
            .await;
        }
        let mut cursor: Option<String> = None;
        let mut pages = 0;
        loop {
            let mut request =
                json!({"jsonrpc": "2.0", "id": 2 + pages, "method": "tools/list", "params": {}});
            if let Some(cursor) = &cursor {
                request["params"]["cursor"] = json!(cursor);
            }
            if inline {
                request["params"]["_meta"] = json!({
                    "io.modelcontextprotocol/protocolVersion": version.as_str(),
                    "io.modelcontextprotocol/clientCapabilities": {},
                    "io.modelcontextprotocol/clientInfo": {"name": "raw", "version": "1"},
                });
            }
            let answer = exchange(&mut lines, &mut writer, request).await;
            let rendered = EVERYTHING
                .render(&options.with_version(version), cursor.as_deref())
                .unwrap();
            let rendered: Value = serde_json::from_str(&rendered).unwrap();
            assert_eq!(answer["result"], rendered, "{version}, page {pages}");
            pages += 1;
            match rendered["nextCursor"].as_str() {
                Some(next) => cursor = Some(next.to_owned()),
                None => break,
            }
        }
        assert_eq!(pages, 2, "{version}");
        // What the comparison covers: each version's own fields.
        let first = EVERYTHING
            .render(&options.with_version(version), None)
            .unwrap();
        let has = |field: &str| first.contains(field);
        assert_eq!(
            has(r#""taskSupport":"optional""#),
            version == ProtocolVersion::V2025_11_25
        );
        assert_eq!(
            has(r#""ttlMs":60000"#),
            version == ProtocolVersion::V2026_07_28
        );
        assert_eq!(
            has(r#""cacheScope":"public""#),
            version == ProtocolVersion::V2026_07_28
        );
        drop((lines, writer));
        served.abort();
    }
}
