//! Tool results: every content block and every result, written for each protocol version,
//! validates against that version's official schema; the specification's own examples read
//! into `Content`/`ToolResult` and write back equal; bad values from a peer are errors that
//! name the field; rmcp's types cross the bridge unchanged.
//!
//! The whole schemas and the examples are vendored in `tests/schemas/` (see its README).

use mcp_annotations::{
    Context, IntoToolResult, Json, ProtocolVersion, ToolResult, content::Audio, content::Content,
    content::ContentAnnotations, content::EmbeddedResource, content::Image, content::MimeType,
    content::Priority, content::ResourceLink, content::Role, descriptor::Icon,
    descriptor::IconTheme,
};
use serde_json::{Map, Value, json};

/// A validator for one definition of a version's whole schema.
fn validator(version: ProtocolVersion, definition: &str) -> jsonschema::Validator {
    let file = format!("full/schema-{version}.json");
    jsonschema::validator_for(&annotations_tests::schema_definition(&file, definition)).unwrap()
}

fn assert_valid(validator: &jsonschema::Validator, what: &str, value: &Value) {
    let errors: Vec<String> = validator
        .iter_errors(value)
        .map(|e| e.to_string())
        .collect();
    assert!(errors.is_empty(), "{what}: {value} is invalid: {errors:?}");
}

fn meta(key: &str) -> Map<String, Value> {
    json!({ key: "value" }).as_object().unwrap().clone()
}

/// One of every block, bare and with everything a block may carry.
fn every_block() -> Vec<Content> {
    let annotations = ContentAnnotations::new()
        .with_audience([Role::User, Role::Assistant])
        .with_priority(Priority::of(0.5))
        .with_last_modified("2025-05-03T14:30:00Z");
    vec![
        Content::text("plain"),
        Content::text("annotated").with_annotations(annotations.clone()),
        Image::png([0x89, b'P', b'N', b'G', 0, 1, 2, 255]).into(),
        Image::jpeg(b"jpeg")
            .with_annotations(ContentAnnotations::new().with_priority(Priority::HIGHEST))
            .with_meta(meta("image"))
            .into(),
        Audio::wav(b"RIFF....WAVE").into(),
        Audio::new(b"mp3", MimeType::MP3)
            .with_meta(meta("audio"))
            .into(),
        ResourceLink::new("file:///a.txt", "a.txt").into(),
        ResourceLink::new("https://example.com/r/1", "r1")
            .with_title("Report 1")
            .with_description("The first report")
            .with_mime_type(MimeType::PDF)
            .with_size(1234)
            .with_icons([
                Icon::new("https://example.com/icon.png")
                    .with_mime_type(MimeType::PNG)
                    .with_sizes(["48x48", "any"])
                    .with_theme(IconTheme::Dark),
                Icon::new("data:image/svg+xml;base64,PHN2Zz4="),
            ])
            .with_annotations(annotations.clone())
            .with_meta(meta("link"))
            .into(),
        EmbeddedResource::text("file:///main.rs", "fn main() {}").into(),
        EmbeddedResource::text("file:///config.json", "{}")
            .with_mime_type(MimeType::JSON)
            .with_contents_meta(meta("contents"))
            .with_annotations(annotations)
            .with_meta(meta("resource"))
            .into(),
        EmbeddedResource::blob("file:///logo.png", [1, 2, 3, 4, 5])
            .with_mime_type(MimeType::PNG)
            .into(),
    ]
}

fn every_result() -> Vec<ToolResult> {
    vec![
        ToolResult::empty(),
        ToolResult::text("done"),
        ToolResult::error("no note 4"),
        ToolResult::new(every_block()),
        ToolResult::new(every_block())
            .with_structured_content(json!({"count": 2}))
            .with_meta(meta("result")),
        ToolResult::new(vec![Content::text("[1,2]")]).with_structured_content(json!([1, 2])),
        Json(vec![1, 2]).into_tool_result(),
        Json(json!({"id": 4})).into_tool_result(),
        Image::png(b"png").into_tool_result(),
        every_block().into_tool_result(),
    ]
}

#[test]
fn every_block_validates_against_each_versions_content_block() {
    for version in ProtocolVersion::ALL {
        let validator = validator(version, "ContentBlock");
        for block in every_block() {
            assert_valid(&validator, version.as_str(), &block.into_json(version));
        }
    }
}

