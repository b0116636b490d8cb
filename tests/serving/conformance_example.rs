//! The conformance example served to rmcp's own client (over stdio, as a child process),
//! through `Listing::list_tools_rmcp` and `call_tool_rmcp`: every tool listed as written,
//! every block type arriving as rmcp's own, an error as a failed result, the JSON Schema
//! 2020-12 keywords kept. (The official suite judges it over Streamable HTTP in CI.)

use std::path::PathBuf;
use std::process::Stdio;

use rmcp::model::{CallToolRequestParams, ContentBlock, ResourceContents};
use rmcp::service::RunningService;
use rmcp::transport::TokioChildProcess;
use rmcp::{RoleClient, ServiceExt};

fn example() -> PathBuf {
    annotations_tests::example_binary("conformance")
}

async fn connect() -> RunningService<RoleClient, ()> {
    let mut command = tokio::process::Command::new(example());
    command.arg("--stdio");
    let (transport, _) = TokioChildProcess::builder(command)
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    ().serve(transport).await.unwrap()
}

async fn call(
    client: &RunningService<RoleClient, ()>,
    name: &'static str,
) -> rmcp::model::CallToolResult {
    client
        .call_tool(CallToolRequestParams::new(name))
        .await
        .unwrap()
}

#[tokio::test]
async fn rmcps_client_sees_every_tool_and_every_block() {
    let client = connect().await;
    let tools = client.list_all_tools().await.unwrap();
    let names: Vec<&str> = tools.iter().map(|tool| &*tool.name).collect();
    assert_eq!(names.len(), 13, "{names:?}");
    for tool in &tools {
        assert!(
            tool.description.is_some(),
            "{} has a description",
            tool.name
        );
        assert_eq!(
            tool.annotations.as_ref().and_then(|a| a.read_only_hint),
            Some(true)
        );
    }
    let schema_tool = tools
        .iter()
        .find(|t| t.name == "json_schema_2020_12_tool")
        .unwrap();
    assert_eq!(
        schema_tool.input_schema["$schema"],
        "https://json-schema.org/draft/2020-12/schema"
    );
    assert!(schema_tool.input_schema["$defs"]["address"].is_object());
    assert_eq!(schema_tool.input_schema["additionalProperties"], false);

    let text = call(&client, "test_simple_text").await;
    assert_eq!(
        text.content[0].as_text().unwrap().text,
        "This is a simple text response for testing."
    );

    let image = call(&client, "test_image_content").await;
    let ContentBlock::Image(image) = &image.content[0] else {
        panic!("not an image: {image:?}");
    };
    assert_eq!(image.mime_type, "image/png");
    assert!(image.data.starts_with("iVBORw0KGgo"), "a PNG's base64");

    let audio = call(&client, "test_audio_content").await;
    assert!(
        matches!(&audio.content[0], ContentBlock::Audio(audio) if audio.mime_type == "audio/wav")
    );

    let embedded = call(&client, "test_embedded_resource").await;
    let ContentBlock::Resource(resource) = &embedded.content[0] else {
        panic!("not a resource: {embedded:?}");
    };
    assert!(matches!(
        &resource.resource,
        ResourceContents::TextResourceContents { uri, mime_type: Some(mime), .. }
            if uri == "test://embedded-resource" && mime == "text/plain"
    ));

    let mixed = call(&client, "test_multiple_content_types").await;
    let kinds: Vec<&str> = mixed
        .content
        .iter()
        .map(|block| match block {
            ContentBlock::Text(_) => "text",
            ContentBlock::Image(_) => "image",
            ContentBlock::Resource(_) => "resource",
            _ => "other",
        })
        .collect();
    assert_eq!(kinds, ["text", "image", "resource"]);

    let failed = call(&client, "test_error_handling").await;
    assert_eq!(failed.is_error, Some(true));

    let schema = client
        .call_tool(
            CallToolRequestParams::new("json_schema_2020_12_tool").with_arguments(
                serde_json::json!({"name": "Ada", "address": {"city": "London"}})
                    .as_object()
                    .cloned()
                    .unwrap(),
            ),
        )
        .await
        .unwrap();
    assert_eq!(
        schema.content[0].as_text().unwrap().text,
        "name=Ada, city=London"
    );
    client.cancel().await.unwrap();
}
