//! A filtered `ListingServer` through rmcp's own client: the operator's filter and a
//! per-request one in listing and calling alike, the `listChanged` capability said truly, and
//! the notification after `set_filter`, once for any number of changes before the next list.

use std::sync::Arc;
use std::time::Duration;

use mcp_annotations::{Listing, listing::Filter, rmcp::ListingServer, tool, tools};
use rmcp::model::{CallToolRequestParams, ClientCapabilities, ClientConfig, Implementation};
use rmcp::service::{NotificationContext, RunningService};
use rmcp::{ClientHandler, RoleClient, RoleServer, ServiceExt};
use tokio::sync::mpsc;

/// Read an issue.
#[tool(read_only, open_world = false, toolset = "issues")]
fn get_issue(number: u64) -> u64 {
    number
}

/// Open an issue.
#[tool(destructive = false, open_world = false, toolset = "issues", scopes = ["repo"])]
fn create_issue(title: String) -> String {
    title
}

/// Read a file.
#[tool(read_only, open_world = false, toolset = "repos", scopes = ["repo"])]
fn get_file(path: String) -> String {
    path
}

static TOOLS: Listing = tools![get_issue, create_issue, get_file];

/// A client that hands on every `notifications/tools/list_changed`.
struct Watcher {
    name: &'static str,
    changed: mpsc::UnboundedSender<()>,
}

impl ClientHandler for Watcher {
    async fn on_tool_list_changed(&self, _: NotificationContext<RoleClient>) {
        let _ = self.changed.send(());
    }

    fn get_info(&self) -> ClientConfig {
        ClientConfig::new(
            ClientCapabilities::default(),
            Implementation::new(self.name, "1"),
        )
    }
}

type Client = RunningService<RoleClient, Watcher>;
type Server = RunningService<RoleServer, ListingServer<()>>;

async fn connect(
    server: ListingServer<()>,
    name: &'static str,
) -> (Client, Arc<Server>, mpsc::UnboundedReceiver<()>) {
    let (server_end, client_end) = tokio::io::duplex(1 << 16);
    let serving =
        tokio::spawn(async move { server.serve(tokio::io::split(server_end)).await.unwrap() });
    let (changed, changes) = mpsc::unbounded_channel();
    let client = Watcher { name, changed }
        .serve(tokio::io::split(client_end))
        .await
        .unwrap();
    (client, Arc::new(serving.await.unwrap()), changes)
}

async fn listed(client: &Client) -> Vec<String> {
    let tools = client.list_all_tools().await.unwrap();
    tools
        .into_iter()
        .map(|tool| tool.name.into_owned())
        .collect()
}

async fn call(
    client: &Client,
    name: &'static str,
    arguments: serde_json::Value,
) -> Result<String, String> {
    let mut request = CallToolRequestParams::new(name);
    if let serde_json::Value::Object(arguments) = arguments {
        request = request.with_arguments(arguments);
    }
    match client.call_tool(request).await {
        Ok(result) => Ok(format!("{:?}", result.content)),
        Err(error) => Err(error.to_string()),
    }
}

#[tokio::test]
async fn the_operators_read_only_mode_holds_in_listing_and_calling() {
    let server = ListingServer::new(TOOLS, ())
        .with_filter(
            Filter::new()
                .read_only()
                .tools(["get_issue", "create_issue"]),
        )
        .unwrap();
    let (client, _server, _) = connect(server, "client").await;
    assert_eq!(listed(&client).await, ["get_issue"]);
    let capability = client
        .peer_info()
        .unwrap()
        .capabilities
        .tools
        .clone()
        .unwrap();
    assert_eq!(capability.list_changed, Some(false));
    assert!(
        call(&client, "get_issue", serde_json::json!({"number": 7}))
            .await
            .is_ok()
    );
    // Hidden, even though named: answered as a tool that does not exist.
    let hidden = call(&client, "create_issue", serde_json::json!({"title": "x"}))
        .await
        .unwrap_err();
    let missing = call(&client, "no_such_tool", serde_json::json!({}))
        .await
        .unwrap_err();
    assert!(hidden.contains("unknown tool: create_issue"), "{hidden}");
    assert_eq!(
        hidden.replace("create_issue", "?"),
        missing.replace("no_such_tool", "?")
    );
}