#[test]
fn every_result_validates_against_each_versions_call_tool_result() {
    for version in ProtocolVersion::ALL {
        let validator = validator(version, "CallToolResult");
        for result in every_result() {
            let json = result.into_json(version);
            assert_valid(&validator, version.as_str(), &json);
            assert_eq!(
                json.get("resultType").is_some(),
                version >= ProtocolVersion::V2026_07_28,
                "{json}"
            );
        }
    }
}

/// The three ways out agree, block by block and result by result: `into_json` (which moves the
/// large strings), `to_json` (which copies), and `Serialize` (by reference, the newest version).
#[test]
fn moving_copying_and_serializing_write_the_same_json() {
    for version in ProtocolVersion::ALL {
        for result in every_result() {
            let moved = result.clone().into_json(version);
            assert_eq!(result.to_json(version), moved, "{version}");
            if version == ProtocolVersion::LATEST {
                assert_eq!(serde_json::to_value(&result).unwrap(), moved);
                let text: Value =
                    serde_json::from_str(&serde_json::to_string(&result).unwrap()).unwrap();
                assert_eq!(text, moved);
            }
        }
    }
    for block in every_block() {
        assert_eq!(
            serde_json::to_value(&block).unwrap(),
            block.clone().into_json(ProtocolVersion::LATEST)
        );
    }
}

#[test]
fn a_result_reads_back_from_every_version_as_it_was_written() {
    for version in ProtocolVersion::ALL {
        for result in every_result() {
            let json = result.to_json(version);
            let read = ToolResult::from_json(&json).unwrap();
            assert_eq!(read.to_json(version), json, "{version}");
            if version == ProtocolVersion::LATEST {
                assert_eq!(read, result);
            }
            // Through serde, as a host reading a response does.
            let text = serde_json::to_string(&json).unwrap();
            let parsed: ToolResult = serde_json::from_str(&text).unwrap();
            assert_eq!(parsed, read);
        }
    }
}

#[test]
fn icons_are_left_out_for_the_version_that_has_none() {
    let link: Content = ResourceLink::new("file:///a", "a")
        .with_icons([Icon::new("https://example.com/i.png")])
        .into();
    assert!(
        link.clone()
            .into_json(ProtocolVersion::V2025_06_18)
            .get("icons")
            .is_none()
    );
    assert_eq!(
        link.into_json(ProtocolVersion::V2025_11_25)["icons"],
        json!([{"src": "https://example.com/i.png"}])
    );
}

#[test]
fn structured_content_that_is_not_an_object_is_wrapped_only_before_2026_07_28() {
    let result = ToolResult::text("[1]").with_structured_content(json!([1]));
    assert_eq!(
        result.to_json(ProtocolVersion::V2025_11_25)["structuredContent"],
        json!({"result": [1]})
    );
    assert_eq!(
        result.to_json(ProtocolVersion::V2026_07_28)["structuredContent"],
        json!([1])
    );
}

fn examples(definition: &str) -> Vec<(String, Value)> {
    let dir = annotations_tests::schema_dir()
        .join("examples-2026-07-28")
        .join(definition);
    let mut out: Vec<(String, Value)> = std::fs::read_dir(&dir)
        .unwrap_or_else(|error| panic!("{}: {error}", dir.display()))
        .map(|entry| {
            let path = entry.unwrap().path();
            let text = std::fs::read_to_string(&path).unwrap();
            (
                path.display().to_string(),
                serde_json::from_str(&text).unwrap(),
            )
        })
        .collect();
    out.sort_by(|a, b| a.0.cmp(&b.0));
    assert!(!out.is_empty(), "no examples in {}", dir.display());
    out
}

#[test]
fn the_specifications_content_examples_read_and_write_back_equal() {
    let mut blocks = Vec::new();
    for definition in [
        "TextContent",
        "ImageContent",
        "AudioContent",
        "ResourceLink",
        "EmbeddedResource",
    ] {
        blocks.extend(examples(definition));
    }
    // Resource contents are the inside of an embedded resource block.
    for definition in ["TextResourceContents", "BlobResourceContents"] {
        for (path, contents) in examples(definition) {
            blocks.push((path, json!({"type": "resource", "resource": contents})));
        }
    }
    let validator = validator(ProtocolVersion::LATEST, "ContentBlock");
    for (path, example) in blocks {
        assert_valid(&validator, &path, &example);
        let content = Content::from_json(&example).unwrap_or_else(|e| panic!("{path}: {e}"));
        assert_eq!(
            content.into_json(ProtocolVersion::LATEST),
            example,
            "{path}"
        );
    }
}

