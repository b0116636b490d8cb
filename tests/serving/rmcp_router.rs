//! A server whose tools come from a listing, served by rmcp (`#[tool_handler]` over the
//! `ToolRouter` made from the listing) and driven by rmcp's own client in-process: listing,
//! calls of every kind of handler, bad arguments of each kind, an unknown tool, a panic, and
//! 1000 concurrent calls.

use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};

use mcp_annotations::{Json, Listing, Tool, tool, tools};
use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::model::CallToolRequestParams;
use rmcp::service::{RequestContext, RunningService};
use rmcp::{RoleClient, RoleServer, ServerHandler, ServiceExt, tool_handler};
use serde_json::{Value, json};

#[derive(Debug, serde::Serialize, serde::Deserialize, schemars::JsonSchema)]
pub struct Note {
    pub id: u64,
    pub title: String,
}

pub struct Notes {
    notes: Mutex<Vec<Note>>,
    next_id: AtomicU64,
    router: ToolRouter<Notes>,
}

impl Notes {
    fn new() -> Self {
        Notes {
            notes: Mutex::new(Vec::new()),
            next_id: AtomicU64::new(1),
            router: TOOLS.into(),
        }
    }

    /// List every saved note with its id and title.
    #[tool(
        read_only,
        destructive = false,
        open_world = false,
        title = "List notes"
    )]
    fn list_notes(&self) -> Json<Vec<Note>> {
        let notes = self.notes.lock().unwrap();
        Json(
            notes
                .iter()
                .map(|n| Note {
                    id: n.id,
                    title: n.title.clone(),
                })
                .collect(),
        )
    }

    /// Save a new note.
    #[tool(
        read_only = false,
        destructive = false,
        open_world = false,
        title = "Add note"
    )]
    async fn add_note(
        &self,
        /// Short title for the note
        title: String,
        #[context] request: RequestContext<RoleServer>,
    ) -> Json<Note> {
        // The request context is there for a handler that asks for it.
        let _ = request.id;
        let id = self.next_id.fetch_add(1, Ordering::SeqCst);
        self.notes.lock().unwrap().push(Note {
            id,
            title: title.clone(),
        });
        Json(Note { id, title })
    }

    /// Permanently delete a note by id.
    #[tool(
        read_only = false,
        destructive,
        idempotent,
        open_world = false,
        title = "Delete note"
    )]
    fn delete_note(&self, note_id: u64) -> Result<String, String> {
        let mut notes = self.notes.lock().unwrap();
        let at = notes
            .iter()
            .position(|n| n.id == note_id)
            .ok_or(format!("no note {note_id}"))?;
        Ok(format!("deleted {}", notes.remove(at).title))
    }

    /// Fail in the worst way.
    #[tool(read_only, title = "Crash")]
    fn crash(&self) -> String {
        panic!("the disk caught fire")
    }

    /// Fail later, with an error whose message cannot be written.
    #[tool(read_only, title = "Crash later")]
    async fn crash_later(&self) -> Result<String, Unprintable> {
        Err(Unprintable)
    }
}

/// An error whose `Display` panics: the panic comes after the handler has returned.
pub struct Unprintable;

impl std::fmt::Display for Unprintable {
    fn fmt(&self, _: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        panic!("the message caught fire")
    }
}

/// Add two small numbers, without the server's state.
#[tool(read_only, open_world = false, title = "Add numbers")]
fn add_numbers(a: u8, b: Option<u8>) -> u16 {
    u16::from(a) + u16::from(b.unwrap_or(0))
}

static TOOLS: Listing<Notes> = tools![
    Notes::list_notes,
    Notes::add_note,
    Notes::delete_note,
    Notes::crash,
    Notes::crash_later,
    add_numbers,
];

#[tool_handler(router = self.router)]
impl ServerHandler for Notes {}

async fn connect() -> RunningService<RoleClient, ()> {
    let (server_end, client_end) = tokio::io::duplex(1 << 20);
    tokio::spawn(async move {
        let running = Notes::new()
            .serve(tokio::io::split(server_end))
            .await
            .unwrap();
        let _ = running.waiting().await;
    });
    ().serve(tokio::io::split(client_end)).await.unwrap()
}

fn params(name: &str, arguments: Value) -> CallToolRequestParams {
    CallToolRequestParams::new(name.to_owned())
        .with_arguments(arguments.as_object().cloned().unwrap())
}