#[tokio::test]
async fn a_request_filter_narrows_the_operators_and_never_widens_it() {
    // The operator offers the issues toolset; a request's filter comes from who asks (here
    // the client's name, where a real server reads its token's scopes).
    let server = || {
        ListingServer::new(TOOLS, ())
            .with_filter(Filter::new().toolsets(["issues"]))
            .unwrap()
            .with_request_filter(|context| {
                let reader = context
                    .peer
                    .peer_info()
                    .is_some_and(|info| info.client_info.name == "reader");
                if reader {
                    Filter::new().granted_scopes(Vec::<String>::new())
                } else {
                    // Asks for the repos toolset too: the operator's filter still holds.
                    Filter::new().toolsets(["issues", "repos"])
                }
            })
    };
    let (reader, _a, _) = connect(server(), "reader").await;
    assert_eq!(listed(&reader).await, ["get_issue"]);
    assert!(
        call(&reader, "create_issue", serde_json::json!({"title": "x"}))
            .await
            .is_err()
    );
    let (writer, _b, _) = connect(server(), "writer").await;
    assert_eq!(listed(&writer).await, ["get_issue", "create_issue"]);
    assert!(
        call(&writer, "get_file", serde_json::json!({"path": "a"}))
            .await
            .is_err()
    );
}

#[tokio::test]
async fn a_changing_filter_is_said_and_each_change_announced_once_before_the_next_list() {
    let server = ListingServer::new(TOOLS, ())
        .with_changing_filter(Filter::new().read_only())
        .unwrap();
    let (client, server, mut changes) = connect(server, "client").await;
    let capability = client
        .peer_info()
        .unwrap()
        .capabilities
        .tools
        .clone()
        .unwrap();
    assert_eq!(capability.list_changed, Some(true));
    assert_eq!(listed(&client).await, ["get_issue", "get_file"]);
    // Two changes before the client lists again: one notification.
    server.service().set_filter(Filter::new()).await.unwrap();
    server
        .service()
        .set_filter(Filter::new().toolsets(["issues"]))
        .await
        .unwrap();
    tokio::time::timeout(Duration::from_secs(5), changes.recv())
        .await
        .unwrap()
        .unwrap();
    assert!(
        tokio::time::timeout(Duration::from_millis(200), changes.recv())
            .await
            .is_err(),
        "one notification for both changes"
    );
    assert_eq!(listed(&client).await, ["get_issue", "create_issue"]);
    // Listed again: the next change is announced again.
    server
        .service()
        .set_filter(Filter::new().toolsets(["repos"]))
        .await
        .unwrap();
    tokio::time::timeout(Duration::from_secs(5), changes.recv())
        .await
        .unwrap()
        .unwrap();
    assert_eq!(listed(&client).await, ["get_file"]);
    // An unknown name is refused and changes nothing.
    let error = server
        .service()
        .set_filter(Filter::new().toolsets(["repo"]))
        .await
        .unwrap_err();
    assert!(
        error.to_string().contains("unknown toolset `repo`"),
        "{error}"
    );
    assert_eq!(listed(&client).await, ["get_file"]);
}

#[tokio::test]
async fn a_fixed_server_refuses_to_change_what_it_said_never_changes() {
    let server = ListingServer::new(TOOLS, ());
    let error = server
        .set_filter(Filter::new().read_only())
        .await
        .unwrap_err();
    assert!(error.to_string().contains("listChanged: false"), "{error}");
}

#[tokio::test]
async fn the_handler_form_serves_the_same_tools_through_the_same_filters() {
    let handler = ListingServer::new(TOOLS, ())
        .with_filter(Filter::new().read_only())
        .unwrap()
        .into_handler();
    let (server_end, client_end) = tokio::io::duplex(1 << 16);
    tokio::spawn(async move {
        if let Ok(running) = handler.serve(tokio::io::split(server_end)).await {
            let _ = running.waiting().await;
        }
    });
    let (changed, _changes) = mpsc::unbounded_channel();
    let client = Watcher {
        name: "client",
        changed,
    }
    .serve(tokio::io::split(client_end))
    .await
    .unwrap();
    assert_eq!(listed(&client).await, ["get_issue", "get_file"]);
    assert!(
        call(&client, "create_issue", serde_json::json!({"title": "x"}))
            .await
            .is_err()
    );
}