#[test]
fn the_specifications_result_examples_read_and_write_back_equal() {
    for (path, mut example) in examples("CallToolResult") {
        let result = ToolResult::from_json(&example).unwrap_or_else(|e| panic!("{path}: {e}"));
        // `isError: false` is the default, which this crate does not write.
        if example["isError"] == json!(false) {
            example.as_object_mut().unwrap().remove("isError");
        }
        assert_eq!(result.into_json(ProtocolVersion::LATEST), example, "{path}");
    }
}

#[test]
fn bad_values_from_a_peer_are_errors_that_name_the_field() {
    let cases = [
        (
            json!({"content": [{"type": "video", "data": "AA=="}]}),
            "content[0].type",
        ),
        (json!({"content": [{"text": "no type"}]}), "content[0].type"),
        (json!({"content": [{"type": "text"}]}), "content[0].text"),
        (
            json!({"content": [{"type": "text", "text": 4}]}),
            "content[0].text",
        ),
        (
            json!({"content": [{"type": "image", "data": "not base64!", "mimeType": "image/png"}]}),
            "content[0].data",
        ),
        (
            json!({"content": [{"type": "image", "data": "AA==", "mimeType": "png"}]}),
            "content[0].mimeType",
        ),
        (
            json!({"content": [{"type": "audio", "mimeType": "audio/wav"}]}),
            "content[0].data",
        ),
        (
            json!({"content": [{"type": "text", "text": "x"}, {"type": "text", "text": "y", "annotations": {"priority": 2}}]}),
            "content[1].annotations.priority",
        ),
        (
            json!({"content": [{"type": "text", "text": "x", "annotations": {"priority": "high"}}]}),
            "content[0].annotations.priority",
        ),
        (
            json!({"content": [{"type": "text", "text": "x", "annotations": {"audience": ["user", "robot"]}}]}),
            "content[0].annotations.audience[1]",
        ),
        (
            json!({"content": [{"type": "text", "text": "x", "annotations": {"audience": "user"}}]}),
            "content[0].annotations.audience",
        ),
        (
            json!({"content": [{"type": "text", "text": "x", "annotations": []}]}),
            "content[0].annotations",
        ),
        (
            json!({"content": [{"type": "text", "text": "x", "_meta": "m"}]}),
            "content[0]._meta",
        ),
        (
            json!({"content": [{"type": "resource_link", "name": "a"}]}),
            "content[0].uri",
        ),
        (
            json!({"content": [{"type": "resource_link", "uri": "u", "name": "a", "size": -1}]}),
            "content[0].size",
        ),
        (
            json!({"content": [{"type": "resource_link", "uri": "u", "name": "a", "icons": [{"src": "s", "theme": "blue"}]}]}),
            "content[0].icons[0].theme",
        ),
        (
            json!({"content": [{"type": "resource_link", "uri": "u", "name": "a", "icons": [{}]}]}),
            "content[0].icons[0].src",
        ),
        (
            json!({"content": [{"type": "resource"}]}),
            "content[0].resource",
        ),
        (
            json!({"content": [{"type": "resource", "resource": {"uri": "u"}}]}),
            "content[0].resource",
        ),
        (
            json!({"content": [{"type": "resource", "resource": {"uri": "u", "text": "t", "blob": "AA=="}}]}),
            "content[0].resource",
        ),
        (
            json!({"content": [{"type": "resource", "resource": {"uri": "u", "blob": "A"}}]}),
            "content[0].resource.blob",
        ),
        (
            json!({"content": [{"type": "resource", "resource": {"text": "t"}}]}),
            "content[0].resource.uri",
        ),
        (json!({"content": [7]}), "content[0]"),
        (json!({"content": {}}), "content"),
        (json!({}), "content"),
        (json!({"content": [], "isError": "yes"}), "isError"),
        (
            json!({"content": [], "resultType": "input_required"}),
            "resultType",
        ),
        (json!({"content": [], "_meta": []}), "_meta"),
        (json!([]), ""),
    ];
    for (value, field) in cases {
        let error = ToolResult::from_json(&value).unwrap_err();
        assert_eq!(error.field(), field, "{value}: {error}");
        if field.is_empty() {
            assert!(!error.to_string().contains('`'), "{error}");
        } else {
            assert!(error.to_string().contains(&format!("`{field}`")), "{error}");
        }
        // serde gives the same message.
        let through_serde = serde_json::from_value::<ToolResult>(value.clone()).unwrap_err();
        assert_eq!(through_serde.to_string(), error.to_string());
    }
}

