//! What a call gives back: the [`ToolResult`], its [`Content`] blocks, and what a handler may
//! return ([`IntoToolResult`], with [`Text`] and [`Json`] for values that are not text already).

use std::borrow::Cow;
use std::fmt::Display;
use std::sync::Arc;

use serde::Serialize;
use serde_json::{Map, Value};

/// The result of a tool call, as the protocol's `CallToolResult` carries it: content for the
/// model, optional structured content, and whether the tool failed.
///
/// A failed tool is still a result (`isError: true`), not a protocol error, so the model sees
/// the message and can correct itself: a bad argument, an `Err` returned by the handler, a
/// handler that panicked.
///
/// `#[non_exhaustive]`, since the protocol keeps adding fields: build one with
/// [`text`](Self::text), [`error`](Self::error), [`new`](Self::new) and the `with_` methods.
#[derive(Clone, Debug, Default, PartialEq)]
#[non_exhaustive]
pub struct ToolResult {
    /// What the model reads: text blocks, in order.
    pub content: Vec<Content>,
    /// The result as a JSON object, for a tool with an `outputSchema` (`structuredContent`).
    pub structured_content: Option<Value>,
    /// Whether the tool failed (`isError`).
    pub is_error: bool,
}

/// One block of a tool result's content.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Content {
    /// A text block.
    Text(String),
}

impl Content {
    /// The text of a text block.
    #[must_use]
    pub fn as_text(&self) -> Option<&str> {
        match self {
            Content::Text(text) => Some(text),
        }
    }
}

impl ToolResult {
    /// A successful result with no content (a handler returning `()`).
    #[must_use]
    pub const fn empty() -> Self {
        ToolResult {
            content: Vec::new(),
            structured_content: None,
            is_error: false,
        }
    }

    /// A successful result of these content blocks, in order.
    ///
    /// ```
    /// use annotations::{Content, ToolResult};
    /// use serde_json::json;
    ///
    /// let result = ToolResult::new(vec![Content::Text("2 notes".into())])
    ///     .with_structured_content(json!({"count": 2}));
    /// assert_eq!(result.text_content(), "2 notes");
    /// assert!(!result.is_error);
    /// ```
    #[must_use]
    pub const fn new(content: Vec<Content>) -> Self {
        ToolResult {
            content,
            structured_content: None,
            is_error: false,
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

    /// A successful result of one text block.
    #[must_use]
    pub fn text(text: impl Into<String>) -> Self {
        ToolResult {
            content: vec![Content::Text(text.into())],
            structured_content: None,
            is_error: false,
        }
    }

    /// A failed result (`isError: true`) whose text tells the model what went wrong.
    #[must_use]
    pub fn error(message: impl Into<String>) -> Self {
        ToolResult {
            content: vec![Content::Text(message.into())],
            structured_content: None,
            is_error: true,
        }
    }

    /// The text of all text blocks, joined by newlines.
    #[must_use]
    pub fn text_content(&self) -> String {
        let texts: Vec<&str> = self.content.iter().filter_map(Content::as_text).collect();
        texts.join("\n")
    }

    /// The result as the protocol's `CallToolResult` JSON object.
    ///
    /// ```
    /// use annotations::ToolResult;
    ///
    /// assert_eq!(
    ///     ToolResult::error("no note 4").to_json(),
    ///     serde_json::json!({"content": [{"type": "text", "text": "no note 4"}], "isError": true})
    /// );
    /// ```
    #[must_use]
    pub fn to_json(&self) -> Value {
        let content: Vec<Value> = self
            .content
            .iter()
            .map(|block| match block {
                Content::Text(text) => {
                    let mut object = Map::new();
                    object.insert("type".into(), "text".into());
                    object.insert("text".into(), text.clone().into());
                    Value::Object(object)
                }
            })
            .collect();
        let mut object = Map::new();
        object.insert("content".into(), Value::Array(content));
        if let Some(structured) = &self.structured_content {
            object.insert("structuredContent".into(), structured.clone());
        }
        if self.is_error {
            object.insert("isError".into(), true.into());
        }
        Value::Object(object)
    }
}

/// What a tool handler may return: the conversion to a [`ToolResult`].
///
/// - `()` and `None`: no content;
/// - strings, numbers, `bool`, `char`: one text block (their `Display`); any other `Display`
///   value through [`Text`];
/// - [`Json`]: structured content, with its JSON text as the text block;
/// - `Result<T, E>` with `E: Display`: `T`'s result, or a failed result with `E`'s message;
/// - a [`ToolResult`] as it is.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be a tool's result",
    label = "a #[tool] handler's return type must implement `annotations::IntoToolResult`",
    note = "return text (`String`, `&str`, a number), `()`, `annotations::Text(value)` for any `Display` value, `annotations::Json(value)` for structured content, a `ToolResult`, or a `Result` of one of these with an error that implements `Display`"
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
/// Structured content is a JSON object: a value that serializes to anything else is wrapped
/// as `{"result": value}`, and the descriptor's `outputSchema`, which `#[tool]` writes for a
/// handler returning `Json<T>`, says the same. A value that cannot be serialized, or holds a
/// NaN or an infinity (which serde_json would quietly write as `null`), gives a failed result.
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
/// assert_eq!(listed.structured_content, Some(json!({"result": [1, 2]})));
///
/// assert!(Json(f64::NAN).into_tool_result().is_error);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Json<T>(pub T);

impl<T: Serialize> IntoToolResult for Json<T> {
    fn into_tool_result(self) -> ToolResult {
        match serde_json::to_value(crate::call::finite::Finite(&self.0)) {
            Ok(value) => {
                let text = value.to_string();
                let structured = if value.is_object() {
                    value
                } else {
                    let mut wrapper = Map::new();
                    wrapper.insert("result".into(), value);
                    Value::Object(wrapper)
                };
                ToolResult {
                    content: vec![Content::Text(text)],
                    structured_content: Some(structured),
                    is_error: false,
                }
            }
            Err(error) => ToolResult::error(format!(
                "the tool's result could not be serialized: {error}"
            )),
        }
    }
}
