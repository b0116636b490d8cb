//! `tools/resolve` served by `ListingServer`, as the tool-resolution draft states it, on every
//! protocol version: the extension in the server's capabilities, the marker on the resolvable
//! tools only for a client that declared it (in `initialize` before 2026-07-28, on each request
//! from then), each resolution's result exactly the draft's (valid against its schema), and
//! its errors: -32021 undeclared, -32602 for a tool that is not resolvable or arguments the
//! call would refuse. Spoken on the raw pipe, as any client's bytes, and through rmcp's own
//! client.

use std::path::PathBuf;

use mcp_annotations::host::Trust;
use mcp_annotations::resolution::{Fallback, Resolutions, StaleError};
use mcp_annotations::rmcp::ListingServer;
use mcp_annotations::{Listing, ProtocolVersion, ToolSchema, tool, tools};
use rmcp::ServiceExt;
use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt};

/// What to do with a note.
#[derive(serde::Deserialize, ToolSchema, Debug)]
#[serde(rename_all = "lowercase")]
pub enum Action {
    /// Read it.
    #[hints(read_only, open_world = false)]
    Read,
    /// Add a line at its end.
    #[hints(destructive = false, open_world = false)]
    Append,
    /// Delete it.
    #[hints(destructive, idempotent, open_world = false)]
    Delete,
}

/// The server's state.
pub struct Notes;

impl Notes {
    /// Read, append to or delete a note.
    #[tool(resolve_by = action, title = "Manage note")]
    fn manage_note(&self, id: u64, action: Action) -> String {
        format!("{action:?} {id}")
    }

    /// Count the notes.
    #[tool(read_only, open_world = false)]
    fn count_notes(&self) -> u64 {
        3
    }
}

static TOOLS: Listing<Notes> = tools![Notes::manage_note, Notes::count_notes];

const EXTENSION: &str = "io.modelcontextprotocol/tool-resolution";

type Lines = tokio::io::Lines<tokio::io::BufReader<tokio::io::ReadHalf<tokio::io::DuplexStream>>>;
type Writer = tokio::io::WriteHalf<tokio::io::DuplexStream>;

/// A session on the raw pipe: `initialize` first where the version has it, declaring the
/// extension or not.
struct Session {
    lines: Lines,
    writer: Writer,
    version: ProtocolVersion,
    declared: bool,
    next: u64,
    capabilities: Value,
    served: tokio::task::JoinHandle<()>,
}

/// `listing` served by a `ListingServer` in-process: the client's end of the pipe, and the
/// server's task.
fn serve(listing: Listing<Notes>) -> (tokio::io::DuplexStream, tokio::task::JoinHandle<()>) {
    let (server_end, client_end) = tokio::io::duplex(1 << 16);
    let served = tokio::spawn(async move {
        if let Ok(running) = ListingServer::new(listing, Notes)
            .serve(tokio::io::split(server_end))
            .await
        {
            let _ = running.waiting().await;
        }
    });
    (client_end, served)
}

impl Session {
    async fn open(version: ProtocolVersion, declared: bool) -> Session {
        Session::open_on(TOOLS, version, declared).await
    }

    /// A session with a server of `listing`.
    async fn open_on(listing: Listing<Notes>, version: ProtocolVersion, declared: bool) -> Session {
        let (client_end, served) = serve(listing);
        let (reader, writer) = tokio::io::split(client_end);
        let lines = tokio::io::BufReader::new(reader).lines();
        let mut session = Session {
            lines,
            writer,
            version,
            declared,
            next: 1,
            capabilities: Value::Null,
            served,
        };
        if !version.eq(&ProtocolVersion::V2026_07_28) {
            let capabilities = session.client_capabilities();
            let initialized = session
                .request(
                    "initialize",
                    json!({"protocolVersion": version.as_str(), "capabilities": capabilities,
                           "clientInfo": {"name": "raw", "version": "1"}}),
                )
                .await;
            session.capabilities = initialized["result"]["capabilities"].clone();
            session
                .send(json!({"jsonrpc": "2.0", "method": "notifications/initialized"}))
                .await;
        }
        session
    }

    fn client_capabilities(&self) -> Value {
        if self.declared {
            json!({"extensions": {EXTENSION: {}}})
        } else {
            json!({})
        }
    }

    async fn send(&mut self, message: Value) {
        self.writer
            .write_all(format!("{message}\n").as_bytes())
            .await
            .unwrap();
    }