#[test]
fn a_peer_may_add_keys_and_send_null_for_what_is_unset() {
    let result = ToolResult::from_json(&json!({
        "content": [
            {"type": "text", "text": "x", "annotations": null, "_meta": null, "future": 1},
            {"type": "image", "data": "AA==", "mimeType": "image/png", "annotations": {"priority": null, "extra": true}},
        ],
        "isError": null,
        "structuredContent": null,
        "somethingNew": {},
    }))
    .unwrap();
    assert_eq!(result.content.len(), 2);
    assert!(!result.is_error);
    // `null` is a value of structured content (2026-07-28 allows any), kept as sent.
    assert_eq!(result.structured_content, Some(Value::Null));
    assert_eq!(result.content[1].annotations().unwrap().priority(), None);
}

#[test]
fn null_structured_content_is_a_value_and_a_whole_float_size_is_a_size() {
    let result = ToolResult::empty().with_structured_content(Value::Null);
    let json = result.to_json(ProtocolVersion::V2026_07_28);
    assert_eq!(json["structuredContent"], Value::Null);
    assert_eq!(ToolResult::from_json(&json).unwrap(), result);

    let link = json!({"type": "resource_link", "uri": "file:///a", "name": "a", "size": 12.0});
    let Content::ResourceLink(read) = Content::from_json(&link).unwrap() else {
        panic!("not a link");
    };
    assert_eq!(read.size(), Some(12));
    let half = json!({"type": "resource_link", "uri": "file:///a", "name": "a", "size": 12.5});
    assert_eq!(Content::from_json(&half).unwrap_err().field(), "size");
}

#[test]
fn what_cannot_be_true_is_refused_where_it_is_built() {
    assert_eq!(Priority::new(1.5).unwrap_err().field(), "priority");
    assert!(Priority::new(-0.1).is_err());
    assert!(Priority::new(f64::NAN).is_err());
    assert!(Priority::new(0.0).is_ok() && Priority::new(1.0).is_ok());
    assert_eq!(MimeType::parse("image").unwrap_err().field(), "mimeType");
    assert!(Image::from_base64("%%%%", MimeType::PNG).is_err());
    assert_eq!(
        Image::from_base64("iVBORw==", MimeType::PNG).unwrap(),
        Image::png([0x89, b'P', b'N', b'G'])
    );
}

#[test]
fn bytes_survive_the_trip_through_base64() {
    let bytes: Vec<u8> = (0..=255u8).cycle().take(10_007).collect();
    let image = Image::png(&bytes);
    let json = Content::from(image).into_json(ProtocolVersion::LATEST);
    let Content::Image(read) = Content::from_json(&json).unwrap() else {
        panic!("not an image: {json}");
    };
    assert_eq!(read.bytes(), bytes);
}

mod through_rmcp {
    use super::*;
    use rmcp::model::{CallToolResult, ContentBlock};

    #[test]
    fn every_result_reaches_rmcp_as_the_protocol_writes_it() {
        for result in every_result() {
            let mut ours = result.to_json(ProtocolVersion::LATEST);
            // rmcp lists one descriptor to every session, in the form every version takes:
            // structured content that is not an object goes inside `{"result": ...}`.
            if let Some(structured) = ours.get_mut("structuredContent")
                && !structured.is_object()
            {
                *structured = json!({"result": structured.take()});
            }
            let theirs = serde_json::to_value(CallToolResult::from(result)).unwrap();
            assert_eq!(theirs, ours);
        }
    }

    #[test]
    fn rmcp_results_returned_by_a_handler_arrive_unchanged() {
        for result in every_result() {
            let rmcp_result = CallToolResult::from(result);
            let back = CallToolResult::from(rmcp_result.clone().into_tool_result());
            assert_eq!(back, rmcp_result);
        }
        let blocks = vec![
            ContentBlock::text("a"),
            ContentBlock::image("AA==", "image/png"),
        ];
        let result = blocks.clone().into_tool_result();
        assert_eq!(CallToolResult::from(result).content, blocks);
        let one = ContentBlock::embedded_text("file:///a", "text").into_tool_result();
        assert_eq!(one.content[0].kind(), "resource");
    }