async fn call(
    client: &RunningService<RoleClient, ()>,
    name: &str,
    arguments: Value,
) -> (bool, String, Option<Value>) {
    let result = client.call_tool(params(name, arguments)).await.unwrap();
    let text = result
        .content
        .iter()
        .filter_map(|c| c.as_text().map(|t| t.text.clone()))
        .collect::<Vec<_>>()
        .join("\n");
    (
        result.is_error == Some(true),
        text,
        result.structured_content,
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_tool_is_listed_and_called_through_rmcp() {
    let client = connect().await;

    let listed = client.list_all_tools().await.unwrap();
    let mut expected = TOOLS.to_rmcp();
    expected.sort_by(|a, b| a.name.cmp(&b.name)); // rmcp's router lists by name
    assert_eq!(listed, expected);
    let add = listed.iter().find(|t| t.name == "add_note").unwrap();
    let ours: Tool = serde_json::from_value(serde_json::to_value(add).unwrap()).unwrap();
    assert_eq!(&ours, TOOLS.get("add_note").unwrap());
    assert_eq!(
        ours.input_schema.to_value()["required"],
        json!(["title"]),
        "the context is not an input"
    );

    let (error, text, structured) = call(&client, "add_note", json!({"title": "Milk"})).await;
    assert!(!error);
    assert_eq!(structured, Some(json!({"id": 1, "title": "Milk"})));
    assert_eq!(text, r#"{"id":1,"title":"Milk"}"#);
    let (_, _, structured) = call(&client, "list_notes", json!({})).await;
    assert_eq!(
        structured,
        Some(json!({"result": [{"id": 1, "title": "Milk"}]}))
    );
    assert_eq!(
        call(&client, "delete_note", json!({"note_id": 1})).await.1,
        "deleted Milk"
    );
    let (error, text, _) = call(&client, "delete_note", json!({"note_id": 1})).await;
    assert!(
        error && text == "no note 1",
        "an Err is a failed result with its message"
    );
    assert_eq!(
        call(&client, "add_numbers", json!({"a": 200, "b": 55}))
            .await
            .1,
        "255"
    );
    assert_eq!(
        call(&client, "add_numbers", json!({"a": 1, "b": null}))
            .await
            .1,
        "1"
    );

    // A panic is a failed result, and the server goes on serving.
    let (error, text, _) = call(&client, "crash", json!({})).await;
    assert!(error && text.contains("the disk caught fire"), "{text}");
    // So is a panic while the result is made, and the request is answered.
    let (error, text, _) = call(&client, "crash_later", json!({})).await;
    assert!(error && text.contains("the message caught fire"), "{text}");
    assert_eq!(call(&client, "add_numbers", json!({"a": 1})).await.1, "1");

    client.cancel().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_arguments_are_failed_results_that_say_what_was_expected() {
    let client = connect().await;
    for (name, arguments, message) in [
        (
            "add_numbers",
            json!({}),
            "missing argument `a`: expected an integer from 0 to 255",
        ),
        (
            "add_numbers",
            json!({"a": "1"}),
            "invalid argument `a`: expected an integer from 0 to 255, found \"1\"",
        ),
        (
            "add_numbers",
            json!({"a": 256}),
            "invalid argument `a`: expected an integer from 0 to 255, found 256",
        ),
        ("add_numbers", json!({"a": -1}), "found -1"),
        ("add_numbers", json!({"a": 1.5}), "found 1.5"),
        (
            "add_numbers",
            json!({"a": 1, "c": 2}),
            "unknown argument `c`: this tool takes `a`, `b`",
        ),
        (
            "add_numbers",
            json!({"a": 1, "b": "x"}),
            "invalid argument `b`: expected an integer from 0 to 255 or null",
        ),
        (
            "delete_note",
            json!({"note_id": -4}),
            "invalid argument `note_id`",
        ),
        (
            "list_notes",
            json!({"all": true}),
            "unknown argument `all`: this tool takes no arguments",
        ),
    ] {
        let (error, text, _) = call(&client, name, arguments.clone()).await;
        assert!(error, "{name} {arguments}");
        assert!(text.contains(message), "{name} {arguments}: {text}");
    }
    // Every mistake at once.
    let (_, text, _) = call(&client, "add_numbers", json!({"a": "x", "b": 300, "z": 1})).await;
    assert_eq!(text.lines().count(), 3, "{text}");

    // An unknown tool is a protocol error.
    let error = client
        .call_tool(params("rename_note", json!({})))
        .await
        .unwrap_err();
    match error {
        rmcp::ServiceError::McpError(error) => assert_eq!(error.code.0, -32602),
        other => panic!("expected invalid params, got {other:?}"),
    }
    client.cancel().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_thousand_concurrent_calls_are_neither_lost_nor_mixed_up() {
    let client = std::sync::Arc::new(connect().await);
    let calls = (0..1000u32).map(|i| {
        let client = client.clone();
        tokio::spawn(async move {
            let (a, b) = ((i % 200) as u8, (i / 200) as u8);
            let (error, text, _) = call(&client, "add_numbers", json!({"a": a, "b": b})).await;
            assert!(!error);
            assert_eq!(text, (u16::from(a) + u16::from(b)).to_string(), "call {i}");
            let (_, _, structured) =
                call(&client, "add_note", json!({"title": format!("note {i}")})).await;
            structured.unwrap()["title"].as_str().unwrap().to_owned()
        })
    });
    let mut titles: Vec<String> = Vec::new();
    for call in calls {
        titles.push(call.await.unwrap());
    }
    titles.sort();
    let mut expected: Vec<String> = (0..1000).map(|i| format!("note {i}")).collect();
    expected.sort();
    assert_eq!(titles, expected);
    let (_, _, listed) = call(&client, "list_notes", json!({})).await;
    assert_eq!(listed.unwrap()["result"].as_array().unwrap().len(), 1000);
}
