//! What a call gives back: the [`ToolResult`], and what a handler may return
//! ([`IntoToolResult`], with [`Text`] and [`Json`] for values that are not text already, in
//! [`into`]). Structured content is checked to be finite on its way ([`finite`]).

pub(crate) mod finite;
pub(crate) mod into;
pub(crate) mod wire;

pub use self::into::{IntoToolResult, Json, Text};

use serde_json::Value;

use crate::content::Content;
use crate::protocol::read::meta_of;
use crate::protocol::{ContentError, Meta};

/// The result of a tool call, as the protocol's `CallToolResult` carries it: content for the
/// model, optional structured content, whether the tool failed, and `_meta`.
///
/// A failed tool is still a result (`isError: true`), not a protocol error, so the model sees
/// the message and can correct itself: a bad argument, an `Err` returned by the handler, a
/// handler that panicked.
///
/// `#[non_exhaustive]`, since the protocol keeps adding fields: build one with
/// [`text`](Self::text), [`error`](Self::error), [`new`](Self::new) and the `with_` methods.
/// It is written for the protocol version of the session ([`into_json`](Self::into_json)),
/// and a host reads one from any version ([`from_json`](Self::from_json)).
#[derive(Clone, Debug, Default, PartialEq)]
#[non_exhaustive]
pub struct ToolResult {
    /// What the model reads: content blocks, in order.
    pub content: Vec<Content>,
    /// The result as JSON, for a tool with an `outputSchema` (`structuredContent`).
    pub structured_content: Option<Value>,
    /// Whether the tool failed (`isError`).
    pub is_error: bool,
    /// The result's `_meta`.
    pub meta: Option<Meta>,
}

impl ToolResult {
    /// A successful result with no content (a handler returning `()`).
    #[must_use]
    pub const fn empty() -> Self {
        ToolResult::new(Vec::new())
    }

    /// A successful result of these content blocks, in order.
    ///
    /// ```
    /// use mcp_annotations::{content::Content, content::Image, ToolResult};
    /// use serde_json::json;
    ///
    /// let result = ToolResult::new(vec![Content::text("1 chart"), Image::png(b"...").into()])
    ///     .with_structured_content(json!({"count": 1}));
    /// assert_eq!(result.text_content(), "1 chart");
    /// assert!(!result.is_error);
    /// ```
    #[must_use]
    pub const fn new(content: Vec<Content>) -> Self {
        ToolResult {
            content,
            structured_content: None,
            is_error: false,
            meta: None,
        }
    }

    /// Sets the structured content (`structuredContent`).
    #[must_use]
    pub fn with_structured_content(mut self, structured_content: Value) -> Self {
        self.structured_content = Some(structured_content);
        self
    }

    /// Sets whether the tool failed (`isError`).
    #[must_use]
    pub fn with_error(mut self, is_error: bool) -> Self {
        self.is_error = is_error;
        self
    }

    /// Sets the result's `_meta`.
    #[must_use]
    pub fn with_meta(mut self, meta: Meta) -> Self {
        self.meta = Some(meta);
        self
    }

    /// A successful result of one text block.
    #[must_use]
    pub fn text(text: impl Into<String>) -> Self {
        ToolResult::new(vec![Content::text(text)])
    }

    /// A failed result (`isError: true`) whose text tells the model what went wrong.
    #[must_use]
    pub fn error(message: impl Into<String>) -> Self {
        ToolResult::text(message).with_error(true)
    }

    /// The text of all text blocks, joined by newlines.
    #[must_use]
    pub fn text_content(&self) -> String {
        let texts: Vec<&str> = self.content.iter().filter_map(Content::as_text).collect();
        texts.join("\n")
    }

    /// Reads a `CallToolResult` from a peer's JSON, of any protocol version: unknown keys are
    /// skipped, `null` is unset (but for `structuredContent`, where it is a value), a
    /// `resultType` other than `"complete"` is refused (it is not a tool's answer). Structured
    /// content is kept as sent: a version before 2026-07-28 sends a value that is not an
    /// object inside `{"result": ...}`, and it stays so.
    ///
    /// ```
    /// use mcp_annotations::{content::Content, ToolResult};
    /// use serde_json::json;
    ///
    /// let result = ToolResult::from_json(&json!({
    ///     "content": [{"type": "image", "data": "iVBORw==", "mimeType": "image/png"}],
    ///     "resultType": "complete",
    /// }))?;
    /// assert!(matches!(&result.content[0], Content::Image(image) if image.bytes() == b"\x89PNG"));
    ///
    /// let bad = ToolResult::from_json(&json!({"content": [{"type": "text", "text": "x", "annotations": {"priority": 2}}]}));
    /// assert_eq!(bad.unwrap_err().field(), "content[0].annotations.priority");
    /// # Ok::<(), mcp_annotations::content::ContentError>(())
    /// ```
    ///
    /// # Errors
    ///
    /// A [`ContentError`] naming the field, as [`Content::from_json`] does for each block.
    pub fn from_json(value: &Value) -> Result<Self, ContentError> {
        let Some(object) = value.as_object() else {
            return Err(ContentError::at("", "expected a CallToolResult object"));
        };
        let content = match object.get("content").filter(|value| !value.is_null()) {
            Some(Value::Array(blocks)) => blocks
                .iter()
                .enumerate()
                .map(|(i, block)| Content::read_at(block, &format!("content[{i}]")))
                .collect::<Result<Vec<_>, _>>()?,
            Some(other) => {
                return Err(ContentError::at(
                    "content",
                    format!("expected an array of blocks, found {other}"),
                ));
            }
            None => return Err(ContentError::at("content", "missing")),
        };
        let is_error = match object.get("isError") {
            None | Some(Value::Null) => false,
            Some(Value::Bool(flag)) => *flag,
            Some(other) => {
                return Err(ContentError::at(
                    "isError",
                    format!("expected a boolean, found {other}"),
                ));
            }
        };
        match object.get("resultType") {
            None | Some(Value::Null) => {}
            Some(Value::String(kind)) if kind == "complete" => {}
            Some(other) => {
                return Err(ContentError::at(
                    "resultType",
                    format!("expected `\"complete\"` for a tool's result, found {other}"),
                ));
            }
        }
        Ok(ToolResult {
            content,
            // `null` is a value here (2026-07-28 allows any JSON value), not "unset".
            structured_content: object.get("structuredContent").cloned(),
            is_error,
            meta: meta_of(object)?,
        })
    }
}

/// Read as [`ToolResult::from_json`] reads it, with its errors.
impl<'de> serde::Deserialize<'de> for ToolResult {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let value = Value::deserialize(deserializer)?;
        ToolResult::from_json(&value).map_err(serde::de::Error::custom)
    }
}