    #[test]
    fn an_rmcp_priority_arrives_as_written_not_widened() {
        let annotations = rmcp::model::Annotations::default().with_priority(0.3);
        let block = ContentBlock::Image(
            rmcp::model::ImageContent::new("iVBORw==", "image/png").with_annotations(annotations),
        );
        let result = block.into_tool_result();
        let json = result.to_json(ProtocolVersion::LATEST);
        assert_eq!(json["content"][0]["annotations"]["priority"], json!(0.3));
    }

    #[test]
    fn an_rmcp_block_that_is_not_valid_content_is_a_failed_result_that_says_so() {
        let result = ContentBlock::image("not base64", "image/png").into_tool_result();
        assert!(result.is_error);
        assert!(
            result.text_content().contains("content[0].data"),
            "{}",
            result.text_content()
        );
    }
}

/// Tools that answer with each kind of block, served by rmcp from a listing.
mod served {
    use super::*;
    use mcp_annotations::{Listing, tool, tools};
    use rmcp::handler::server::router::tool::ToolRouter;
    use rmcp::model::{CallToolRequestParams, CallToolResult, ContentBlock};
    use rmcp::{ServerHandler, ServiceExt, tool_handler};

    pub struct Server {
        router: ToolRouter<Server>,
    }

    /// Every block, one after the other.
    #[tool(read_only, open_world = false)]
    fn every_block_tool() -> Vec<Content> {
        every_block()
    }

    /// An image.
    #[tool(read_only, open_world = false)]
    fn image_tool() -> Image {
        Image::png([1, 2, 3])
    }

    /// rmcp's own result, as an rmcp tool would return it.
    #[tool(read_only, open_world = false)]
    async fn rmcp_result_tool() -> CallToolResult {
        rmcp_result()
    }

    fn rmcp_result() -> CallToolResult {
        let mut result = CallToolResult::error(vec![
            ContentBlock::text("partly done"),
            ContentBlock::image("AQID", "image/png"),
            ContentBlock::embedded_text("file:///log.txt", "step 1\nstep 2"),
        ]);
        result.structured_content = Some(json!({"done": 1}));
        result
    }

    static TOOLS: Listing<Server> = tools![every_block_tool, image_tool, rmcp_result_tool];

    #[tool_handler(router = self.router, name = "blocks")]
    impl ServerHandler for Server {}

    #[tokio::test]
    async fn rmcps_client_sees_every_block_and_rmcps_own_result_unchanged() {
        let (server_end, client_end) = tokio::io::duplex(1 << 20);
        let server = tokio::spawn(async move {
            let running = Server {
                router: TOOLS.into(),
            }
            .serve(tokio::io::split(server_end))
            .await
            .unwrap();
            running.waiting().await.unwrap();
        });
        let client = ().serve(tokio::io::split(client_end)).await.unwrap();

        let every = client
            .call_tool(CallToolRequestParams::new("every_block_tool"))
            .await
            .unwrap();
        let expected = CallToolResult::from(ToolResult::new(every_block()));
        assert_eq!(every.content, expected.content);
        let kinds: Vec<&str> = every_block().iter().map(Content::kind).collect();
        assert_eq!(
            kinds,
            [
                "text",
                "text",
                "image",
                "image",
                "audio",
                "audio",
                "resource_link",
                "resource_link",
                "resource",
                "resource",
                "resource"
            ]
        );
        // And read back as this crate's own blocks, they are the blocks the tool returned.
        let read = every.clone().into_tool_result();
        assert_eq!(read.content, every_block());

        let image = client
            .call_tool(CallToolRequestParams::new("image_tool"))
            .await
            .unwrap();
        assert_eq!(
            image.content,
            vec![ContentBlock::image("AQID", "image/png")]
        );

        let theirs = client
            .call_tool(CallToolRequestParams::new("rmcp_result_tool"))
            .await
            .unwrap();
        let mut expected = rmcp_result();
        // The wire carries `resultType` for the version the two negotiated.
        expected.result_type = theirs.result_type.clone();
        assert_eq!(theirs, expected);

        client.cancel().await.unwrap();
        server.await.unwrap();
    }
}

/// What a listing lists as a tool's output schema and what its results carry agree, for every
/// protocol version, whatever the shape of the schema's root.
mod output_agrees {
    use mcp_annotations::{Context, Json, Listing, ProtocolVersion, Tool, tool, tools};
    use serde_json::{Value, json};

