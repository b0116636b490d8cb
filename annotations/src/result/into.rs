//! What a handler may return: anything that becomes a [`ToolResult`].

use std::borrow::Cow;
use std::fmt::Display;
use std::sync::Arc;

use serde::Serialize;

use crate::content::{Audio, Content, EmbeddedResource, Image, ResourceLink, TextContent};
use crate::result::ToolResult;

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
    label = "a #[tool] handler's return type must implement `mcp_annotations::IntoToolResult`",
    note = "return text (`String`, `&str`, a number), `()`, `mcp_annotations::Text(value)` for any `Display` value, `mcp_annotations::Json(value)` for structured content, content blocks (`Image`, `Audio`, `ResourceLink`, `EmbeddedResource`, `Content`, `Vec<Content>`), a `ToolResult`, or a `Result` of one of these with an error that implements `Display`"
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
/// use mcp_annotations::{IntoToolResult, Text};
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
/// use mcp_annotations::{IntoToolResult, Json};
/// use serde_json::json;
///
/// let result = Json(json!({"id": 4, "title": "Milk"})).into_tool_result();
/// assert_eq!(result.structured_content, Some(json!({"id": 4, "title": "Milk"})));
/// assert_eq!(result.text_content(), r#"{"id":4,"title":"Milk"}"#);
///
/// let listed = Json(vec![1, 2]).into_tool_result();
/// assert_eq!(listed.structured_content, Some(json!([1, 2])));
/// let older = listed.to_json(mcp_annotations::ProtocolVersion::V2025_11_25);
/// assert_eq!(older["structuredContent"], json!({"result": [1, 2]}));
///
/// assert!(Json(f64::NAN).into_tool_result().is_error);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Json<T>(pub T);

impl<T: Serialize> IntoToolResult for Json<T> {
    fn into_tool_result(self) -> ToolResult {
        match serde_json::to_value(crate::result::finite::Finite(&self.0)) {
            Ok(value) => ToolResult::text(value.to_string()).with_structured_content(value),
            Err(error) => ToolResult::error(format!(
                "the tool's result could not be serialized: {error}"
            )),
        }
    }
}
