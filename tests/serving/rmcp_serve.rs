//! A listing served by an rmcp server and read by rmcp's own client, in-process: every tool
//! arrives as the listing describes it, page by page, and a forged cursor gets -32602.

use annotations_tests::tools::ALL;
use mcp_annotations::Tool;
use rmcp::model::{ListToolsResult, PaginatedRequestParams, ServerCapabilities, ServerConfig};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler, ServiceExt};

/// A server whose `tools/list` is the shared listing, two tools a page.
struct Server;

impl ServerHandler for Server {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
    }

    async fn list_tools(
        &self,
        request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        let cursor = request
            .as_ref()
            .and_then(|request| request.cursor.as_deref());
        ALL.to_rmcp_page(cursor, 2)
    }
}

#[tokio::test]
async fn rmcp_clients_see_every_tool_as_listed() {
    let (server_end, client_end) = tokio::io::duplex(1 << 16);
    let (server_read, server_write) = tokio::io::split(server_end);
    let (client_read, client_write) = tokio::io::split(client_end);
    let server = tokio::spawn(async move {
        let running = Server.serve((server_read, server_write)).await.unwrap();
        running.waiting().await.unwrap();
    });
    let client = ().serve((client_read, client_write)).await.unwrap();

    // Following the cursors, page by page.
    let listed = client.list_all_tools().await.unwrap();
    assert_eq!(listed, ALL.to_rmcp());
    let names: Vec<&str> = listed.iter().map(|tool| &*tool.name).collect();
    let expected: Vec<&str> = ALL.tools().iter().map(Tool::name).collect();
    assert_eq!(names, expected);
    for (theirs, ours) in listed.iter().zip(ALL.tools()) {
        let mut read_back: Tool =
            serde_json::from_value(serde_json::to_value(theirs).unwrap()).unwrap();
        // rmcp lists one descriptor to every session: an output schema in the form every
        // version takes (an object), which the listing writes for the versions before 2026.
        let every_version = ours.output_schema_for(mcp_annotations::ProtocolVersion::V2025_11_25);
        assert_eq!(
            read_back
                .output_schema
                .as_ref()
                .map(|schema| schema.to_value()),
            every_version.map(|text| serde_json::from_str::<serde_json::Value>(&text).unwrap())
        );
        read_back.output_schema = ours.output_schema.clone();
        assert_eq!(&read_back, ours, "every other field arrives as it is");
    }

    // A forged cursor is an error the client sees, with the protocol's code.
    let forged = PaginatedRequestParams::default().with_cursor(Some("forged".to_owned()));
    match client.list_tools(Some(forged)).await {
        Err(rmcp::ServiceError::McpError(error)) => {
            assert_eq!(error.code.0, -32602);
            assert!(
                error.message.contains("invalid tools/list cursor"),
                "{}",
                error.message
            );
        }
        other => panic!("expected an invalid-params error, got {other:?}"),
    }

    client.cancel().await.unwrap();
    server.await.unwrap();
}