    /// A request and its answer; for 2026-07-28 with the per-request `_meta`.
    async fn request(&mut self, method: &str, mut params: Value) -> Value {
        if self.version.eq(&ProtocolVersion::V2026_07_28) && method != "initialize" {
            params["_meta"] = json!({
                "io.modelcontextprotocol/protocolVersion": self.version.as_str(),
                "io.modelcontextprotocol/clientCapabilities": self.client_capabilities(),
                "io.modelcontextprotocol/clientInfo": {"name": "raw", "version": "1"},
            });
        }
        let id = self.next;
        self.next += 1;
        self.send(json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}))
            .await;
        loop {
            let line = self.lines.next_line().await.unwrap().expect("an answer");
            let answer: Value = serde_json::from_str(&line).unwrap();
            if answer.get("id") == Some(&json!(id)) {
                return answer;
            }
        }
    }

    async fn resolve(&mut self, name: &str, arguments: Value) -> Value {
        self.request(
            "tools/resolve",
            json!({"name": name, "arguments": arguments}),
        )
        .await
    }
}

/// A validator for one definition of the draft's schema (shipped in `tests/schemas/`).
fn draft(definition: &str) -> jsonschema::Validator {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/schemas/tool-resolution/tool-resolution.schema.json");
    let schema: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    jsonschema::validator_for(&json!({
        "$schema": schema["$schema"],
        "$ref": format!("#/$defs/{definition}"),
        "$defs": schema["$defs"],
    }))
    .unwrap()
}

#[tokio::test]
async fn every_version_lists_marks_and_resolves_as_the_draft_says() {
    let result_schema = draft("ResolveToolResult");
    for version in ProtocolVersion::ALL {
        let mut session = Session::open(version, true).await;
        if !version.eq(&ProtocolVersion::V2026_07_28) {
            assert_eq!(
                session.capabilities["extensions"][EXTENSION],
                json!({}),
                "{version}: {}",
                session.capabilities
            );
        }
        let listed = session.request("tools/list", json!({})).await;
        let tools = listed["result"]["tools"].as_array().unwrap().clone();
        assert_eq!(
            tools[0]["_meta"][EXTENSION],
            json!({"resolvable": true}),
            "{version}: {listed}"
        );
        assert!(tools[1].get("_meta").is_none(), "{version}: {listed}");
        assert_eq!(tools[0]["annotations"]["destructiveHint"], true);
        for (action, read_only, destructive) in [
            ("read", true, false),
            ("append", false, false),
            ("delete", false, true),
        ] {
            let answer = session
                .resolve("manage_note", json!({"id": 1, "action": action}))
                .await;
            let result = &answer["result"];
            assert_eq!(
                result,
                &json!({
                    "resultType": "complete",
                    "name": "manage_note",
                    "annotations": {
                        "readOnlyHint": read_only,
                        "destructiveHint": destructive,
                        "idempotentHint": action != "append",
                        "openWorldHint": false,
                    }
                }),
                "{version} {action}: {answer}"
            );
            assert!(result_schema.is_valid(result), "{result}");
        }
        // Not resolvable, an unknown tool, arguments the call refuses: -32602.
        for (name, arguments) in [
            ("count_notes", json!({})),
            ("no_such_tool", json!({})),
            ("manage_note", json!({"id": 1, "action": "move"})),
            ("manage_note", json!({"action": "read"})),
        ] {
            let answer = session.resolve(name, arguments).await;
            assert_eq!(
                answer["error"]["code"], -32602,
                "{version} {name}: {answer}"
            );
        }
        // Calls are unchanged.
        let called = session
            .request(
                "tools/call",
                json!({"name": "manage_note", "arguments": {"id": 2, "action": "delete"}}),
            )
            .await;
        assert_eq!(
            called["result"]["content"][0]["text"], "Delete 2",
            "{called}"
        );
        session.served.abort();
    }
}

#[tokio::test]
async fn a_client_that_did_not_declare_the_extension_sees_no_marker_and_is_refused() {
    for version in ProtocolVersion::ALL {
        let mut session = Session::open(version, false).await;
        let listed = session.request("tools/list", json!({})).await;
        let tools = listed["result"]["tools"].as_array().unwrap();
        assert!(
            tools.iter().all(|tool| tool.get("_meta").is_none()),
            "{version}: {listed}"
        );
        let answer = session
            .resolve("manage_note", json!({"id": 1, "action": "read"}))
            .await;
        assert_eq!(answer["error"]["code"], -32021, "{version}: {answer}");
        assert_eq!(
            answer["error"]["data"]["requiredCapabilities"]["extensions"][EXTENSION],
            json!({}),
            "{answer}"
        );
        // The capability is checked first: malformed params from such a client are -32021 too.
        let malformed = session
            .request("tools/resolve", json!({"name": "manage_note"}))
            .await;
        assert_eq!(malformed["error"]["code"], -32021, "{version}: {malformed}");
        session.served.abort();
    }
}

