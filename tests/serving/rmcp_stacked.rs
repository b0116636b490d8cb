//! Keeping rmcp's own macros: `#[mcp_annotations::tool(...)]` above rmcp's `#[tool]` hands the
//! checked hints, title and description to it, so rmcp's listing carries them, with no table
//! of names. Driven by rmcp's own client in-process.

use std::sync::Mutex;

use mcp_annotations::ToolAnnotations;
use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::CallToolRequestParams;
use rmcp::{ServerHandler, ServiceExt, tool, tool_handler, tool_router};
use serde_json::json;

#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct AddNote {
    /// Short title for the note
    pub title: String,
}

#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct DeleteNote {
    /// Position of the note, from list_notes
    pub at: usize,
}

pub struct Notes {
    notes: Mutex<Vec<String>>,
    tool_router: ToolRouter<Notes>,
}

#[tool_router]
impl Notes {
    fn new() -> Self {
        Notes {
            notes: Mutex::new(Vec::new()),
            tool_router: Self::tool_router(),
        }
    }

    /// List every saved note with its id and title.
    #[mcp_annotations::tool(
        read_only,
        destructive = false,
        open_world = false,
        title = "List notes"
    )]
    #[tool]
    fn list_notes(&self) -> String {
        self.notes.lock().unwrap().join("\n")
    }

    /// Save a new note.
    #[mcp_annotations::tool(http = "POST", open_world = false, title = "Add note")]
    #[rmcp::tool(name = "add_note")]
    async fn add_note(&self, Parameters(AddNote { title }): Parameters<AddNote>) -> String {
        self.notes.lock().unwrap().push(title);
        "saved".to_owned()
    }

    #[mcp_annotations::tool(
        read_only = false,
        destructive,
        idempotent,
        open_world = false,
        title = "Delete note",
        description = "Permanently delete a note by its position. This cannot be undone."
    )]
    #[tool]
    fn delete_note(&self, Parameters(DeleteNote { at }): Parameters<DeleteNote>) -> String {
        let mut notes = self.notes.lock().unwrap();
        if at < notes.len() {
            notes.remove(at)
        } else {
            format!("no note {at}")
        }
    }
}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for Notes {}

#[test]
fn the_checked_hints_are_constants_too() {
    assert_eq!(
        Notes::LIST_NOTES_ANNOTATIONS,
        ToolAnnotations::new()
            .with_title("List notes")
            .with_read_only(true)
            .with_destructive(false)
            .with_open_world(false)
    );
    // `http = "POST"` resolved before it reaches rmcp.
    assert_eq!(Notes::ADD_NOTE_ANNOTATIONS.idempotent_hint, Some(false));
}

#[tokio::test]
async fn rmcp_lists_the_checked_hints_titles_and_descriptions() {
    let (server_end, client_end) = tokio::io::duplex(1 << 16);
    tokio::spawn(async move {
        let running = Notes::new()
            .serve(tokio::io::split(server_end))
            .await
            .unwrap();
        let _ = running.waiting().await;
    });
    let client = ().serve(tokio::io::split(client_end)).await.unwrap();

    let tools = client.list_all_tools().await.unwrap();
    let find = |name: &str| tools.iter().find(|t| t.name == name).unwrap().clone();

    let list = find("list_notes");
    assert_eq!(list.title.as_deref(), Some("List notes"));
    assert_eq!(
        list.description.as_deref(),
        Some("List every saved note with its id and title.")
    );
    assert_eq!(
        ToolAnnotations::from(list.annotations.unwrap()),
        Notes::LIST_NOTES_ANNOTATIONS
    );

    let add = find("add_note");
    assert_eq!(
        add.description.as_deref(),
        Some("Save a new note."),
        "the doc comment survives"
    );
    assert_eq!(
        ToolAnnotations::from(add.annotations.unwrap()),
        Notes::ADD_NOTE_ANNOTATIONS
    );

    let delete = find("delete_note");
    assert_eq!(
        delete.description.as_deref(),
        Some("Permanently delete a note by its position. This cannot be undone.")
    );
    assert_eq!(
        ToolAnnotations::from(delete.annotations.unwrap()),
        Notes::DELETE_NOTE_ANNOTATIONS
    );

    // rmcp calls its own handlers.
    let add = CallToolRequestParams::new("add_note")
        .with_arguments(json!({"title": "Milk"}).as_object().cloned().unwrap());
    client.call_tool(add).await.unwrap();
    let listed = client
        .call_tool(CallToolRequestParams::new("list_notes"))
        .await
        .unwrap();
    assert_eq!(listed.content[0].as_text().unwrap().text, "Milk");
    client.cancel().await.unwrap();
}
