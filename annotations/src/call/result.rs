//! What a call gives back: the [`ToolResult`], its [`Content`] blocks, and what a handler may
//! return ([`IntoToolResult`], with [`Text`] and [`Json`] for values that are not text already).

use std::borrow::Cow;
use std::fmt::Display;
use std::sync::Arc;

use serde::Serialize;
use serde_json::{Map, Value};

use crate::ProtocolVersion;
use crate::call::content::Meta;
use crate::call::content::{
    Audio, Content, ContentError, EmbeddedResource, Image, ResourceLink, TextContent,
};

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
    /// use annotations::{Content, Image, ToolResult};
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

    /// The result as the protocol's `CallToolResult` JSON object for `version`, copied; see
    /// [`into_json`](Self::into_json).
    ///
    /// ```
    /// use annotations::{ProtocolVersion, ToolResult};
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
        self.clone().into_json(version)
    }

    /// The result as the protocol's `CallToolResult` JSON object for `version`, its blocks
    /// moved rather than copied (an image's base64 text becomes the JSON string itself).
    ///
    /// Per version: 2026-07-28 adds `resultType: "complete"` and allows any JSON value as
    /// `structuredContent`; earlier versions require an object there, so any other value is
    /// written as `{"result": value}` (as a listing writes such an output schema). A resource
    /// link's icons are left out for 2025-06-18, which has none.
    #[must_use]
    pub fn into_json(self, version: ProtocolVersion) -> Value {
        let content: Vec<Value> = self
            .content
            .into_iter()
            .map(|block| block.into_json(version))
            .collect();
        let mut object = Map::new();
        object.insert("content".into(), Value::Array(content));
        if let Some(structured) = self.structured_content {
            let structured = if structured.is_object() || version >= ProtocolVersion::V2026_07_28 {
                structured
            } else {
                let mut wrapper = Map::new();
                wrapper.insert("result".into(), structured);
                Value::Object(wrapper)
            };
            object.insert("structuredContent".into(), structured);
        }
        if self.is_error {
            object.insert("isError".into(), true.into());
        }
        if let Some(meta) = self.meta {
            object.insert("_meta".into(), Value::Object(meta));
        }
        if version >= ProtocolVersion::V2026_07_28 {
            object.insert("resultType".into(), "complete".into());
        }
        Value::Object(object)
    }

    /// Reads a `CallToolResult` from a peer's JSON, of any protocol version: unknown keys are
    /// skipped, `null` is unset (but for `structuredContent`, where it is a value), a
    /// `resultType` other than `"complete"` is refused (it is not a tool's answer). Structured
    /// content is kept as sent: a version before 2026-07-28 sends a value that is not an
    /// object inside `{"result": ...}`, and it stays so.
    ///
    /// ```
    /// use annotations::{Content, ToolResult};
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
    /// # Ok::<(), annotations::ContentError>(())
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
            meta: crate::call::content::meta_of(object)?,
        })
    }
}

/// Written as the newest protocol version writes it ([`into_json`](ToolResult::into_json)
/// takes a version).
impl serde::Serialize for ToolResult {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.to_json(ProtocolVersion::LATEST).serialize(serializer)
    }
}

/// Read as [`ToolResult::from_json`] reads it, with its errors.
impl<'de> serde::Deserialize<'de> for ToolResult {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let value = Value::deserialize(deserializer)?;
        ToolResult::from_json(&value).map_err(serde::de::Error::custom)
    }
}

/// What a tool handler may return: the conversion to a [`ToolResult`].
///
/// - `()` and `None`: no content;
/// - strings, numbers, `bool`, `char`: one text block (their `Display`); any other `Display`
///   value through [`Text`];
/// - [`Json`]: structured content, with its JSON text as the text block;
/// - `Result<T, E>` with `E: Display`: `T`'s result, or a failed result with `E`'s message;
/// - a [`ToolResult`] as it is;
/// - one block ([`Content`], [`Image`], [`Audio`], [`ResourceLink`], [`EmbeddedResource`],
///   [`TextContent`]) or a `Vec<Content>` of mixed blocks, in order;
/// - with the `rmcp` feature, rmcp's `CallToolResult`, `ContentBlock` and
///   `Vec<ContentBlock>`, unchanged.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be a tool's result",
    label = "a #[tool] handler's return type must implement `annotations::IntoToolResult`",
    note = "return text (`String`, `&str`, a number), `()`, `annotations::Text(value)` for any `Display` value, `annotations::Json(value)` for structured content, content blocks (`Image`, `Audio`, `ResourceLink`, `EmbeddedResource`, `Content`, `Vec<Content>`), a `ToolResult`, or a `Result` of one of these with an error that implements `Display`"
)]
pub trait IntoToolResult {
    /// The result.
    fn into_tool_result(self) -> ToolResult;
}