#[tokio::test]
async fn a_server_with_no_resolvable_tool_has_no_such_method() {
    static PLAIN: Listing<Notes> = tools![Notes::count_notes];
    let mut session = Session::open_on(PLAIN, ProtocolVersion::V2026_07_28, true).await;
    let answer = session.resolve("count_notes", json!({})).await;
    assert_eq!(answer["error"]["code"], -32601, "{answer}");
    // A host that took the tool for resolvable falls back on the listed hints, as the draft
    // says.
    let tool = Notes::COUNT_NOTES_TOOL.with_resolvable(true);
    let resolutions = Resolutions::new();
    let pending = resolutions
        .request(&tool, &serde_json::Map::new(), ProtocolVersion::V2026_07_28)
        .unwrap();
    let fallback = resolutions
        .answer(&tool, pending, Err(&answer["error"]))
        .unwrap();
    assert_eq!(fallback.fallback(), Some(&Fallback::MethodNotFound));
    assert!(fallback.annotations().read_only());
    session.served.abort();
}

/// rmcp's own client, declaring the extension in `initialize`, sends the custom request and
/// reads the draft's result.
#[tokio::test]
async fn rmcps_client_resolves_a_call() {
    use rmcp::model::{
        ClientCapabilities, ClientConfig, ClientRequest, CustomRequest, Implementation,
        ServerResult,
    };
    let (client_end, served) = serve(TOOLS);
    let mut capabilities = ClientCapabilities::default();
    capabilities.extensions = Some(
        [(EXTENSION.to_owned(), serde_json::Map::new())]
            .into_iter()
            .collect(),
    );
    let client = ClientConfig::new(capabilities, Implementation::new("test", "1"))
        .serve(tokio::io::split(client_end))
        .await
        .unwrap();
    let info = client.peer_info().unwrap();
    assert!(
        info.capabilities
            .extensions
            .as_ref()
            .is_some_and(|extensions| extensions.contains_key(EXTENSION))
    );
    // The host's side: the listed tool, resolved before each call by the draft's client
    // rules, through `Resolutions`.
    let listed = client.list_all_tools().await.unwrap();
    let tool: mcp_annotations::Tool =
        serde_json::from_value(serde_json::to_value(&listed[0]).unwrap()).unwrap();
    let session = Resolutions::new();
    let hints = |action: &str| {
        let arguments = json!({"id": 7, "action": action})
            .as_object()
            .cloned()
            .unwrap();
        let client = &client;
        let session = &session;
        let tool = &tool;
        async move {
            let pending = session
                .request(
                    tool,
                    &arguments,
                    mcp_annotations::ProtocolVersion::V2025_11_25,
                )
                .expect("manage_note is marked resolvable");
            let custom = CustomRequest::new("tools/resolve", Some(pending.params()));
            let answer = client
                .send_request(ClientRequest::CustomRequest(custom))
                .await
                .unwrap();
            let ServerResult::CustomResult(result) = answer else {
                panic!("not a custom result: {answer:?}");
            };
            (
                session.answer(tool, pending, Ok(&result.0)).unwrap(),
                arguments,
            )
        }
    };
    let (read, arguments) = hints("read").await;
    assert!(read.is_resolved());
    // Acted on as a host would: a trusted server's read needs no approval, the listing's
    // worst case would.
    assert!(!read.for_host(Trust::Trusted).needs_approval());
    assert!(tool.annotations.for_host(Trust::Trusted).needs_approval());
    // Its title is the listing's.
    assert_eq!(read.annotations().title.as_deref(), Some("Manage note"));
    assert!(
        read.for_call(&session, "manage_note", &arguments)
            .unwrap()
            .read_only()
    );
    let (delete, arguments) = hints("delete").await;
    assert!(delete.for_host(Trust::Trusted).needs_approval());
    // The tools changed since: the resolution is stale.
    session.list_changed();
    assert_eq!(
        delete.for_call(&session, "manage_note", &arguments),
        Err(StaleError::ToolsChanged)
    );
    drop(client);
    served.abort();
}
