//! Results as rmcp's `CallToolResult`, and rmcp's results as a handler's return value.

use rmcp::model::{
    AudioContent, CallToolResult, ContentBlock, EmbeddedResource, ImageContent, MetaObject,
    Resource, ResourceContents, TextContent,
};
use serde_json::Value;

use crate::content::Content;
use crate::protocol::ProtocolVersion;
use crate::result::{IntoToolResult, ToolResult};

/// rmcp's `Annotations` and `Icon` from ours, through their JSON (small, and rare).
fn through_json<T: serde::de::DeserializeOwned>(value: Value) -> Option<T> {
    serde_json::from_value(value).ok()
}

fn meta(meta: Option<crate::protocol::Meta>) -> Option<MetaObject> {
    meta.map(MetaObject)
}

/// One of our blocks as rmcp's, moved: an image's base64 text is not copied.
pub(crate) fn block(content: Content, version: ProtocolVersion) -> ContentBlock {
    let annotations = content
        .annotations()
        .and_then(|annotations| through_json(serde_json::to_value(annotations).ok()?));
    // The block's fields, moved out through its JSON form (a map of moved strings).
    let Value::Object(mut object) = content.into_json(version) else {
        return ContentBlock::text(String::new());
    };
    let meta = match object.remove("_meta") {
        Some(Value::Object(map)) => Some(MetaObject(map)),
        _ => None,
    };
    let mut take = |key: &str| match object.remove(key) {
        Some(Value::String(text)) => Some(text),
        _ => None,
    };
    let kind = take("type").unwrap_or_default();
    match kind.as_str() {
        "image" => {
            let mut image = ImageContent::new(
                take("data").unwrap_or_default(),
                take("mimeType").unwrap_or_default(),
            );
            image.meta = meta;
            image.annotations = annotations;
            ContentBlock::Image(image)
        }
        "audio" => {
            let mut audio = AudioContent::new(
                take("data").unwrap_or_default(),
                take("mimeType").unwrap_or_default(),
            );
            audio.meta = meta;
            audio.annotations = annotations;
            ContentBlock::Audio(audio)
        }
        "resource_link" => {
            let mut link = Resource::new(
                take("uri").unwrap_or_default(),
                take("name").unwrap_or_default(),
            );
            link.title = take("title");
            link.description = take("description");
            link.mime_type = take("mimeType");
            link.size = object.get("size").and_then(Value::as_u64);
            link.icons = object.remove("icons").and_then(through_json);
            link.meta = meta;
            link.annotations = annotations;
            ContentBlock::ResourceLink(link)
        }
        "resource" => {
            let Some(Value::Object(mut resource)) = object.remove("resource") else {
                return ContentBlock::text(String::new());
            };
            let mut take = |key: &str| match resource.remove(key) {
                Some(Value::String(text)) => Some(text),
                _ => None,
            };
            let uri = take("uri").unwrap_or_default();
            let mime_type = take("mimeType");
            let text = take("text");
            let blob = take("blob");
            let contents_meta = match resource.remove("_meta") {
                Some(Value::Object(map)) => Some(MetaObject(map)),
                _ => None,
            };
            let contents = match (text, blob) {
                (Some(text), _) => ResourceContents::TextResourceContents {
                    uri,
                    mime_type,
                    text,
                    meta: contents_meta,
                },
                (None, blob) => ResourceContents::BlobResourceContents {
                    uri,
                    mime_type,
                    blob: blob.unwrap_or_default(),
                    meta: contents_meta,
                },
            };
            let mut embedded = EmbeddedResource::new(contents);
            embedded.meta = meta;
            embedded.annotations = annotations;
            ContentBlock::Resource(embedded)
        }
        _ => {
            let mut text = TextContent::new(take("text").unwrap_or_default());
            text.meta = meta;
            text.annotations = annotations;
            ContentBlock::Text(text)
        }
    }
}