impl IntoToolResult for ToolResult {
    fn into_tool_result(self) -> ToolResult {
        self
    }
}

/// Content blocks as a successful result.
macro_rules! block_results {
    ($($ty:ty),*) => {$(
        impl IntoToolResult for $ty {
            fn into_tool_result(self) -> ToolResult {
                ToolResult::new(vec![self.into()])
            }
        }
    )*};
}

block_results!(
    Content,
    TextContent,
    Image,
    Audio,
    ResourceLink,
    EmbeddedResource
);

/// Mixed blocks, in order.
impl IntoToolResult for Vec<Content> {
    fn into_tool_result(self) -> ToolResult {
        ToolResult::new(self)
    }
}

impl IntoToolResult for () {
    fn into_tool_result(self) -> ToolResult {
        ToolResult::empty()
    }
}

macro_rules! display_results {
    ($($ty:ty),* $(,)?) => {$(
        impl IntoToolResult for $ty {
            fn into_tool_result(self) -> ToolResult {
                ToolResult::text(self.to_string())
            }
        }
    )*};
}

display_results!(
    String,
    &str,
    Box<str>,
    Arc<str>,
    Cow<'_, str>,
    bool,
    char,
    u8,
    u16,
    u32,
    u64,
    u128,
    usize,
    i8,
    i16,
    i32,
    i64,
    i128,
    isize,
    f32,
    f64,
);

/// A borrowed result, cloned: `Option<&String>` from a lookup, for example.
impl<T: IntoToolResult + Clone> IntoToolResult for &T {
    fn into_tool_result(self) -> ToolResult {
        self.clone().into_tool_result()
    }
}

impl<T: IntoToolResult> IntoToolResult for Option<T> {
    fn into_tool_result(self) -> ToolResult {
        self.map_or_else(ToolResult::empty, IntoToolResult::into_tool_result)
    }
}

impl<T: IntoToolResult, E: Display> IntoToolResult for Result<T, E> {
    fn into_tool_result(self) -> ToolResult {
        match self {
            Ok(value) => value.into_tool_result(),
            Err(error) => ToolResult::error(error.to_string()),
        }
    }
}

/// Any `Display` value as a text result.
///
/// ```
/// use annotations::{IntoToolResult, Text};
///
/// let result = Text(std::net::Ipv4Addr::LOCALHOST).into_tool_result();
/// assert_eq!(result.text_content(), "127.0.0.1");
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Text<T>(pub T);

impl<T: Display> IntoToolResult for Text<T> {
    fn into_tool_result(self) -> ToolResult {
        ToolResult::text(self.0.to_string())
    }
}

/// A serializable value as structured content (`structuredContent`), with its JSON text as
/// the text block for clients that read only text.
///
/// The structured content is the value itself, and the descriptor's `outputSchema`, which
/// `#[tool]` writes for a handler returning `Json<T>`, is `T`'s schema. Protocol 2026-07-28
/// sends them so; the versions before, which require objects, get a value (and a schema) whose
/// root is not an object inside `{"result": ...}`: the listing and the results of one session
/// are written for its version, so the two always agree. A value that cannot be serialized,
/// or holds a NaN or an infinity (which serde_json would quietly write as `null`), gives a
/// failed result.
///
/// ```
/// use annotations::{IntoToolResult, Json};
/// use serde_json::json;
///
/// let result = Json(json!({"id": 4, "title": "Milk"})).into_tool_result();
/// assert_eq!(result.structured_content, Some(json!({"id": 4, "title": "Milk"})));
/// assert_eq!(result.text_content(), r#"{"id":4,"title":"Milk"}"#);
///
/// let listed = Json(vec![1, 2]).into_tool_result();
/// assert_eq!(listed.structured_content, Some(json!([1, 2])));
/// let older = listed.to_json(annotations::ProtocolVersion::V2025_11_25);
/// assert_eq!(older["structuredContent"], json!({"result": [1, 2]}));
///
/// assert!(Json(f64::NAN).into_tool_result().is_error);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Json<T>(pub T);

impl<T: Serialize> IntoToolResult for Json<T> {
    fn into_tool_result(self) -> ToolResult {
        match serde_json::to_value(crate::call::finite::Finite(&self.0)) {
            Ok(value) => ToolResult::text(value.to_string()).with_structured_content(value),
            Err(error) => ToolResult::error(format!(
                "the tool's result could not be serialized: {error}"
            )),
        }
    }
}
