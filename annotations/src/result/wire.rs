//! The one writer of a result's wire form: a [`ToolResult`] written by reference, for a
//! protocol version, into any serializer (its blocks through content's writer).
//! `Serialize for ToolResult` writes the newest version through it, copying nothing;
//! [`ToolResult::to_json`] copies into a JSON value, and [`ToolResult::into_json`] moves the
//! blocks' large strings and the structured content into it.

use serde::ser::{Serialize, SerializeMap, Serializer};
use serde_json::{Map, Value};

use crate::content::Content;
use crate::content::wire::Wire;
use crate::protocol::ProtocolVersion;
use crate::result::ToolResult;

/// A result as `version` writes it.
struct ResultWire<'a>(&'a ToolResult, ProtocolVersion);

impl Serialize for ResultWire<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let ResultWire(result, version) = *self;
        let mut map = serializer.serialize_map(None)?;
        map.serialize_entry("content", &Blocks(&result.content, version))?;
        if let Some(structured) = &result.structured_content {
            if wrapped(structured, version) {
                map.serialize_entry("structuredContent", &Wrapped(structured))?;
            } else {
                map.serialize_entry("structuredContent", structured)?;
            }
        }
        if result.is_error {
            map.serialize_entry("isError", &true)?;
        }
        if let Some(meta) = &result.meta {
            map.serialize_entry("_meta", meta)?;
        }
        if version.has_result_type() {
            map.serialize_entry("resultType", "complete")?;
        }
        map.end()
    }
}

/// The blocks, each as `version` writes it.
struct Blocks<'a>(&'a [Content], ProtocolVersion);

impl Serialize for Blocks<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.0.iter().map(|block| Wire(block, self.1)))
    }
}

/// Whether `version` takes `structured` inside `{"result": ...}`: versions before 2026-07-28
/// require an object there (as a listing writes such an output schema).
fn wrapped(structured: &Value, version: ProtocolVersion) -> bool {
    !structured.is_object() && !version.takes_any_structured_root()
}

/// `{"result": value}`.
struct Wrapped<'a>(&'a Value);

impl Serialize for Wrapped<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(1))?;
        map.serialize_entry("result", self.0)?;
        map.end()
    }
}

impl ToolResult {
    /// The result as the protocol's `CallToolResult` JSON object for `version`, copied; see
    /// [`into_json`](Self::into_json).
    ///
    /// ```
    /// use mcp_annotations::{ProtocolVersion, ToolResult};
    /// use serde_json::json;
    ///
    /// assert_eq!(
    ///     ToolResult::error("no note 4").to_json(ProtocolVersion::V2025_11_25),
    ///     json!({"content": [{"type": "text", "text": "no note 4"}], "isError": true})
    /// );
    /// assert_eq!(
    ///     ToolResult::text("done").to_json(ProtocolVersion::V2026_07_28),
    ///     json!({"content": [{"type": "text", "text": "done"}], "resultType": "complete"})
    /// );
    /// ```
    #[must_use]
    pub fn to_json(&self, version: ProtocolVersion) -> Value {
        // Keys are strings and numbers finite, so writing a value cannot fail.
        serde_json::to_value(ResultWire(self, version)).unwrap_or_default()
    }

    /// The result as the protocol's `CallToolResult` JSON object for `version`, its blocks
    /// moved rather than copied (an image's base64 text becomes the JSON string itself).
    ///
    /// Per version: 2026-07-28 adds `resultType: "complete"` and allows any JSON value as
    /// `structuredContent`; earlier versions require an object there, so any other value is
    /// written as `{"result": value}` (as a listing writes such an output schema). A resource
    /// link's icons are left out for 2025-06-18, which has none.
    #[must_use]
    pub fn into_json(mut self, version: ProtocolVersion) -> Value {
        // The blocks and the structured content are taken out, the writer writes the rest,
        // and they are moved into their places.
        let blocks = std::mem::take(&mut self.content);
        let structured = self.structured_content.take();
        let mut value = self.to_json(version);
        if let Value::Object(object) = &mut value {
            let blocks = blocks.into_iter().map(|block| block.into_json(version));
            object.insert("content".into(), Value::Array(blocks.collect()));
            if let Some(structured) = structured {
                let structured = if wrapped(&structured, version) {
                    Value::Object(Map::from_iter([("result".to_owned(), structured)]))
                } else {
                    structured
                };
                object.insert("structuredContent".into(), structured);
            }
        }
        value
    }
}

/// Written as the newest protocol version writes it ([`into_json`](ToolResult::into_json)
/// takes a version), by reference: nothing of the result is copied.
impl Serialize for ToolResult {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        ResultWire(self, ProtocolVersion::LATEST).serialize(serializer)
    }
}