    /// A shape: an internally tagged enum, whose schema's root is `oneOf` of objects.
    #[derive(serde::Serialize, schemars::JsonSchema)]
    #[serde(tag = "kind")]
    pub enum Shape {
        Circle { r: u32 },
        Square { side: u32 },
    }

    /// An alias the macro cannot see through.
    pub type MaybeShape = Option<Shape>;

    #[tool(read_only, open_world = false)]
    fn ids() -> Json<Vec<u64>> {
        Json(vec![1, 2])
    }

    #[tool(read_only, open_world = false)]
    fn word() -> Json<String> {
        Json("hello".into())
    }

    #[tool(read_only, open_world = false)]
    fn shape(square: bool) -> Json<Shape> {
        Json(if square {
            Shape::Square { side: 2 }
        } else {
            Shape::Circle { r: 1 }
        })
    }

    #[tool(read_only, open_world = false)]
    fn maybe_shape(some: bool) -> Json<MaybeShape> {
        Json(some.then_some(Shape::Circle { r: 3 }))
    }

    #[tool(read_only, open_world = false)]
    fn counts() -> Json<std::collections::BTreeMap<String, u32>> {
        Json([("a".to_owned(), 1)].into())
    }

    static TOOLS: Listing = tools![ids, word, shape, maybe_shape, counts];

    #[test]
    fn every_result_validates_against_the_output_schema_listed_for_its_version() {
        let block_on = |call| tokio::runtime::Runtime::new().unwrap().block_on(call);
        let cases: [(&str, Value); 7] = [
            ("ids", json!({})),
            ("word", json!({})),
            ("shape", json!({"square": true})),
            ("shape", json!({"square": false})),
            ("maybe_shape", json!({"some": true})),
            ("maybe_shape", json!({"some": false})),
            ("counts", json!({})),
        ];
        for version in ProtocolVersion::ALL {
            for (name, arguments) in &cases {
                let tool: &Tool = TOOLS.get(name).unwrap();
                let listed = tool.output_schema_for(version).unwrap();
                let listed: Value = serde_json::from_str(&listed).unwrap();
                if version < ProtocolVersion::V2026_07_28 {
                    assert_eq!(listed["type"], "object", "{name}: {listed}");
                }
                let validator = jsonschema::validator_for(&listed).unwrap();
                let call = TOOLS
                    .call(&(), name, arguments.as_object().cloned(), Context::none())
                    .unwrap();
                let result = block_on(call).into_json(version);
                let structured = &result["structuredContent"];
                let errors: Vec<String> = validator
                    .iter_errors(structured)
                    .map(|e| e.to_string())
                    .collect();
                assert!(
                    errors.is_empty(),
                    "{version} {name}: {structured} against {listed}: {errors:?}"
                );
            }
        }
    }
}

/// The widest result.
#[mcp_annotations::tool(read_only, open_world = false)]
fn widest(past_64_bits: bool) -> Json<u128> {
    Json(if past_64_bits {
        u128::MAX
    } else {
        u128::from(u64::MAX)
    })
}

#[test]
fn a_128_bit_result_is_written_exactly_or_refused_within_the_listed_output_schema() {
    // Without serde_json's `arbitrary_precision` (this build) a JSON value holds integers from
    // `i64::MIN` to `u64::MAX`: the output schema lists those bounds, a result within them is
    // exact, and one past them is a failed result naming the feature, never a float.
    let listing: mcp_annotations::Listing = mcp_annotations::tools![widest];
    let tool = listing.get("widest").unwrap();
    let schema = tool.output_schema.clone().unwrap().to_value();
    assert_eq!(schema["maximum"], json!(u64::MAX), "{schema}");
    let validator = jsonschema::validator_for(&schema).unwrap();
    let run = |past: bool| {
        let arguments = json!({ "past_64_bits": past }).as_object().cloned();
        let call = listing
            .call(&(), "widest", arguments, Context::none())
            .unwrap();
        call.into_ready().ok().unwrap()
    };
    let within = run(false);
    let content = within.structured_content.clone().unwrap();
    assert_eq!(content, json!(u64::MAX));
    assert!(validator.is_valid(&content), "{content} against {schema}");
    let past = run(true);
    assert!(past.is_error);
    assert!(
        past.text_content().contains("arbitrary_precision"),
        "{}",
        past.text_content()
    );
}