/// The result as rmcp's `CallToolResult` for a session of `version`: every block moved into
/// rmcp's, the structured content, the error flag and `_meta`. rmcp writes `resultType` for
/// the version it negotiated. Structured content that is not an object is wrapped in
/// `{"result": ...}` for versions before 2026-07-28, and with `objects_always` for every
/// version: rmcp's `ToolRouter` lists the same descriptors to every session, in the form every
/// version accepts, and its results must agree with them.
///
/// The version is asked for only when the result needs it (a block other than plain text,
/// structured content that is not an object), and then once: finding a session's version
/// costs more than converting a plain text result.
pub(crate) fn call_tool_result(
    result: ToolResult,
    version: impl Fn() -> ProtocolVersion,
    objects_always: bool,
) -> CallToolResult {
    let known = std::cell::OnceCell::new();
    let version = || *known.get_or_init(&version);
    let content = result
        .content
        .into_iter()
        .map(|content| match content {
            // The common case, without the trip through JSON.
            Content::Text(text) if text.annotations().is_none() && text.meta().is_none() => {
                ContentBlock::text(text.into_text())
            }
            other => block(other, version()),
        })
        .collect();
    let mut out = CallToolResult::success(content);
    out.structured_content = result.structured_content.map(|structured| {
        if structured.is_object() || (!objects_always && version().takes_any_structured_root()) {
            structured
        } else {
            let mut wrapper = serde_json::Map::new();
            wrapper.insert("result".into(), structured);
            Value::Object(wrapper)
        }
    });
    // Written only when the tool failed, as the protocol's default is `false`.
    out.is_error = result.is_error.then_some(true);
    out.meta = meta(result.meta);
    out
}

/// The result as rmcp's `CallToolResult`, for the newest protocol version: every block, the
/// structured content (inside `{"result": ...}` unless it is an object, as rmcp's descriptors
/// made from this crate's say), the error flag and `_meta`.
impl From<ToolResult> for CallToolResult {
    fn from(result: ToolResult) -> Self {
        call_tool_result(result, || ProtocolVersion::LATEST, true)
    }
}

/// Reads rmcp's value through its JSON, as a host reads a peer's. rmcp's own types hold what
/// the protocol allows, so this fails only for values rmcp would also send wrong (a MIME type
/// that is not `type/subtype`, `data` that is not base64): those become a failed result that
/// says so, never a block the client cannot read.
fn from_rmcp<T: serde::Serialize>(
    value: &T,
    read: fn(&Value) -> Result<ToolResult, crate::protocol::ContentError>,
) -> ToolResult {
    // Through the text, not `to_value`: rmcp's `f32` priority is written in its shortest form
    // (`0.3`), where widening it to `f64` in a `Value` would make it 0.30000001192092896.
    let json = serde_json::to_string(value).and_then(|text| serde_json::from_str::<Value>(&text));
    match json {
        Ok(json) => read(&json).unwrap_or_else(|error| {
            ToolResult::error(format!(
                "the tool's result is not valid MCP content: {error}"
            ))
        }),
        Err(error) => ToolResult::error(format!("the tool's result could not be written: {error}")),
    }
}

/// rmcp's `CallToolResult` as a handler's return value, so an rmcp tool's existing return
/// values work unchanged.
impl IntoToolResult for CallToolResult {
    fn into_tool_result(self) -> ToolResult {
        from_rmcp(&self, ToolResult::from_json)
    }
}

/// rmcp's content block as a handler's return value.
impl IntoToolResult for ContentBlock {
    fn into_tool_result(self) -> ToolResult {
        from_rmcp(&self, |json| {
            Content::read_at(json, "content[0]").map(|block| ToolResult::new(vec![block]))
        })
    }
}

/// rmcp's content blocks as a handler's return value, in order.
impl IntoToolResult for Vec<ContentBlock> {
    fn into_tool_result(self) -> ToolResult {
        from_rmcp(&self, |json| {
            let blocks = json.as_array().map(Vec::as_slice).unwrap_or_default();
            blocks
                .iter()
                .enumerate()
                .map(|(i, block)| Content::read_at(block, &format!("content[{i}]")))
                .collect::<Result<Vec<_>, _>>()
                .map(ToolResult::new)
        })
    }
}