/// The handler form served by rmcp's Streamable HTTP service, one handler per session: two
/// sessions, each initialized on its own (each its own `Mcp-Session-Id`), list the same
/// filtered tools, and a hidden tool cannot be called in either.
#[tokio::test]
async fn the_handler_form_serves_two_http_sessions_the_same_filtered_tools() {
    use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
    use rmcp::transport::streamable_http_server::{
        StreamableHttpServerConfig, StreamableHttpService,
    };
    let mut config = StreamableHttpServerConfig::default();
    config.legacy_session_mode = true;
    let service = StreamableHttpService::new(
        || {
            Ok(ListingServer::new(TOOLS, ())
                .with_filter(Filter::new().read_only())
                .unwrap()
                .into_handler())
        },
        Arc::new(LocalSessionManager::default()),
        config,
    );
    let mut sessions = Vec::new();
    for client in ["first", "second"] {
        let (session, answer) = post(
            &service,
            None,
            serde_json::json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
                "protocolVersion": "2025-11-25", "capabilities": {},
                "clientInfo": {"name": client, "version": "1"}}}),
        )
        .await;
        assert_eq!(
            answer["result"]["protocolVersion"], "2025-11-25",
            "{answer}"
        );
        let session = session.expect("a session id for each initialize");
        post(
            &service,
            Some(&session),
            serde_json::json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
        )
        .await;
        sessions.push(session);
    }
    assert_ne!(sessions[0], sessions[1]);
    for session in &sessions {
        let (_, listed) = post(
            &service,
            Some(session),
            serde_json::json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list"}),
        )
        .await;
        let names: Vec<&str> = listed["result"]["tools"]
            .as_array()
            .unwrap_or_else(|| panic!("{listed}"))
            .iter()
            .map(|tool| tool["name"].as_str().unwrap())
            .collect();
        assert_eq!(names, ["get_issue", "get_file"], "session {session}");
        let (_, called) = post(
            &service,
            Some(session),
            serde_json::json!({"jsonrpc": "2.0", "id": 3, "method": "tools/call",
                "params": {"name": "create_issue", "arguments": {"title": "x"}}}),
        )
        .await;
        assert!(called.get("error").is_some(), "{called}");
    }
}

/// One JSON-RPC message posted to `service` in `session`: the session id the answer gave, and
/// the answer (the JSON-RPC response in its event stream; `null` for a notification).
async fn post<S, M>(
    service: &rmcp::transport::streamable_http_server::StreamableHttpService<S, M>,
    session: Option<&str>,
    message: serde_json::Value,
) -> (Option<String>, serde_json::Value)
where
    S: rmcp::ServerHandler + Send + 'static,
    M: rmcp::transport::streamable_http_server::session::SessionManager,
{
    use http_body_util::BodyExt;
    let mut request = hyper::Request::post("http://localhost/mcp")
        .header("host", "localhost")
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream");
    if let Some(session) = session {
        request = request
            .header("mcp-session-id", session)
            .header("mcp-protocol-version", "2025-11-25");
    }
    let body = http_body_util::Full::new(hyper::body::Bytes::from(message.to_string()));
    let response = service.handle(request.body(body).unwrap()).await;
    assert!(response.status().is_success(), "{}", response.status());
    let id = response
        .headers()
        .get("mcp-session-id")
        .and_then(|value| value.to_str().ok())
        .map(str::to_owned);
    if message.get("id").is_none() {
        return (id, serde_json::Value::Null);
    }
    // The event stream, read until the answer to this request (a stream may stay open).
    let mut body = response.into_body();
    let mut text = String::new();
    loop {
        let frame = tokio::time::timeout(Duration::from_secs(5), body.frame())
            .await
            .expect("an answer within 5 s")
            .expect("an answer before the stream ended")
            .unwrap();
        if let Ok(data) = frame.into_data() {
            text.push_str(&String::from_utf8_lossy(&data));
        }
        let answer = text
            .lines()
            .filter_map(|line| line.strip_prefix("data:"))
            .filter_map(|data| serde_json::from_str::<serde_json::Value>(data.trim()).ok())
            .find(|answer| answer.get("id") == message.get("id"));
        if let Some(answer) = answer {
            return (id, answer);
        }
    }
}

