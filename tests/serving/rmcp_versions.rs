//! A peer's protocol version, read by one rule whichever way it arrives: negotiated at
//! `initialize` by rmcp's client (a version newer than any this crate knows included), or
//! stated by each request of a 2026-07-28 session. What the session is told and how its tools
//! are written follow the same reading.

use std::time::Duration;

use mcp_annotations::{Json, Listing, listing::Filter, rmcp::ListingServer, tool, tools};
use rmcp::model::{ClientCapabilities, ClientConfig, Implementation, ProtocolVersion};
use rmcp::service::{ClientLifecycleMode, ClientServiceExt, NotificationContext};
use rmcp::{ClientHandler, RoleClient, ServiceExt};
use tokio::sync::mpsc;

/// Read every item id.
#[tool(read_only, open_world = false, toolset = "items")]
fn item_ids() -> Json<Vec<u64>> {
    Json(vec![1, 2])
}

/// Remove an item.
#[tool(destructive, idempotent, open_world = false, toolset = "admin")]
fn remove_item(id: u64) -> String {
    format!("removed {id}")
}

static TOOLS: Listing = tools![item_ids, remove_item];

/// A client asking for `version`, that hands on every `notifications/tools/list_changed`.
struct Client {
    version: ProtocolVersion,
    changed: mpsc::UnboundedSender<()>,
}

impl ClientHandler for Client {
    async fn on_tool_list_changed(&self, _: NotificationContext<RoleClient>) {
        let _ = self.changed.send(());
    }

    fn get_info(&self) -> ClientConfig {
        ClientConfig::new(ClientCapabilities::default(), Implementation::new("c", "1"))
            .with_protocol_version(self.version.clone())
    }
}

fn version(text: &str) -> ProtocolVersion {
    serde_json::from_value(serde_json::json!(text)).unwrap()
}

#[tokio::test]
async fn a_client_asking_for_an_unknown_newer_version_is_one_session_of_the_negotiated_one() {
    let server = ListingServer::new(TOOLS, ())
        .with_changing_filter(Filter::new())
        .unwrap();
    let (server_end, client_end) = tokio::io::duplex(1 << 16);
    let serving =
        tokio::spawn(async move { server.serve(tokio::io::split(server_end)).await.unwrap() });
    let (changed, mut changes) = mpsc::unbounded_channel();
    let client = Client {
        version: version("2099-01-01"),
        changed,
    }
    .serve(tokio::io::split(client_end))
    .await
    .unwrap();
    let server = serving.await.unwrap();
    // rmcp negotiates a version it has an `initialize` for.
    let negotiated = client.peer_info().unwrap().protocol_version.clone();
    assert!(negotiated.has_initialize(), "{negotiated}");
    let negotiated = mcp_annotations::ProtocolVersion::of_peer(negotiated.as_str());
    // The tools are written in that version's form: an array output schema inside
    // `{"result": ...}` before 2026-07-28.
    let tools = client.list_all_tools().await.unwrap();
    let ids = tools.iter().find(|tool| tool.name == "item_ids").unwrap();
    let schema = serde_json::Value::Object((*ids.output_schema.clone().unwrap()).clone());
    assert_eq!(
        schema["type"] == "object",
        negotiated < mcp_annotations::ProtocolVersion::V2026_07_28,
        "{negotiated}: {schema}"
    );
    // And the session is told of a change as that version is.
    server
        .service()
        .set_filter(Filter::new().toolsets(["items"]))
        .await
        .unwrap();
    let told = tokio::time::timeout(Duration::from_secs(2), changes.recv())
        .await
        .is_ok();
    assert_eq!(
        told,
        negotiated < mcp_annotations::ProtocolVersion::V2026_07_28,
        "{negotiated}"
    );
    let names: Vec<String> = client
        .list_all_tools()
        .await
        .unwrap()
        .into_iter()
        .map(|tool| tool.name.into_owned())
        .collect();
    assert_eq!(names, ["item_ids"]);
}

#[tokio::test]
async fn a_2026_07_28_session_states_its_version_on_each_request() {
    let server = ListingServer::new(TOOLS, ());
    let (server_end, client_end) = tokio::io::duplex(1 << 16);
    tokio::spawn(async move {
        if let Ok(running) = server.serve(tokio::io::split(server_end)).await {
            let _ = running.waiting().await;
        }
    });
    let (changed, _changes) = mpsc::unbounded_channel();
    // No `initialize`: rmcp's client discovers the server and states its version, its
    // capabilities and itself in each request's `_meta`.
    let client = Client {
        version: ProtocolVersion::V_2026_07_28,
        changed,
    }
    .serve_with_lifecycle(
        tokio::io::split(client_end),
        ClientLifecycleMode::Discover {
            preferred_versions: vec![ProtocolVersion::V_2026_07_28],
        },
    )
    .await
    .unwrap();
    let tools = client.list_all_tools().await.unwrap();
    let ids = tools.iter().find(|tool| tool.name == "item_ids").unwrap();
    let schema = serde_json::Value::Object((*ids.output_schema.clone().unwrap()).clone());
    // 2026-07-28 takes an output schema whose root is an array as it is.
    assert_eq!(schema["type"], "array", "{schema}");
}
