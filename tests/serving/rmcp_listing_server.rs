//! `ListingServer`: a listing served to rmcp's own client at the listing's cost, in-process.
//! Every tool arrives page by page, calls go through the listing with the state and rmcp's
//! request context, and what the listing lists and what the calls return agree for the
//! session's protocol version.

use annotations::{Json, ListOptions, Listing, ListingServer, ProtocolVersion, tool, tools};
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