/// A request filter that names a tool the operator hides is answered exactly as one that
/// names a tool that does not exist (both offer nothing), in listing and calling: a client
/// cannot find hidden tools one name at a time.
#[tokio::test]
async fn a_request_filter_naming_a_hidden_tool_is_answered_as_one_naming_a_missing_tool() {
    let server = |named: &'static str| {
        ListingServer::new(TOOLS, ())
            .with_filter(Filter::new().exclude(["create_issue"]))
            .unwrap()
            .with_request_filter(move |_| Filter::new().tools([named]))
    };
    let (hidden, _a, _) = connect(server("create_issue"), "hidden").await;
    let (missing, _b, _) = connect(server("no_such_tool"), "missing").await;
    assert_eq!(listed(&hidden).await, Vec::<String>::new());
    assert_eq!(listed(&missing).await, Vec::<String>::new());
    let hidden_call = call(&hidden, "create_issue", serde_json::json!({"title": "x"}))
        .await
        .unwrap_err();
    let missing_call = call(&missing, "no_such_tool", serde_json::json!({}))
        .await
        .unwrap_err();
    assert_eq!(
        hidden_call.replace("create_issue", "?"),
        missing_call.replace("no_such_tool", "?")
    );
}

/// A handler served on its own (`into_handler`) that says its tools may change can change
/// them: `set_filter` on it, and its client is told.
#[tokio::test]
async fn a_changing_handler_served_alone_changes_its_filter_and_says_so() {
    let handler = ListingServer::new(TOOLS, ())
        .with_changing_filter(Filter::new().read_only())
        .unwrap()
        .into_handler();
    let (server_end, client_end) = tokio::io::duplex(1 << 16);
    let server = tokio::spawn(async move { handler.serve(server_end).await.unwrap() });
    let (sender, mut changes) = mpsc::unbounded_channel();
    let client = Watcher {
        name: "alone",
        changed: sender,
    }
    .serve(client_end)
    .await
    .unwrap();
    let server = server.await.unwrap();
    let capability = client
        .peer_info()
        .unwrap()
        .capabilities
        .tools
        .clone()
        .unwrap();
    assert_eq!(capability.list_changed, Some(true));
    assert_eq!(listed(&client).await, ["get_issue", "get_file"]);
    server
        .service()
        .set_filter(Filter::new().toolsets(["issues"]))
        .await
        .unwrap();
    tokio::time::timeout(Duration::from_secs(5), changes.recv())
        .await
        .unwrap()
        .unwrap();
    assert_eq!(listed(&client).await, ["get_issue", "create_issue"]);
}

/// rmcp looks a tool up outside any request (to check a call's headers): under a request
/// filter, a tool some requests may not see is not found that way, as a missing one is not.
#[test]
fn a_tool_looked_up_outside_a_request_is_not_told_from_a_missing_one() {
    use rmcp::ServerHandler;
    let filtered = ListingServer::new(TOOLS, ())
        .with_request_filter(|_| Filter::new().granted_scopes(Vec::<String>::new()))
        .into_handler();
    assert!(filtered.get_tool("create_issue").is_none());
    assert!(filtered.get_tool("no_such_tool").is_none());
    // Without one, the operator's filter decides.
    let plain = ListingServer::new(TOOLS, ())
        .with_filter(Filter::new().exclude(["create_issue"]))
        .unwrap()
        .into_handler();
    assert!(plain.get_tool("create_issue").is_none());
    assert!(plain.get_tool("get_issue").is_some());
}
